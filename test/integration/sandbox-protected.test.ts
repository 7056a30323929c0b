// Files that run later, outside any sandbox, are protected inside the project of an agent under the
// default workspace-write sandbox. A scripted agent plants them without asking, as a hostile one
// would (git hooks and config, editor tasks, MCP servers, direnv, npm config, CLI settings); each
// attack fails or what it planted is moved out of the project, the refusal is audited, and then the
// test plays the person (git commit, git checkout, git status, npm) and checks that nothing
// planted ran: every planted script would touch a marker file.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Settings } from '../../src/shared/settings';
import { scriptedAgentLaunch, type ScriptStep } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { bwrapMissing } from '../support/bwrap';

const missing = bwrapMissing('sandbox-protected');

interface Violation {
  kind: string;
  target: string;
  reason: string;
  protected?: { entry: string; runs: string; movedTo?: string | null };
}

describe.skipIf(missing !== null)('files that run later, under the default sandbox', () => {
  let gh: TestGatehouse;
  let root: string;
  let home: string;
  let marker: string;
  /** A script that leaves the marker: what every attack plants. */
  let planted: string;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-protected-')));
    home = join(root, 'home');
    mkdirSync(home, { recursive: true });
    marker = join(root, 'PLANTED-RAN');
    planted = `#!/bin/sh\ntouch ${marker}\n`;
    gh = await startGatehouse({});
    writeFileSync(join(gh.home, 'settings.json'), '{"agents":{}}\n');
  });

  afterAll(async () => {
    await gh?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** The person's git: their own HOME, no system config, hooks where git looks for them. */
  function git(project: string, ...args: string[]) {
    return spawnSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', ...args], {
      cwd: project,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
    });
  }

  function repo(id: string): string {
    const project = join(root, id);
    mkdirSync(project, { recursive: true });
    git(project, 'init', '-q');
    writeFileSync(join(project, 'README.md'), 'hello\n');
    git(project, 'add', 'README.md');
    git(project, 'commit', '-qm', 'first');
    return project;
  }

  /** Runs one turn of `steps`; with `approve`, a person allows the one request it asks. */
  async function run(
    id: string,
    project: string,
    steps: ScriptStep[],
    approve = false,
  ): Promise<string[]> {
    const launch = scriptedAgentLaunch({ prompts: [steps] });
    const agent = {
      command: launch.command,
      args: launch.args,
      env: { ...(launch.env as Record<string, string>), HOME: home },
    };
    gh.core.replaceSettings(
      Settings.parse({ ...gh.core.settings, agents: { ...gh.core.settings.agents, [id]: agent } }),
    );
    const { sessionId } = await gh.api.call('createSession', { agentId: id, cwd: project });
    sessions.set(id, sessionId);
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    if (approve) {
      const approval = await gh.nextApproval((a) => a.sessionId === sessionId);
      await gh.api.call('vote', { requestId: approval.requestId, optionId: 'yes' });
    }
    await turn;
    return gh.events.flatMap((e) =>
      e.type === 'session_update' &&
      e.sessionId === sessionId &&
      e.update.sessionUpdate === 'agent_message_chunk'
        ? [(e.update['content'] as { text: string }).text]
        : [],
    );
  }
  const sessions = new Map<string, string>();

  async function violations(id: string): Promise<Violation[]> {
    await gh.core.store.flush();
    return (await gh.core.store.events({ type: 'sandbox_violation' }))
      .filter((e) => e.sessionId === sessions.get(id))
      .map((e) => e.payload as Violation);
  }

  /**
   * Waits until the watch has moved `path` out of the project, itself or inside a folder that holds
   * it (a `.git` that `git init` made may be caught whole before its hooks appear: which one comes
   * first depends on how fast the machine delivers the watch's events), and returns where it went.
   */
  async function movedAway(id: string, path: string): Promise<string> {
    const holds = (v: Violation) => v.target === path || path.startsWith(`${v.target}/`);
    // A loaded machine may take a while to deliver the watch's events.
    await expect
      .poll(async () => (await violations(id)).find(holds)?.protected?.movedTo, {
        timeout: 15_000,
      })
      .toBeTruthy();
    const moved = (await violations(id)).find(holds)!;
    expect(existsSync(path)).toBe(false);
    expect(moved.protected!.movedTo!.startsWith(join(gh.home, 'quarantine'))).toBe(true);
    return moved.protected!.movedTo!;
  }

  const shell = (command: string): ScriptStep => ({ type: 'shell', command, stderr: 'agent' });

  it('git hooks: neither written, renamed away, removed nor reached through a link; none runs on commit or checkout', async () => {
    const project = repo('hooks');
    const hooks = join(project, '.git', 'hooks');
    const texts = await run('hooks', project, [
      shell(`printf '${planted}' > "$PWD/.git/hooks/pre-commit"; chmod +x .git/hooks/pre-commit`),
      { type: 'direct', action: 'write', path: join(hooks, 'post-checkout') },
      shell('mv .git .git2'),
      shell('rm -rf .git/hooks'),
      shell(`ln -s .git g && printf '${planted}' > "$PWD/g/hooks/pre-commit"`),
      shell(
        `mkdir -p evil/hooks && printf '${planted}' > evil/hooks/pre-commit && chmod +x evil/hooks/pre-commit && echo "$PWD/evil" > .git/commondir`,
      ),
    ]);
    expect(texts[0]).toMatch(/^shell exit [1-9]/);
    expect(texts[1]).toBe(`direct write ${join(hooks, 'post-checkout')} failed: EROFS`);
    expect(texts.slice(2, 5)).toEqual([
      expect.stringMatching(/^shell exit [1-9]/),
      expect.stringMatching(/^shell exit [1-9]/),
      expect.stringMatching(/^shell exit [1-9]/),
    ]);
    expect(existsSync(join(project, '.git', 'HEAD'))).toBe(true);
    expect(existsSync(join(project, '.git2'))).toBe(false);
    expect(existsSync(join(hooks, 'pre-commit'))).toBe(false);
    expect(existsSync(join(hooks, 'post-checkout'))).toBe(false);
    expect(existsSync(join(hooks, 'pre-commit.sample'))).toBe(true);
    // .git/commondir did not exist: written, then moved out at once.
    await movedAway('hooks', join(project, '.git', 'commondir'));

    const refused = await violations('hooks');
    expect(refused).toContainEqual(
      expect.objectContaining({
        target: join(hooks, 'post-checkout'),
        reason: 'EROFS',
        protected: expect.objectContaining({
          entry: '.git/hooks',
          runs: expect.stringMatching(/commit/),
        }),
      }),
    );
    expect(refused).toContainEqual(
      expect.objectContaining({ target: join(hooks, 'pre-commit'), reason: 'EROFS' }),
    );
    expect(gh.events).toContainEqual(
      expect.objectContaining({
        type: 'sandbox_violation',
        target: join(hooks, 'post-checkout'),
        blocked: 'write',
        protectedBy: expect.objectContaining({ entry: '.git/hooks' }),
      }),
    );

    expect(git(project, 'commit', '-q', '--allow-empty', '-m', 'by the person').status).toBe(0);
    expect(git(project, 'checkout', '-q', '-b', 'other').status).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('git hooks that did not exist, and a whole .git made by git init: moved out as they appear', async () => {
    const project = repo('nohooks');
    rmSync(join(project, '.git', 'hooks'), { recursive: true });
    const bare = join(root, 'fresh');
    mkdirSync(bare);
    await run('nohooks', project, [
      shell(
        `mkdir .git/hooks && printf '${planted}' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit`,
      ),
    ]);
    await movedAway('nohooks', join(project, '.git', 'hooks'));
    expect(git(project, 'commit', '-q', '--allow-empty', '-m', 'by the person').status).toBe(0);

    await run('fresh', bare, [
      shell(
        `git init -q && printf '${planted}' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; git config core.fsmonitor "touch ${marker}"`,
      ),
    ]);
    await movedAway('fresh', join(bare, '.git', 'hooks'));
    // Hooks moved away while `git init` still fills them can make it fail before it writes a
    // config: then there is none to plant in. One that was written is moved out like the hooks.
    const config = join(bare, '.git', 'config');
    const quarantinedConfig = (await violations('fresh')).some((v) => v.target === config);
    if (existsSync(config) || quarantinedConfig) await movedAway('fresh', config);
    git(bare, 'status');
    git(bare, 'commit', '-q', '--allow-empty', '-m', 'by the person');
    expect(existsSync(marker)).toBe(false);
  });

  it('git config: no fsmonitor and no alias; git status runs nothing planted', async () => {
    const project = repo('config');
    const config = join(project, '.git', 'config');
    const before = readFileSync(config, 'utf8');
    const texts = await run('config', project, [
      shell(`git config core.fsmonitor "touch ${marker}"`),
      shell(`git config alias.st '!touch ${marker}'`),
      shell(`printf '[core]\\n\\tfsmonitor = touch ${marker}\\n' >> "$PWD/.git/config"`),
      { type: 'direct', action: 'write', path: config },
    ]);
    expect(texts.slice(0, 3)).toEqual([
      expect.stringMatching(/^shell exit [1-9]/),
      expect.stringMatching(/^shell exit [1-9]/),
      expect.stringMatching(/^shell exit [1-9]/),
    ]);
    expect(readFileSync(config, 'utf8')).toBe(before);
    await expect
      .poll(() => violations('config'))
      .toContainEqual(
        expect.objectContaining({
          target: config,
          protected: expect.objectContaining({
            entry: '.git/config',
            runs: expect.stringMatching(/fsmonitor/),
          }),
        }),
      );

    expect(git(project, 'status').status).toBe(0);
    expect(git(project, 'config', '--get', 'alias.st').stdout).toBe('');
    expect(existsSync(marker)).toBe(false);
  });

  it('editor tasks and settings, MCP servers, direnv, npm: refused or moved out', async () => {
    const project = repo('editor');
    mkdirSync(join(project, '.vscode'));
    const settings = join(project, '.vscode', 'settings.json');
    writeFileSync(settings, '{"editor.tabSize": 2}\n');
    const tasks = `{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"touch ${marker}","runOptions":{"runOn":"folderOpen"}}]}`;
    const texts = await run('editor', project, [
      { type: 'direct', action: 'write', path: settings },
      { type: 'direct', action: 'write', path: join(project, '.vscode', 'tasks.json') },
      shell(
        `printf '%s' '{"mcpServers":{"x":{"command":"touch","args":["${marker}"]}}}' > .mcp.json`,
      ),
      shell(`printf 'touch ${marker}\\n' > .envrc`),
      shell(`printf 'registry=http://127.0.0.1:9/\\n' > .npmrc`),
      shell(`mkdir .zed && printf '%s' '${tasks}' > .zed/tasks.json`),
    ]);
    expect(texts.slice(0, 2)).toEqual([
      `direct write ${settings} failed: EROFS`,
      `direct write ${join(project, '.vscode', 'tasks.json')} failed: EROFS`,
    ]);
    expect(readFileSync(settings, 'utf8')).toBe('{"editor.tabSize": 2}\n');
    expect(existsSync(join(project, '.vscode', 'tasks.json'))).toBe(false);
    const mcp = await movedAway('editor', join(project, '.mcp.json'));
    expect(readFileSync(mcp, 'utf8')).toContain(marker);
    await movedAway('editor', join(project, '.envrc'));
    await movedAway('editor', join(project, '.npmrc'));
    await movedAway('editor', join(project, '.zed'));
    expect(await violations('editor')).toContainEqual(
      expect.objectContaining({
        target: join(project, '.envrc'),
        reason: 'quarantined',
        protected: expect.objectContaining({
          entry: '.envrc',
          runs: expect.stringMatching(/direnv/),
        }),
      }),
    );
    const history = (
      await gh.core.store.history({ decider: 'sandbox', sessionId: sessions.get('editor')! })
    ).items;
    expect(history.map((h) => h.title)).toContainEqual(
      expect.stringMatching(/^Moved out of the project: .*\.envrc \(direnv runs/),
    );

    // The person's npm reads the project's .npmrc: the planted registry is not there.
    const npm = spawnSync('npm', ['config', 'get', 'registry'], {
      cwd: project,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home },
    });
    expect(npm.stdout.trim()).not.toContain('127.0.0.1:9');
    expect(existsSync(marker)).toBe(false);
  });

  it('Claude Code’s and Gemini CLI’s project settings: the hook stays, nothing is added', async () => {
    const project = repo('clis');
    mkdirSync(join(project, '.claude'));
    const claude = join(project, '.claude', 'settings.json');
    const hooked =
      '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"gatehouse hook claude"}]}]}}\n';
    writeFileSync(claude, hooked);
    const gemini = `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch ${marker}"}]}]}}`;
    const texts = await run('clis', project, [
      { type: 'direct', action: 'write', path: claude },
      shell('rm -f .claude/settings.json'),
      shell('mv .claude .claude-old'),
      // Made elsewhere and moved in whole, so that it appears with its settings in it.
      shell(
        `mkdir -p t/.gemini && printf '%s' '${gemini}' > t/.gemini/settings.json && mv t/.gemini .`,
      ),
    ]);
    expect(texts[0]).toBe(`direct write ${claude} failed: EROFS`);
    expect(texts.slice(1, 3)).toEqual([
      expect.stringMatching(/^shell exit [1-9]/),
      expect.stringMatching(/^shell exit [1-9]/),
    ]);
    // What Claude Code reads when the person next starts it in the project.
    expect(readFileSync(claude, 'utf8')).toBe(hooked);
    expect(existsSync(join(project, '.claude-old'))).toBe(false);
    const moved = await movedAway('clis', join(project, '.gemini'));
    expect(readFileSync(join(moved, 'settings.json'), 'utf8')).toBe(gemini);
    expect(await violations('clis')).toContainEqual(
      expect.objectContaining({
        target: claude,
        protected: expect.objectContaining({
          entry: '.claude',
          runs: expect.stringMatching(/Claude Code/),
        }),
      }),
    );
  });

  it('a write Gatehouse made for a decision stays; what the agent planted beside it goes', async () => {
    const project = repo('approved');
    const envrc = join(project, '.envrc');
    await run(
      'approved',
      project,
      [
        {
          type: 'requestPermission',
          toolCall: {
            toolCallId: 'env',
            title: 'Write .envrc',
            kind: 'edit',
            locations: [{ path: envrc }],
          },
          options: [
            { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
          onAllow: [{ type: 'writeFile', path: envrc, content: 'export APPROVED=1\n' }],
        },
        shell(`printf 'touch ${marker}\n' > .npmrc`),
      ],
      true,
    );
    // The watch judges in order: once the later .npmrc is moved, the .envrc was judged too.
    await movedAway('approved', join(project, '.npmrc'));
    expect(readFileSync(envrc, 'utf8')).toBe('export APPROVED=1\n');
    expect((await violations('approved')).map((v) => v.target)).not.toContain(envrc);
  });

  it('git add and git commit by the agent still work: only hooks and config are protected', async () => {
    const project = repo('commits');
    const texts = await run('commits', project, [
      shell(
        'echo work > work.txt && git add work.txt && git -c user.name=Agent -c user.email=agent@example.com commit -qm "by the agent" && echo done',
      ),
    ]);
    expect(texts[0]).toBe('shell exit 0: done');
    expect(git(project, 'log', '--format=%s').stdout.split('\n')).toContain('by the agent');
  });

  it('build scripts stay writable; what the agent changed unasked is listed at the end of the turn', async () => {
    const project = repo('scripts');
    writeFileSync(join(project, 'package.json'), '{"scripts":{"test":"vitest"}}\n');
    writeFileSync(join(project, 'Makefile'), 'all:\n\techo ok\n');
    const makefile = join(project, 'Makefile');
    await run(
      'scripts',
      project,
      [
        shell(`printf '%s' '{"scripts":{"test":"touch ${marker}"}}' > package.json`),
        shell(`printf '#!/bin/sh\\ntouch ${marker}\\n' > build.sh`),
        {
          type: 'requestPermission',
          toolCall: {
            toolCallId: 'make',
            title: 'Edit Makefile',
            kind: 'edit',
            locations: [{ path: makefile }],
          },
          options: [
            { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
          onAllow: [{ type: 'writeFile', path: makefile, content: 'all:\n\techo approved\n' }],
        },
      ],
      true,
    );
    expect(readFileSync(makefile, 'utf8')).toBe('all:\n\techo approved\n');
    const sessionId = sessions.get('scripts')!;
    const changed = gh.events.filter(
      (e) => e.type === 'build_script_changed' && e.sessionId === sessionId,
    );
    expect(changed.map((e) => (e as { path: string }).path)).toEqual([
      join(project, 'build.sh'),
      join(project, 'package.json'),
    ]);
    expect(changed[0]).toMatchObject({ before: null, after: expect.stringMatching(/^sha256:/) });
    expect(changed[1]).toMatchObject({
      before: expect.stringMatching(/^sha256:/),
      after: expect.stringMatching(/^sha256:/),
    });
    await gh.core.store.flush();
    const audited = (await gh.core.store.events({ type: 'build_script_changed' })).filter(
      (e) => e.sessionId === sessionId,
    );
    expect(audited.map((e) => (e.payload as { path: string }).path).sort()).toEqual([
      join(project, 'build.sh'),
      join(project, 'package.json'),
    ]);
  });
});
