// An agent configured as `npx <package>` under the default sandbox, whose registry the sandbox keeps
// closed: Gatehouse fetches the package outside with the person's npm (here pointed at a registry
// served by this test), pins the version and starts its bin inside. The agent, hostile, tries to
// rewrite the package it was started from and to plant code in the person's npm cache, both of which
// would run later outside any sandbox; then it asks for its first approval.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveRegistrySnapshot } from '../../src/main/core/agents/registry-snapshot';
import { Settings } from '../../src/shared/settings';
import { scriptedAgentLaunch, type ScriptStep } from '../support/agents/scripted-agent';
import { bwrapMissing } from '../support/bwrap';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { servePackage, startNpmRegistry, type NpmRegistry } from '../support/npm-registry';
import { registryFixture } from '../support/registry-fixture';

const missing = bwrapMissing('launcher-npx');
const PACKAGE = 'acp-hello-gh';

describe.skipIf(missing !== null)('an agent started as `npx <package>`', () => {
  let gh: TestGatehouse;
  let root: string;
  let home: string;
  let registry: NpmRegistry;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-launcher-')));
    home = join(root, 'home');
    mkdirSync(home);
    // The package's bin is the scripted agent: it reads its script from the environment.
    const scripted = scriptedAgentLaunch({}).args[0]!;
    const path = JSON.stringify(scripted);
    registry = await startNpmRegistry(root, PACKAGE, `process.argv[1] = ${path}; import(${path});`);
    gh = await startGatehouse({});
  });

  afterAll(async () => {
    await gh?.close();
    await registry?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function configure(steps: ScriptStep[]): void {
    const script = scriptedAgentLaunch({ prompts: [steps] }).env as Record<string, string>;
    const agent = {
      command: 'npx',
      args: ['--yes', PACKAGE],
      env: {
        ...script,
        HOME: home,
        // The person's npm configuration, which Gatehouse's fetch follows.
        npm_config_registry: registry.url,
        npm_config_cache: join(home, '.npm'),
        npm_config_fetch_retries: '0',
      },
    };
    gh.core.replaceSettings(Settings.parse({ ...gh.core.settings, agents: { npx: agent } }));
  }

  const texts = (sessionId: string) =>
    gh.events.flatMap((e) =>
      e.type === 'session_update' &&
      e.sessionId === sessionId &&
      e.update.sessionUpdate === 'agent_message_chunk'
        ? [(e.update['content'] as { text: string }).text]
        : [],
    );

  it('runs the package fetched outside, read-only inside, and reaches its first approval', async () => {
    const folder = join(gh.home, 'launchers', 'npm', `${PACKAGE}@1.0.0`);
    const bin = join(folder, 'node_modules', PACKAGE, 'index.js');
    const cache = join(home, '.npm', '_cacache');
    configure([
      { type: 'direct', action: 'write', path: bin },
      { type: 'shell', command: `echo 'console.log("planted")' >> ${bin}` },
      { type: 'shell', command: `echo planted > ${join(cache, 'planted')}` },
      {
        type: 'requestPermission',
        toolCall: { toolCallId: 'first', title: 'echo first', kind: 'execute' },
        options: [
          { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      },
    ]);
    const project = join(root, 'project');
    mkdirSync(project);
    const { sessionId } = await gh.api.call('createSession', { agentId: 'npx', cwd: project });
    const before = readFileSync(bin, 'utf8');

    const session = (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId);
    expect(session?.sandbox).toMatchObject({
      profile: 'workspace-write',
      package: `${PACKAGE}@1.0.0`,
      network: 'none',
    });
    expect(JSON.parse(readFileSync(join(gh.home, 'launchers', 'pins.json'), 'utf8'))).toEqual({
      [`npm:${PACKAGE}`]: `${PACKAGE}@1.0.0`,
    });
    // The start said what it fetched while it waited, and the audit keeps what it resolved to.
    expect(gh.events.filter((e) => e.type === 'launcher_fetch')).toEqual([
      { type: 'launcher_fetch', agentId: 'npx', package: PACKAGE, state: 'fetching' },
      {
        type: 'launcher_fetch',
        agentId: 'npx',
        package: PACKAGE,
        state: 'fetched',
        pinned: `${PACKAGE}@1.0.0`,
      },
    ]);
    await gh.core.store.flush();
    const audited = await gh.core.store.events({ type: 'launcher_fetched' });
    expect(audited.map((e) => [e.agentId, e.payload])).toEqual([
      ['npx', { package: PACKAGE, pinned: `${PACKAGE}@1.0.0` }],
    ]);

    const prompt = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval((a) => a.sessionId === sessionId);
    expect(approval.toolCall.title).toBe('echo first');
    expect(texts(sessionId)).toEqual([
      `direct write ${bin} failed: EROFS`,
      expect.stringMatching(/^shell exit 1:/),
      expect.stringMatching(/^shell exit 1:/),
    ]);
    expect(readFileSync(bin, 'utf8')).toBe(before);
    expect(existsSync(join(cache, 'planted'))).toBe(false);

    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'no' });
    await prompt;
    await gh.api.call('closeSession', { sessionId });
  });

  it('starts the pinned version again with the registry gone', async () => {
    await registry.close();
    configure([{ type: 'text', text: 'again' }]);
    const project = join(root, 'project-2');
    mkdirSync(project);
    const { sessionId } = await gh.api.call('createSession', { agentId: 'npx', cwd: project });
    await gh.api.call('prompt', { sessionId, text: 'go' });
    expect(texts(sessionId)).toEqual(['again']);
    // Nothing fetched again.
    expect(gh.events.filter((e) => e.type === 'launcher_fetch')).toHaveLength(2);
    // One fetched folder, nothing left half-fetched.
    expect(readdirSync(join(gh.home, 'launchers', 'npm'))).toEqual([`${PACKAGE}@1.0.0`]);
    await gh.api.call('closeSession', { sessionId });
  });

  it('refuses a package it would have to fetch while the registry is gone, and audits why', async () => {
    gh.core.replaceSettings(
      Settings.parse({
        ...gh.core.settings,
        agents: {
          other: {
            command: 'npx',
            args: ['--yes', 'acp-not-there-gh'],
            env: { npm_config_registry: registry.url, npm_config_fetch_retries: '0' },
          },
        },
      }),
    );
    await expect(gh.api.call('createSession', { agentId: 'other', cwd: root })).rejects.toThrow(
      /npx could not fetch its package \(acp-not-there-gh\)/,
    );
    await gh.core.store.flush();
    const events = await gh.core.store.events({ type: 'launcher_fetch_failed' });
    expect(events.map((e) => e.agentId)).toEqual(['other']);
  });
});

