// The agent sandbox for real: bubblewrap runs a probe script (and the real Gemini CLI) confined by
// wrapCommand, and the tests read what the probe could and could not do. Everything runs as the
// same user (root on CI), so only the mounts and namespaces can be what stops the probe.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { client, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import type { NetworkViolation } from '../../src/main/core/sandbox/network-bridge';
import { resolveSandboxProfile, type SandboxProfile } from '../../src/main/core/sandbox/profile';
import { SandboxSettings, type SandboxSettingsInput } from '../../src/shared/sandbox-settings';
import { wrapCommand, type WrappedCommand } from '../../src/main/core/sandbox/wrap';
import { startFakeModelServer } from '../support/fake-model-server';
import { prepareGemini } from '../support/gemini';
import { bwrapMissing, loopbackGreeter } from '../support/bwrap';
import { descendantsOf } from '../support/process-scan';
import { cleanupAfterEach } from '../support/steps';

const PROBE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sandbox-probe.mjs');

const missing = bwrapMissing('sandbox-bwrap');

const cleanups = cleanupAfterEach();

interface Fixture {
  root: string;
  home: string;
  project: string;
  outside: string;
  tmp: string;
  gatehouseHome: string;
}

/** HOME with an ssh key, a Gatehouse home with settings, a project, a private temp and a stranger folder. */
function fixture(): Fixture {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-sandbox-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true, maxRetries: 3 }));
  const dirs = {
    root,
    home: join(root, 'home'),
    project: join(root, 'work', 'project'),
    outside: join(root, 'elsewhere'),
    tmp: join(root, 'tmp'),
    gatehouseHome: join(root, 'gatehouse'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.home, '.ssh'));
  writeFileSync(join(dirs.home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  writeFileSync(join(dirs.gatehouseHome, 'settings.json'), '{"agents":{}}\n');
  writeFileSync(join(root, 'work', '.env'), 'TOKEN=outside-the-project\n');
  return dirs;
}

function profileOf(
  f: Fixture,
  settings: SandboxSettingsInput,
  env: NodeJS.ProcessEnv = {},
): SandboxProfile {
  const profile = resolveSandboxProfile({
    agentId: 'gemini',
    command: process.execPath,
    args: [],
    settings: SandboxSettings.parse(settings),
    home: f.home,
    sessionDir: f.project,
    gatehouseHome: f.gatehouseHome,
    tmpDir: f.tmp,
    env,
  });
  if (!profile) throw new Error('sandbox is off');
  return profile;
}

async function wrapped(
  profile: SandboxProfile,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  onViolation?: (violation: NetworkViolation) => void,
): Promise<WrappedCommand> {
  const result = await wrapCommand(profile, command, args, env, onViolation ? { onViolation } : {});
  cleanups.push(() => result.cleanup());
  return result;
}

/** Runs to the end; asynchronously, since the network bridge serves from this process. */
async function run(
  command: WrappedCommand,
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(command.command, command.args, {
    cwd,
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) =>
    child.once('close', (code) => resolve(code)),
  );
  return { status, stdout, stderr };
}

function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  // A zombie has exited; only its parent has not collected it yet.
  return !/^\d+ \(.*\) Z /.test(readFileSync(stat, 'utf8'));
}

