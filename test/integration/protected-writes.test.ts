// A write Gatehouse performs to a file another program runs later (a git hook, an editor task, a
// CLI's settings) always asks a person: acceptEdits, Bypass, an allow rule and a remembered
// "always" do not decide it; a managed allow rule does. Judged by the resolved path.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/shared/domain';
import type { SettingsInput, AgentConfig } from '../../src/shared/settings';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';
import { freshDir, type Cleanup } from '../support/steps';

const OPTIONS = [
  { optionId: 'yes', name: 'Yes', kind: 'allow_once' as const },
  { optionId: 'always', name: 'Always', kind: 'allow_always' as const },
  { optionId: 'no', name: 'No', kind: 'reject_once' as const },
];

/** Asks to write `content` to `path` (absolute, or relative to the folder), and writes it through the client if allowed. */
function edit(folder: string, path: string, content: string): ScriptStep {
  const absolute = isAbsolute(path) ? path : join(folder, path);
  return {
    type: 'requestPermission',
    toolCall: {
      toolCallId: `edit-${path}`,
      kind: 'edit',
      title: `Write ${path}`,
      locations: [{ path: absolute }],
      content: [{ type: 'diff', path: absolute, oldText: null, newText: content }],
    },
    options: OPTIONS,
    onAllow: [{ type: 'writeFile', path: absolute, content, via: 'client' }],
  };
}