describe.skipIf(missing !== null)('an ACP Registry agent whose npx entry names its `cmd`', () => {
  const NAME = 'acp-tools-gh';
  const CMD = 'acp-tools-gh-agent';
  let gh: TestGatehouse;
  let root: string;
  let registry: NpmRegistry;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-launcher-cmd-')));
    // Two programs: the package's default one, which is not the agent, and the one `cmd` names.
    const source = join(root, 'source');
    mkdirSync(source);
    const bin = { [NAME]: 'default.js', [CMD]: 'agent.js' };
    writeFileSync(
      join(source, 'package.json'),
      JSON.stringify({ name: NAME, version: '1.0.0', bin }),
    );
    const scripted = JSON.stringify(scriptedAgentLaunch({}).args[0]!);
    writeFileSync(
      join(source, 'agent.js'),
      `#!/usr/bin/env node\nprocess.argv[1] = ${scripted}; import(${scripted});\n`,
      { mode: 0o755 },
    );
    writeFileSync(
      join(source, 'default.js'),
      "#!/usr/bin/env node\nconsole.error('the default program ran'); process.exit(3);\n",
      { mode: 0o755 },
    );
    const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', root], {
      cwd: source,
      encoding: 'utf8',
    });
    const tarball = readFileSync(join(root, packed.stdout.trim().split('\n').at(-1)!));
    registry = await servePackage({ name: NAME, version: '1.0.0', bin }, tarball);
    gh = await startGatehouse({});
    const snapshot = registryFixture();
    snapshot.agents.push({
      id: 'tools',
      name: 'Tools agent',
      version: '1.0.0',
      description: 'An agent that is not its package’s default program',
      distribution: { npx: { package: `${NAME}@1.0.0`, cmd: CMD } },
    });
    saveRegistrySnapshot(gh.home, JSON.stringify(snapshot), 'fixture');
  });

  afterAll(async () => {
    await gh?.close();
    await registry?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('fetches the package outside and starts the program `cmd` names inside the sandbox', async () => {
    const script = scriptedAgentLaunch({ prompts: [[{ type: 'text', text: 'the named one' }]] });
    const agent = {
      registry: 'tools',
      env: {
        ...(script.env as Record<string, string>),
        HOME: join(root, 'home'),
        npm_config_registry: registry.url,
        npm_config_cache: join(root, 'npm-cache'),
        npm_config_fetch_retries: '0',
      },
    };
    mkdirSync(join(root, 'home'));
    gh.core.replaceSettings(Settings.parse({ ...gh.core.settings, agents: { tools: agent } }));
    const project = join(root, 'project');
    mkdirSync(project);
    const { sessionId } = await gh.api.call('createSession', { agentId: 'tools', cwd: project });
    const session = (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId);
    expect(session?.sandbox).toMatchObject({
      profile: 'workspace-write',
      package: `${NAME}@1.0.0`,
    });
    await gh.api.call('prompt', { sessionId, text: 'go' });
    const said = gh.events.flatMap((e) =>
      e.type === 'session_update' &&
      e.sessionId === sessionId &&
      e.update.sessionUpdate === 'agent_message_chunk'
        ? [(e.update['content'] as { text: string }).text]
        : [],
    );
    expect(said).toEqual(['the named one']);
    await gh.api.call('closeSession', { sessionId });
  });
});
