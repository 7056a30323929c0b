// The allow-list network's listeners are bound by the socket activator (the relay boots on the
// first connection), or by the relay started beside the agent. What neither may change: the agent
// never finds its proxy or an allowed loopback port closed, never runs when what binds them could
// not start, and keeps its stdin, its proxy variables and nothing of the relay's. Each sandbox here
// is real (bubblewrap, the relay, the bridge outside).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSandboxProfile, type SandboxProfile } from '../../src/main/core/sandbox/profile';
import { socketActivator } from '../../src/main/core/sandbox/socket-activation';
import { findBwrap, wrapCommand, type WrapOptions } from '../../src/main/core/sandbox/wrap';
import { SandboxSettings, type SandboxSettingsInput } from '../../src/shared/sandbox-settings';
import { bwrapMissing, loopbackGreeter } from '../support/bwrap';
import { cleanupAfterEach } from '../support/steps';

const missing = bwrapMissing('sandbox-relay');
const activator = missing ? null : await socketActivator(findBwrap());
if (!missing && !activator)
  console.warn('sandbox-relay: no socket activator here, its cases skipped');

const cleanups = cleanupAfterEach();

function folders(): { project: string; home: string; gatehouseHome: string; tmp: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-relay-')));
  cleanups.push(() => rmSync(root, { recursive: true, force: true, maxRetries: 3 }));
  const dirs = {
    project: join(root, 'project'),
    home: join(root, 'home'),
    gatehouseHome: join(root, 'gatehouse'),
    tmp: join(root, 'tmp'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return dirs;
}

function profileOf(settings: SandboxSettingsInput): SandboxProfile {
  const f = folders();
  const profile = resolveSandboxProfile({
    agentId: 'relay-probe',
    command: '/bin/bash',
    args: [],
    settings: SandboxSettings.parse(settings),
    home: f.home,
    sessionDir: f.project,
    gatehouseHome: f.gatehouseHome,
    tmpDir: f.tmp,
    env: {},
  });
  if (!profile) throw new Error('sandbox is off');
  return profile;
}

/** Runs `bash -c script` in the profile's sandbox, `input` on its stdin, to the end. */
async function runBash(
  profile: SandboxProfile,
  script: string,
  input = '',
  options: WrapOptions = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: profile.home };
  const wrapped = await wrapCommand(profile, '/bin/bash', ['-c', script], env, options);
  cleanups.push(() => wrapped.cleanup());
  const child = spawn(wrapped.command, wrapped.args, {
    cwd: profile.projectDir,
    env: wrapped.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) =>
    child.once('close', (code) => resolve(code)),
  );
  return { status, stdout, stderr };
}

// The agent's very first act: open the proxy and the allowed loopback port and read the answer.
const FIRST_ACT = (port: number) =>
  [
    `exec 3<>/dev/tcp/127.0.0.1/${port} || exit 41`,
    'IFS= read -r answer <&3; echo "loopback:$answer"',
    'proxy=${HTTPS_PROXY#http://}',
    'exec 4<>"/dev/tcp/${proxy%:*}/${proxy##*:}" || exit 42',
    `printf 'CONNECT 127.0.0.1:9 HTTP/1.1\\r\\nHost: 127.0.0.1:9\\r\\n\\r\\n' >&4`,
    'IFS= read -r status <&4; echo "proxy:${status%$(printf "\\r")}"',
  ].join('\n');

const MODES = [
  {
    name: 'bound by the socket activator',
    activatorPath: activator ?? undefined,
    skip: !activator,
  },
  { name: 'bound by the relay at once', activatorPath: null, skip: false },
];

describe.skipIf(missing).each(MODES)('the network relay, $name', ({ activatorPath, skip }) => {
  const mode: WrapOptions = activatorPath === undefined ? {} : { activatorPath };

  it.skipIf(skip).each([
    ['with the Unix-socket filter (a nested sandbox)', {}],
    ['without it (allowUnixSockets)', { allowUnixSockets: ['/nonexistent/gatehouse.sock'] }],
  ])('%s: the agent never finds its proxy or loopback port closed', async (_name, extra) => {
    const port = await loopbackGreeter('hello from the model server\n', cleanups);
    const profile = profileOf({ network: { allow: [`127.0.0.1:${port}`, 'api.example.com'] } });
    const refused: string[] = [];
    // Five fresh sandboxes, each connecting the moment it runs: none may find a port closed.
    for (let i = 0; i < 5; i++) {
      const result = await runBash(
        { ...profile, ...(extra as Partial<SandboxProfile>) },
        FIRST_ACT(port),
        '',
        { ...mode, onViolation: (v) => refused.push(`${v.host}:${v.port}`) },
      );
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('loopback:hello from the model server');
      // The proxy answered (and refused a host nobody allowed, reporting it).
      expect(result.stdout).toContain('proxy:HTTP/1.1 403 Forbidden');
    }
    expect(refused).toEqual(Array.from({ length: 5 }, () => '127.0.0.1:9'));
  });

  it.skipIf(activatorPath === null || skip)(
    'the relay boots at the first connection, not before: an agent that stays offline never pays it',
    async () => {
      const port = await loopbackGreeter('hello\n', cleanups);
      const profile = profileOf({ network: { allow: [`127.0.0.1:${port}`] } });
      // The agent and the sandbox's own processes share one pid namespace: count Node processes.
      const nodes = `n=0; for c in /proc/[0-9]*/comm; do [ "$(cat "$c" 2>/dev/null)" = node ] && n=$((n + 1)); done; echo "$1:$n"`;
      const script = [
        `nodes() { ${nodes}; }`,
        'nodes before',
        `exec 3<>/dev/tcp/127.0.0.1/${port} && IFS= read -r answer <&3 && echo "answer:$answer"`,
        'nodes after',
      ].join('\n');
      const result = await runBash(profile, script, '', mode);
      expect(result.stdout).toBe('before:0\nanswer:hello\nafter:1\n');
      expect(result.status).toBe(0);
    },
  );

  it.skipIf(skip)(
    'what binds the ports cannot start: the agent never runs and the sandbox ends with 125',
    async () => {
      const profile = profileOf({ network: { allow: ['api.example.com'] } });
      const marker = join(profile.projectDir, 'agent-ran');
      const broken: WrapOptions =
        activatorPath === null
          ? { activatorPath: null, nodePath: '/nonexistent/node' }
          : { activatorPath: '/nonexistent/systemd-socket-activate' };
      const result = await runBash(profile, `echo ran > ${marker}`, '', broken);
      expect(result.status).toBe(125);
      expect(existsSync(marker)).toBe(false);
    },
  );

  it.skipIf(skip)(
    'the agent keeps its stdin and its proxy variables; nothing of the relay’s reaches it',
    async () => {
      const profile = profileOf({ network: { allow: ['api.example.com'] } });
      const script = [
        'IFS= read -r line; echo "stdin:$line"',
        'echo "proxy:$HTTPS_PROXY node:$NODE_USE_ENV_PROXY listen:$LISTEN_FDS"',
        // Descriptors beyond its stdio: none of the sandbox's (the saved stdin, the relay's line,
        // the filter). Above 99: what the test runner itself was started with passes to every child.
        'for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && [ "$n" -lt 100 ] && [ -e "$fd" ] && echo "fd:$n $(readlink "$fd")"; done',
        'exit 7',
      ].join('\n');
      const result = await runBash(profile, script, 'from the editor\n', mode);
      expect(result.stdout).toContain('stdin:from the editor');
      expect(result.stdout).toMatch(/proxy:http:\/\/127\.0\.0\.1:\d+ node:1 listen:\n/);
      expect(result.stdout).not.toContain('fd:');
      expect(result.stderr).toBe('');
      // The agent's own exit status is the sandbox's.
      expect(result.status).toBe(7);
    },
  );
});