describe('writes to protected files', () => {
  const cleanup: Cleanup = [];
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** A project folder with a git dir, made by the test. */
  const project = (): string => {
    const folder = freshDir(cleanup, 'gatehouse-protected-');
    mkdirSync(join(folder, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(folder, '.git', 'config'), '[core]\n');
    return folder;
  };

  async function start(
    folder: string,
    steps: (folder: string) => ScriptStep[],
    agent: Partial<AgentConfig> = {},
    settings: Partial<SettingsInput> = {},
    managedSettingsPath?: string,
  ) {
    session = await startScriptedSession(
      { onPrompt: { go: steps(folder) } },
      { folder, agent, settings, ...(managedSettingsPath ? { managedSettingsPath } : {}) },
    );
    return session;
  }

  /** Runs the prompt, answering each request a person is asked with `answer`; returns them. */
  async function run(
    s: ScriptedSession,
    answer: (a: PendingApproval) => { optionId: string; grant?: { scope: 'session' } },
  ): Promise<PendingApproval[]> {
    const asked: PendingApproval[] = [];
    let done = false;
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' }).finally(() => {
      done = true;
    });
    const seen = new Set<string>();
    const fresh = (a: PendingApproval) => !seen.has(a.requestId);
    const turnOver = turn.then(() => null);
    for (;;) {
      const next = await Promise.race([s.gh.nextApproval(fresh, 20_000), turnOver]);
      if (next === null || done) break;
      seen.add(next.requestId);
      asked.push(next);
      await s.gh.api.call('vote', { requestId: next.requestId, ...answer(next) });
    }
    await turn;
    await s.gh.core.store.flush();
    return asked;
  }

  const deciders = async (s: ScriptedSession) =>
    (await s.gh.core.store.history({ limit: 50 })).items.reverse().map((i) => i.decider);
  const pathsOf = (asked: PendingApproval[], folder: string) =>
    asked.map((a) => a.toolCall.locations[0]!.path.slice(folder.length + 1));

  it('acceptEdits asks for editor tasks, direnv, CLI settings and MCP servers, and still writes package.json', async () => {
    const folder = project();
    const protectedPaths = ['.vscode/tasks.json', '.envrc', '.claude/settings.json', '.mcp.json'];
    const s = await start(
      folder,
      (f) => [edit(f, 'package.json', '{}\n'), ...protectedPaths.map((p) => edit(f, p, 'x\n'))],
      { mode: 'acceptEdits' },
    );
    const asked = await run(s, () => ({ optionId: 'no' }));
    expect(pathsOf(asked, folder)).toEqual(protectedPaths);
    expect(readFileSync(join(folder, 'package.json'), 'utf8')).toBe('{}\n');
    for (const p of protectedPaths) expect(existsSync(join(folder, p))).toBe(false);
    expect(await deciders(s)).toEqual([
      { type: 'mode', mode: 'acceptEdits' },
      ...protectedPaths.map(() => ({
        type: 'person',
        clientId: expect.any(String),
        surface: 'api',
      })),
    ]);
  });

  it('Bypass and an allow rule still ask for a git hook; a write nobody asked for is refused, naming what runs it', async () => {
    const folder = project();
    const hook = join(folder, '.git', 'hooks', 'pre-commit');
    const s = await start(
      folder,
      (f) => [
        edit(f, '.git/hooks/pre-commit', '#!/bin/sh\ntrue\n'),
        {
          type: 'writeFile',
          path: join(f, '.git', 'hooks', 'post-checkout'),
          content: 'x',
          via: 'client',
        },
        edit(f, 'src/a.ts', 'a\n'),
      ],
      { bypassPermissions: true },
      { rules: [{ id: 'git-ok', action: 'allow', path: '.git/**' }] },
    );
    const asked = await run(s, () => ({ optionId: 'yes' }));
    expect(pathsOf(asked, folder)).toEqual(['.git/hooks/pre-commit']);
    // What the person approved is written; the unasked write is not; the ordinary edit is Bypass's.
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\ntrue\n');
    expect(existsSync(join(folder, '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(readFileSync(join(folder, 'src', 'a.ts'), 'utf8')).toBe('a\n');
    expect(await deciders(s)).toEqual([
      { type: 'person', clientId: expect.any(String), surface: 'api' },
      { type: 'mode', mode: 'bypassPermissions' },
    ]);
    const [refused] = await s.gh.core.store.events({ type: 'fs_write_refused' });
    expect(refused!.payload).toMatchObject({
      reason: 'not approved',
      why: expect.stringContaining('git runs these hooks on commit'),
    });
  });

  it("a worktree's hooks, in the git dir its .git file points to, ask as the folder's own do", async () => {
    // The repository's git dir lies elsewhere under a name of its own (as `git worktree add` from a
    // bare clone leaves it): only the folder's .git file says its hooks run here.
    const repo = freshDir(cleanup, 'gatehouse-repo-');
    const worktreeDir = join(repo, 'worktrees', 'w');
    mkdirSync(worktreeDir, { recursive: true });
    mkdirSync(join(repo, 'hooks'));
    writeFileSync(join(worktreeDir, 'commondir'), '../..\n');
    const folder = freshDir(cleanup, 'gatehouse-worktree-');
    writeFileSync(join(folder, '.git'), `gitdir: ${worktreeDir}\n`);
    const hook = join(repo, 'hooks', 'pre-commit');
    const s = await start(
      folder,
      (f) => [edit(f, hook, 'x\n'), edit(f, 'src/a.ts', 'a\n')],
      { bypassPermissions: true },
      { rules: [{ id: 'repo-ok', action: 'allow', path: `${repo}/**` }] },
    );
    const asked = await run(s, () => ({ optionId: 'no' }));
    // Bypass and the allow rule decide the ordinary edit; the hook is a person's.
    expect(asked.map((a) => a.toolCall.locations[0]!.path)).toEqual([hook]);
    expect(existsSync(hook)).toBe(false);
    expect(await deciders(s)).toEqual([
      { type: 'person', clientId: expect.any(String), surface: 'api' },
      { type: 'mode', mode: 'bypassPermissions' },
    ]);
  });

  it('"always" on a git hook is not remembered: the next write to it is asked again', async () => {
    const folder = project();
    const s = await start(folder, (f) => [
      edit(f, '.git/hooks/pre-commit', 'one\n'),
      edit(f, '.git/hooks/pre-commit', 'two\n'),
    ]);
    const asked = await run(s, () => ({ optionId: 'always', grant: { scope: 'session' } }));
    expect(asked).toHaveLength(2);
    expect(await s.gh.api.call('listGrants', {})).toEqual([]);
    const [first] = (await s.gh.core.store.history({ limit: 50 })).items.reverse();
    expect(first!.reason).toMatch(/protected file .*asked every time/);
    expect(readFileSync(join(folder, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe('two\n');
  });

  it('a managed allow rule is the one thing that allows a protected write unasked', async () => {
    const folder = project();
    const admin = freshDir(cleanup, 'gatehouse-admin-');
    const managed = join(admin, 'managed-settings.json');
    writeFileSync(
      managed,
      JSON.stringify({ rules: [{ id: 'admin-hooks', action: 'allow', path: '.git/hooks/**' }] }),
    );
    const s = await start(
      folder,
      (f) => [edit(f, '.git/hooks/pre-commit', 'ok\n'), edit(f, '.git/config', '[x]\n')],
      { bypassPermissions: true },
      {},
      managed,
    );
    const asked = await run(s, () => ({ optionId: 'no' }));
    expect(pathsOf(asked, folder)).toEqual(['.git/config']);
    expect(readFileSync(join(folder, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe('ok\n');
    expect(readFileSync(join(folder, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect((await deciders(s))[0]).toEqual({
      type: 'rule',
      ruleId: 'admin-hooks',
      source: 'managed',
    });
  });

  it('a path the settings add to the protected list asks as the built-in ones do', async () => {
    const folder = project();
    const s = await start(
      folder,
      (f) => [edit(f, 'tools/hooks/deploy.sh', 'x\n'), edit(f, 'tools/other.sh', 'y\n')],
      { mode: 'acceptEdits' },
      { protectedPaths: ['tools/hooks/'] },
    );
    const asked = await run(s, () => ({ optionId: 'no' }));
    expect(pathsOf(asked, folder)).toEqual(['tools/hooks/deploy.sh']);
    expect(existsSync(join(folder, 'tools', 'hooks', 'deploy.sh'))).toBe(false);
    expect(readFileSync(join(folder, 'tools', 'other.sh'), 'utf8')).toBe('y\n');
  });

  it('a link to .git makes g/hooks/pre-commit a protected write, under Bypass too', async () => {
    const folder = project();
    symlinkSync('.git', join(folder, 'g'));
    const s = await start(folder, (f) => [edit(f, 'g/hooks/pre-commit', 'evil\n')], {
      bypassPermissions: true,
    });
    const asked = await run(s, () => ({ optionId: 'no' }));
    expect(pathsOf(asked, folder)).toEqual(['g/hooks/pre-commit']);
    expect(existsSync(join(folder, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });
});
