import { describe, expect, it } from 'vitest';
import { hostAllowed, parseHostEntry, resolveSandboxProfile, type ProfileInput } from './profile';
import { SandboxSettings, type SandboxSettingsInput } from '../../../shared/sandbox-settings';

function profileFor(settings: SandboxSettingsInput = {}, overrides: Partial<ProfileInput> = {}) {
  return resolveSandboxProfile({
    agentId: 'gemini',
    command: 'node',
    args: [],
    settings: SandboxSettings.parse(settings),
    home: '/home/ada',
    sessionDir: '/work/proj',
    gatehouseHome: '/home/ada/.gatehouse',
    tmpDir: '/tmp',
    env: {},
    ...overrides,
  });
}

describe('resolveSandboxProfile', () => {
  it('defaults to workspace-write: the project and the agent’s state writable, temp its own', () => {
    const profile = profileFor();
    expect(profile?.mode).toBe('workspace-write');
    expect(profile?.projectDir).toBe('/work/proj');
    expect(profile?.writable).toEqual(['/work/proj', '/home/ada/.gemini']);
    expect(profile?.tmpDirs).toEqual(['/tmp']);
    expect(profileFor({}, { tmpDir: '/var/tmp/ada' })?.tmpDirs).toEqual(['/tmp', '/var/tmp/ada']);
  });

  it('makes a session’s additional folders roots like the project: writable, protected, .env above hidden', () => {
    const profile = profileFor({}, { additionalDirs: ['/work/lib', '/data/shared'] });
    expect(profile?.writable).toEqual([
      '/work/proj',
      '/work/lib',
      '/data/shared',
      '/home/ada/.gemini',
    ]);
    expect(profile?.protectedRoots).toEqual(['/work/proj', '/work/lib', '/data/shared']);
    expect(profile?.envFileDirs).toEqual(['/work', '/', '/data', '/home/ada']);
    // Read-only keeps them read-only, like the project.
    const readOnly = profileFor({ sandbox: 'read-only' }, { additionalDirs: ['/work/lib'] });
    expect(readOnly?.writable).toEqual(['/home/ada/.gemini']);
    expect(readOnly?.protectedRoots).toEqual([]);
  });

  it('keeps what the agent’s CLI obeys later read-only inside its writable state folder', () => {
    const paths = profileFor()?.protectedState.map((entry) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/home/ada/.gemini/settings.json',
        '/home/ada/.gemini/policies',
        '/home/ada/.gemini/.env',
      ]),
    );
    const claude = profileFor({}, { agentId: 'claude' })?.protectedState;
    expect(claude).toContainEqual({ path: '/home/ada/.claude/settings.json', tree: false });
    expect(claude).toContainEqual({ path: '/home/ada/.claude/hooks', tree: true });
    expect(profileFor({}, { agentId: 'mine', command: '/opt/agent' })?.protectedState).toEqual([]);
  });

  it('never makes the npm cache writable: npx runs what it finds there later, outside', () => {
    for (const agentId of ['gemini', 'claude', 'mine'])
      expect(profileFor({}, { agentId })?.writable).not.toContain('/home/ada/.npm');
  });

  it('hides credentials, escape sockets and the Gatehouse home by default', () => {
    expect(profileFor()?.unreadable).toEqual([
      '/home/ada/.ssh',
      '/home/ada/.aws',
      '/home/ada/.gnupg',
      '/home/ada/.config/gh',
      '/home/ada/.Xauthority',
      '/tmp/.X11-unix',
      '/run/docker.sock',
      '/var/run/docker.sock',
      '/home/ada/.gatehouse',
    ]);
  });

  it('looks for .env files in the project ancestors and HOME, not in the project', () => {
    expect(profileFor()?.envFileDirs).toEqual(['/work', '/', '/home/ada']);
  });

  it('read-only keeps the project read-only but the agent can still run', () => {
    const profile = profileFor({ sandbox: 'read-only' });
    expect(profile?.mode).toBe('read-only');
    expect(profile?.writable).not.toContain('/work/proj');
    expect(profile?.writable).toContain('/home/ada/.gemini');
  });

  it('off means no sandbox', () => {
    expect(profileFor({ sandbox: 'off' })).toBeNull();
  });

  it.each([
    ['claude', ['/home/ada/.claude'], 'api.anthropic.com'],
    ['codex', ['/home/ada/.codex'], 'api.openai.com'],
    ['qwen', ['/home/ada/.qwen'], 'dashscope.aliyuncs.com'],
    ['opencode', ['/home/ada/.config/opencode'], 'opencode.ai'],
    ['gemini', ['/home/ada/.gemini'], 'generativelanguage.googleapis.com'],
  ])('knows %s: its state folders and model hosts', (agentId, stateDirs, host) => {
    const profile = profileFor({}, { agentId });
    for (const dir of stateDirs) expect(profile?.writable).toContain(dir);
    expect(profile?.network).toMatchObject({ kind: 'allow' });
    if (profile?.network.kind !== 'allow') throw new Error('allow-list expected');
    expect(profile.network.hosts).toContainEqual({ host, port: 443 });
  });

  it('recognises a known agent from its command when the id is the user’s own', () => {
    const profile = profileFor(
      {},
      { agentId: 'work', command: 'npx', args: ['@zed-industries/claude-code-acp'] },
    );
    expect(profile?.writable).toContain('/home/ada/.claude');
  });

  it.each([
    ['npx', ['-y', '@agentclientprotocol/codex-acp']],
    ['/opt/lib/node_modules/.bin/codex-acp', []],
    ['node', ['/opt/lib/node_modules/@agentclientprotocol/codex-acp/dist/index.js']],
    [
      '/usr/bin/node',
      ['--no-warnings', 'C:\\npm\\node_modules\\@agentclientprotocol\\codex-acp\\dist\\index.js'],
    ],
  ])('knows the renamed codex-acp run as %s %j, whatever the agent is called', (command, args) => {
    const profile = profileFor({}, { agentId: 'work', command, args });
    expect(profile?.writable).toContain('/home/ada/.codex');
    expect(profile?.protectedState).toContainEqual({
      path: '/home/ada/.codex/config.toml',
      tree: false,
    });
    if (profile?.network.kind !== 'allow') throw new Error('allow-list expected');
    expect(profile.network.hosts).toContainEqual({ host: 'api.openai.com', port: 443 });
  });

  it('follows CODEX_HOME: the folder it names is codex’s state, writable with its config read-only', () => {
    const moved = profileFor({}, { agentId: 'codex', env: { CODEX_HOME: '/srv/codex-state' } });
    expect(moved?.writable).toEqual(['/work/proj', '/srv/codex-state']);
    expect(moved?.protectedState).toContainEqual({
      path: '/srv/codex-state/config.toml',
      tree: false,
    });
    expect(moved?.protectedState).toContainEqual({ path: '/srv/codex-state/rules', tree: true });
    // Relative: from the folder the agent starts in, where it stays under the project's guard.
    const inside = profileFor({}, { agentId: 'codex', env: { CODEX_HOME: 'state' } });
    expect(inside?.protectedState).toContainEqual({
      path: '/work/proj/state/config.toml',
      tree: false,
    });
  });

  it.each(['/home/ada', '/home', '/', '/home/ada/../ada'])(
    'does not follow CODEX_HOME=%s onto HOME or above: all of HOME would be writable',
    (value) => {
      const profile = profileFor({}, { agentId: 'codex', env: { CODEX_HOME: value } });
      expect(profile?.writable).toEqual(['/work/proj', '/home/ada/.codex']);
    },
  );

  it('an unknown agent gets no state folder and no network', () => {
    const profile = profileFor({}, { agentId: 'mine', command: '/opt/mine/bin/agent' });
    expect(profile?.writable).toEqual(['/work/proj']);
    expect(profile?.network).toEqual({ kind: 'none' });
  });

  it('allows the hosts of *_BASE_URL variables, loopback with its port', () => {
    const profile = profileFor(
      {},
      {
        agentId: 'mine',
        env: {
          GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:41234',
          ANTHROPIC_BASE_URL: 'https://gateway.example.com/anthropic',
          OPENAI_BASE_URL: 'http://llm.internal:8080/v1',
          OTHER_BASE_URL: 'https://ignored.example.com',
        },
      },
    );
    expect(profile?.network).toEqual({
      kind: 'allow',
      hosts: [
        { host: '127.0.0.1', port: 41234 },
        { host: 'gateway.example.com', port: 443 },
        { host: 'llm.internal', port: 8080 },
      ],
    });
  });

  it('adds allowWrite and denyRead, with ~ and project-relative paths', () => {
    const profile = profileFor({
      allowWrite: ['~/.cache/tool', '/srv/out', 'build'],
      denyRead: ['~/secrets', '/etc/ssl/private'],
    });
    expect(profile?.writable).toEqual(
      expect.arrayContaining(['/home/ada/.cache/tool', '/srv/out', '/work/proj/build']),
    );
    expect(profile?.unreadable).toEqual(
      expect.arrayContaining(['/home/ada/secrets', '/etc/ssl/private']),
    );
    // Files that run later stay protected there as in the project; not in temp or agent state.
    expect(profile?.protectedRoots).toEqual([
      '/work/proj',
      '/home/ada/.cache/tool',
      '/srv/out',
      '/work/proj/build',
    ]);
    expect(profileFor({ sandbox: 'read-only' })?.protectedRoots).toEqual([]);
  });

  it('network settings: all, none, or extra hosts', () => {
    expect(profileFor({ network: 'all' })?.network).toEqual({ kind: 'all' });
    expect(profileFor({ network: 'none' })?.network).toEqual({ kind: 'none' });
    const profile = profileFor({ network: { allow: ['registry.npmjs.org', 'localhost:5173'] } });
    if (profile?.network.kind !== 'allow') throw new Error('allow-list expected');
    expect(profile.network.hosts).toEqual(
      expect.arrayContaining([
        { host: 'registry.npmjs.org', port: 443 },
        { host: 'localhost', port: 5173 },
      ]),
    );
  });

  it('refuses malformed settings', () => {
    expect(() => SandboxSettings.parse({ sandbox: 'yolo' })).toThrow();
    expect(() => SandboxSettings.parse({ network: { allow: ['http://x'] } })).toThrow();
    expect(() => SandboxSettings.parse({ extra: true })).toThrow();
  });
});

describe('hostAllowed', () => {
  const rules = [
    parseHostEntry('api.example.com'),
    parseHostEntry('*-aiplatform.googleapis.com'),
    parseHostEntry('127.0.0.1:4000'),
  ];

  it('matches host and port exactly', () => {
    expect(hostAllowed(rules, 'api.example.com', 443)).toBe(true);
    expect(hostAllowed(rules, 'API.example.com.', 443)).toBe(true);
    expect(hostAllowed(rules, 'api.example.com', 80)).toBe(false);
    expect(hostAllowed(rules, 'evil.api.example.com', 443)).toBe(false);
    expect(hostAllowed(rules, '127.0.0.1', 4000)).toBe(true);
    expect(hostAllowed(rules, '127.0.0.1', 4001)).toBe(false);
  });

  it('a leading * needs something before the suffix', () => {
    expect(hostAllowed(rules, 'us-central1-aiplatform.googleapis.com', 443)).toBe(true);
    expect(hostAllowed(rules, '-aiplatform.googleapis.com', 443)).toBe(false);
    expect(hostAllowed(rules, 'aiplatform.googleapis.com.evil.com', 443)).toBe(false);
  });
});
