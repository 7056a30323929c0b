// The allow-list network's relay and the agent start side by side inside the sandbox. What that
// must not change: the agent never runs before its proxy and its loopback ports listen, never runs
// when the relay could not start, and keeps its stdin, its proxy variables and nothing of the
// relay's. Each sandbox here is real (bubblewrap, the relay, the bridge outside).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSandboxProfile, type SandboxProfile } from '../../src/main/core/sandbox/profile';
import { wrapCommand, type WrapOptions } from '../../src/main/core/sandbox/wrap';
import { SandboxSettings, type SandboxSettingsInput } from '../../src/shared/sandbox-settings';
import { bwrapMissing } from '../support/bwrap';

const missing = bwrapMissing('sandbox-relay');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

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

async function greeter(greeting: string): Promise<number> {
  const server: Server = createServer((socket) => socket.end(`${greeting}\n`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
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

describe.skipIf(missing)('the network relay beside the agent', () => {
  it.each([
    ['with the Unix-socket filter (a nested sandbox)', {}],
    ['without it (allowUnixSockets)', { allowUnixSockets: ['/nonexistent/gatehouse.sock'] }],
  ])(
    '%s: the agent never runs before its proxy and loopback ports listen',
    async (_name, extra) => {
      const port = await greeter('hello from the model server');
      const profile = profileOf({ network: { allow: [`127.0.0.1:${port}`, 'api.example.com'] } });
      const refused: string[] = [];
      // Five fresh sandboxes, each connecting the moment it runs: none may find a port closed.
      for (let i = 0; i < 5; i++) {
        const result = await runBash(
          { ...profile, ...(extra as Partial<SandboxProfile>) },
          FIRST_ACT(port),
          '',
          { onViolation: (v) => refused.push(`${v.host}:${v.port}`) },
        );
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        expect(result.stdout).toContain('loopback:hello from the model server');
        // The proxy answered (and refused a host nobody allowed, reporting it).
        expect(result.stdout).toContain('proxy:HTTP/1.1 403 Forbidden');
      }
      expect(refused).toEqual(Array.from({ length: 5 }, () => '127.0.0.1:9'));
    },
  );

  it('a relay that cannot start: the agent never runs and the sandbox ends with 125', async () => {
    const profile = profileOf({ network: { allow: ['api.example.com'] } });
    const marker = join(profile.projectDir, 'agent-ran');
    const result = await runBash(profile, `echo ran > ${marker}`, '', {
      nodePath: '/nonexistent/node',
    });
    expect(result.status).toBe(125);
    expect(existsSync(marker)).toBe(false);
  });

  it('the agent keeps its stdin and its proxy variables; nothing of the relay’s reaches it', async () => {
    const profile = profileOf({ network: { allow: ['api.example.com'] } });
    const script = [
      'IFS= read -r line; echo "stdin:$line"',
      'echo "proxy:$HTTPS_PROXY node:$NODE_USE_ENV_PROXY"',
      // Descriptors beyond its stdio: none of the sandbox's (the saved stdin, the relay's line, the
      // filter). Above 99: what the test runner itself was started with passes to every child.
      'for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && [ "$n" -lt 100 ] && [ -e "$fd" ] && echo "fd:$n $(readlink "$fd")"; done',
      'exit 7',
    ].join('\n');
    const result = await runBash(profile, script, 'from the editor\n');
    expect(result.stdout).toContain('stdin:from the editor');
    expect(result.stdout).toMatch(/proxy:http:\/\/127\.0\.0\.1:\d+ node:1/);
    expect(result.stdout).not.toContain('fd:');
    // The agent's own exit status is the sandbox's.
    expect(result.status).toBe(7);
  });
});