/** The sandbox's processes share the group of the bwrap we spawned detached. */
function killGroup(pid: number | undefined): void {
  try {
    if (pid) process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (!condition()) throw new Error(`still waiting for: ${what}`);
}

function describeProcesses(pids: number[]): string {
  return pids
    .map((pid) =>
      existsSync(`/proc/${pid}/stat`)
        ? readFileSync(`/proc/${pid}/stat`, 'utf8').slice(0, 60)
        : `${pid} gone`,
    )
    .join('; ');
}

/** A sandboxed `node` that prints ready and waits, in its own process group as Gatehouse spawns agents. */
async function longLived(
  f: Fixture,
  settings: SandboxSettingsInput,
): Promise<{ child: ChildProcess; inner: number[] }> {
  const command = await wrapped(
    profileOf(f, settings),
    process.execPath,
    ['-e', 'console.log("ready"); setInterval(() => {}, 1000)'],
    { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: f.home },
  );
  const child = spawn(command.command, command.args, {
    cwd: f.project,
    env: command.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  cleanups.push(() => {
    killGroup(child.pid);
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
  });
  return { child, inner: descendantsOf(child.pid!) };
}

describe.skipIf(missing !== null)('agent sandbox (bubblewrap)', () => {
  it('keeps writes in the project and temp, hides secrets, the Gatehouse home and host processes, and filters loopback', async () => {
    const f = fixture();
    const allowedPort = await loopbackGreeter('model server\r\n', cleanups);
    const deniedPort = await loopbackGreeter('gatehouse http\r\n', cleanups);
    const violations: NetworkViolation[] = [];
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: f.home,
      GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${allowedPort}`,
    };
    const command = await wrapped(
      profileOf(f, {}, env),
      process.execPath,
      [
        PROBE,
        JSON.stringify({
          project: f.project,
          outside: f.outside,
          tmp: f.tmp,
          sshKey: join(f.home, '.ssh', 'id_ed25519'),
          gatehouseSettings: join(f.gatehouseHome, 'settings.json'),
          envOutside: join(f.root, 'work', '.env'),
          parentPid: process.pid,
          deniedPort,
          allowedPort,
        }),
      ],
      env,
      (violation) => violations.push(violation),
    );
    const { status, stdout, stderr } = await run(command, f.project);
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      writeProject: 'ok',
      // The folder outside lies in the real temp folder, which the sandbox does not show.
      writeOutside: 'ENOENT',
      writeTmp: 'ok',
      readSshKey: 'EACCES',
      // The home holds this sandbox's bridge sockets: it can be passed through, not listed.
      readGatehouseSettings: 'ENOENT',
      readEnvOutside: 'EACCES',
      readParentEnviron: 'ENOENT',
      deniedPort: 'ECONNREFUSED',
      allowedPort: 'ok:model server',
      proxyDenied: 'ok:HTTP/1.1 403 Forbidden',
    });
    expect(readFileSync(join(f.project, 'written.txt'), 'utf8')).toBe('inside');
    expect(existsSync(join(f.outside, 'written.txt'))).toBe(false);
    // The temp folder it wrote is the sandbox's own.
    expect(existsSync(join(f.tmp, 'written.txt'))).toBe(false);
    expect(violations).toEqual([
      { kind: 'network', host: 'evil.example.com', port: 443, reason: 'not-allowed' },
    ]);
  });

  it('network "none" reaches no loopback port, "all" reaches them', async () => {
    const f = fixture();
    const port = await loopbackGreeter('host service\r\n', cleanups);
    const probe = (settings: SandboxSettingsInput) => async () => {
      const command = await wrapped(
        profileOf(f, settings),
        process.execPath,
        [
          '-e',
          `require('net').connect(${port}, '127.0.0.1').on('data', (d) => { console.log('ok'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(0) })`,
        ],
        { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: f.home },
      );
      return (await run(command, f.project)).stdout.trim();
    };
    expect(await probe({ network: 'none' })()).toBe('ECONNREFUSED');
    expect(await probe({ network: 'all' })()).toBe('ok');
  });

  it('keeps the agent in the process group Gatehouse kills (no new session)', async () => {
    const f = fixture();
    const { child, inner } = await longLived(f, { network: { allow: ['localhost:80'] } });
    expect(inner.length).toBeGreaterThan(0);
    for (const pid of inner) expect(processGroupOf(pid)).toBe(child.pid);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    await until(
      () => inner.every((pid) => !alive(pid)),
      'every sandboxed process gone after the group SIGTERM',
    );
  });

  it('dies with its parent (--die-with-parent)', async () => {
    const f = fixture();
    const command = await wrapped(
      profileOf(f, { network: 'none' }),
      process.execPath,
      ['-e', `require('fs').writeFileSync('started', ''); setInterval(() => {}, 1000)`],
      {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: f.home,
      },
    );
    // A parent that starts the sandbox and prints its pid; SIGKILL gives it no chance to clean up.
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('child_process').spawn(process.argv[1], JSON.parse(process.argv[2]), { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000)`,
        command.command,
        JSON.stringify(command.args),
      ],
      { cwd: f.project, env: command.env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanups.push(() => {
      parent.kill('SIGKILL');
    });
    const bwrapPid = Number(
      await new Promise<string>((resolve) =>
        parent.stdout.once('data', (d: Buffer) => resolve(d.toString())),
      ),
    );
    // Killed once the agent runs: bwrap 0.8 arms its own parent-death signal late in start-up
    // (bubblewrap.c, do_init), so a parent killed within those milliseconds can leave it behind.
    await until(() => existsSync(join(f.project, 'started')), 'the sandboxed process started');
    const sandboxed = [bwrapPid, ...descendantsOf(bwrapPid)];
    cleanups.push(() => {
      for (const pid of sandboxed.filter(alive)) process.kill(pid, 'SIGKILL');
    });
    parent.kill('SIGKILL');
    await until(
      () => sandboxed.every((pid) => !alive(pid)),
      'the sandbox gone after its parent was killed',
    ).catch((error: Error) => {
      throw new Error(`${error.message}: ${describeProcesses(sandboxed)}`);
    });
  });

  it('passes stdio through for a long-lived ACP agent: the real Gemini CLI answers a prompt via the loopback model server', async () => {
    const f = fixture();
    const server = await startFakeModelServer();
    cleanups.push(() => server.close());
    server.enqueue({ finalText: 'Hello from inside.' });
    const gemini = prepareGemini({ modelUrl: server.url });
    cleanups.push(() => gemini.cleanup());
    // The agent's HOME is prepareGemini's; its ~/.gemini is writable, everything else as for any agent.
    const profile = resolveSandboxProfile({
      agentId: 'gemini',
      command: gemini.command,
      args: gemini.args,
      settings: SandboxSettings.parse({}),
      home: gemini.home,
      sessionDir: f.project,
      gatehouseHome: f.gatehouseHome,
      tmpDir: tmpdir(),
      env: gemini.env,
    });
    const command = await wrapped(profile!, gemini.command, gemini.args, gemini.env);
    const version = await run(
      await wrapped(profile!, gemini.command, [gemini.args[0]!, '--version'], gemini.env),
      f.project,
    );
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    const child = spawn(command.command, command.args, {
      cwd: f.project,
      env: command.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    cleanups.push(() => {
      killGroup(child.pid);
    });
    const text: string[] = [];
    const connection = client({ name: 'sandbox-test' })
      .onNotification(methods.client.session.update, ({ params }) => {
        if (
          params.update.sessionUpdate === 'agent_message_chunk' &&
          params.update.content.type === 'text'
        )
          text.push(params.update.content.text);
      })
      .connect(
        ndJsonStream(
          Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
          Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
        ),
      );
    cleanups.push(() => connection.close());
    await connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: true } },
    });
    const session = await connection.agent.request(methods.agent.session.new, {
      cwd: f.project,
      mcpServers: [],
    });
    const reply = await connection.agent.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'hi' }],
    });
    expect(reply.stopReason, stderr).toBe('end_turn');
    expect(text.join('')).toContain('Hello from inside.');
    expect(server.requests.some((request) => request.kind === 'stream')).toBe(true);
  });

  it('start-up cost of the sandbox (printed, not asserted)', async () => {
    const f = fixture();
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: f.home };
    const time = (command: string, args: string[]): number => {
      const runs: number[] = [];
      for (let i = 0; i < 7; i++) {
        const start = performance.now();
        spawnSync(command, args, { cwd: f.project, env: { ...env, ...process.env, ...env } });
        runs.push(performance.now() - start);
      }
      return runs.sort((a, b) => a - b)[3]!;
    };
    const plain = time(process.execPath, ['-e', '0']);
    const none = await wrapped(
      profileOf(f, { network: 'none' }),
      process.execPath,
      ['-e', '0'],
      env,
    );
    const allow = await wrapped(
      profileOf(f, { network: { allow: ['127.0.0.1:40999'] } }),
      process.execPath,
      ['-e', '0'],
      env,
    );
    const sandboxed = time(none.command, none.args);
    const relayed = time(allow.command, allow.args);
    console.log(
      `node -e 0: plain ${plain.toFixed(1)} ms, sandboxed ${sandboxed.toFixed(1)} ms (x${(sandboxed / plain).toFixed(2)}), ` +
        `sandboxed with the network relay ${relayed.toFixed(1)} ms (x${(relayed / plain).toFixed(2)})`,
    );
  });
});
