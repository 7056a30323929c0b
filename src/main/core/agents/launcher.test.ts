// The agent launcher with real processes: what the core gets back works as if it had spawned the
// agent itself (pipes both ways, EOF, exit status, process group, lifeline, nothing else inherited),
// and a launcher that dies or misbehaves takes every agent it started with it.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LaunchedAgent, LaunchSpec } from './launched-agent';
import { agentLauncher, AgentLauncher, LauncherLostError, runThroughLauncher } from './launcher';
import { processIdentity } from '../process-identity';
import { behindLifeline } from './lifeline';
import { signalGroup } from './process-group';
import { descendantsOf, pidsWithEnv } from '../../../../test/support/process-scan';

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const spec = (command: string, args: string[], lifeline = false): LaunchSpec => ({
  command,
  args,
  cwd: process.cwd(),
  env: ENV,
  lifeline,
});
/** `sh -c script` behind the lifeline, as an unsandboxed agent runs. */
const lifelined = (script: string): LaunchSpec => {
  const behind = behindLifeline('/bin/sh', ['-c', script])!;
  return spec(behind.command, behind.args, true);
};

const launchers: AgentLauncher[] = [];
const agents: LaunchedAgent[] = [];
afterEach(() => {
  for (const agent of agents.splice(0)) signalGroup(agent, 'SIGKILL');
  for (const launcher of launchers.splice(0)) launcher.stop();
});

async function launcher(): Promise<AgentLauncher> {
  const started = await AgentLauncher.start();
  launchers.push(started);
  return started;
}

async function launch(from: AgentLauncher, what: LaunchSpec): Promise<LaunchedAgent> {
  const agent = await from.spawn(what);
  agents.push(agent);
  return agent;
}

function readAll(stream: Readable): Promise<string> {
  stream.setEncoding('utf8');
  let text = '';
  stream.on('data', (chunk: string) => (text += chunk));
  return new Promise((resolve) => stream.once('end', () => resolve(text)));
}

const alive = (pid: number): boolean => processIdentity(pid) !== null;
/** The program a pid runs now (sh execs the agent behind the lifeline). */
const program = (pid: number): string =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!;

const bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].find((path) => existsSync(path));

describe.skipIf(process.platform === 'win32')('the agent launcher', () => {
  it('hands back pipes that work both ways, and EOF and the exit code once the agent exits', async () => {
    const from = await launcher();
    // 300 kB on stderr before anything is asked: nothing the launcher could read may be lost.
    const agent = await launch(
      from,
      spec('/bin/sh', [
        '-c',
        'head -c 300000 /dev/zero | tr "\\0" x >&2; read line; echo "got $line"; exit 3',
      ]),
    );
    expect(agent.pid).toBeGreaterThan(0);
    const [out, err] = [readAll(agent.stdout), readAll(agent.stderr)];
    agent.stdin.end('hello\n');
    expect(await out).toBe('got hello\n');
    expect((await err).length).toBe(300_000);
    expect(await agent.exited).toEqual({ code: 3, signal: null });
  });

  it("passes an argument up to exec's own bound; a start past it fails alone, the launcher and its agents go on", async () => {
    const from = await launcher();
    const running = await launch(from, spec('sleep', ['600']));
    // 120 kB, as a scripted agent's script or a long system prompt may be.
    const big = 'x'.repeat(120 * 1024);
    const echo = await launch(from, spec('/bin/sh', ['-c', 'printf %s "$1" | wc -c', 'sh', big]));
    expect((await readAll(echo.stdout)).trim()).toBe(String(big.length));
    const refused = await launch(
      from,
      spec('/bin/sh', ['-c', 'exit 0', 'sh', 'y'.repeat(200 * 1024)]),
    );
    expect(refused.pid).toBeUndefined();
    expect((await refused.exited).reason).toMatch(/could not be started/);
    expect(alive(running.pid!)).toBe(true);
    const after = await launch(from, spec('/bin/sh', ['-c', 'exit 4']));
    expect(await after.exited).toEqual({ code: 4, signal: null });
  });

  it('passes an exit on only once what the agent wrote before it has been read', async () => {
    const from = await launcher();
    // More than the pipe holds: the last of it is still in the kernel when the agent has exited.
    const agent = await launch(
      from,
      spec('/bin/sh', ['-c', 'head -c 1000000 /dev/zero | tr "\\0" e >&2; exit 5']),
    );
    agent.stderr.setEncoding('utf8');
    let read = 0;
    // A reader slower than the agent: its exit is known while output is still to be read.
    agent.stderr.on('data', (chunk: string) => {
      read += chunk.length;
      agent.stderr.pause();
      setTimeout(() => agent.stderr.resume(), 5);
    });
    expect(await agent.exited).toEqual({ code: 5, signal: null });
    expect(read).toBe(1_000_000);
  });

  it('reports the signal that ended the agent; the agent leads its own process group', async () => {
    const from = await launcher();
    const agent = await launch(from, spec('sleep', ['600']));
    expect(processIdentity(agent.pid!)).toMatchObject({ pgid: agent.pid, sid: agent.pid });
    signalGroup(agent, 'SIGTERM');
    expect(await agent.exited).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('reports a command that does not exist, with its path', async () => {
    const from = await launcher();
    const agent = await from.spawn(spec('/nonexistent/agent', []));
    expect(agent.pid).toBeUndefined();
    expect(await agent.exited).toMatchObject({ reason: 'command not found: /nonexistent/agent' });
  });

  it.skipIf(process.platform !== 'linux')(
    'gives the agent its three pipes and nothing else: no IPC channel, no descriptor of the core or launcher',
    async () => {
      const from = await launcher();
      const agent = await launch(from, lifelined('exec sleep 600'));
      // Behind the lifeline, sh closes the lifeline's descriptor before it execs the agent.
      await vi.waitFor(() => expect(program(agent.pid!)).toBe('sleep'));
      const fds = readdirSync(`/proc/${agent.pid}/fd`).sort();
      expect(fds).toEqual(['0', '1', '2']);
      for (const fd of fds) expect(readlinkSync(`/proc/${agent.pid}/fd/${fd}`)).toMatch(/^socket:/);
      const environ = readFileSync(`/proc/${agent.pid}/environ`, 'utf8').split('\0');
      expect(environ.filter((entry) => entry.startsWith('NODE_CHANNEL'))).toEqual([]);
      // The environment is the one given, whole (sh adds its PWD).
      expect(environ.filter((entry) => entry && !entry.startsWith('PWD='))).toEqual([
        `PATH=${ENV.PATH}`,
      ]);
    },
  );

  it('the lifeline still kills the agent and its group once the core end closes', async () => {
    const from = await launcher();
    const agent = await launch(from, lifelined('sleep 600 & exec sleep 600'));
    expect(agent.lifeline).not.toBeNull();
    agent.lifeline!.destroy();
    expect(await agent.exited).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('ends what an agent left in its process group once the agent exits', async () => {
    const from = await launcher();
    const agent = await launch(from, spec('/bin/sh', ['-c', 'sleep 600 & echo $!']));
    const left = Number(await readAll(agent.stdout));
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    await vi.waitFor(() => expect(alive(left)).toBe(false));
  });

  it("ends the lifeline's watcher once its agent exits, not only once the core goes", async () => {
    const from = await launcher();
    // The watcher is the agent's one child here (`read` is the shell's own).
    const agent = await launch(
      from,
      lifelined('read -r watcher < /proc/$$/task/$$/children; echo $watcher'),
    );
    const watcher = Number(await readAll(agent.stdout));
    expect(watcher).toBeGreaterThan(0);
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    await vi.waitFor(() => expect(alive(watcher)).toBe(false));
  });

  it.skipIf(!bwrap)(
    "ends a sandbox's first process that outlived its bwrap, with what it runs",
    async () => {
      const from = await launcher();
      // Without `--die-with-parent`, the namespace's first process does not go with the outer
      // bwrap: as in the window before it ties itself to it. What runs inside ignores SIGTERM.
      const agent = await launch(
        from,
        spec(bwrap!, [
          ...['--unshare-user', '--unshare-pid', '--ro-bind', '/', '/', '--proc', '/proc'],
          ...['--dev', '/dev', '--', '/bin/sh', '-c', "trap '' TERM; echo ready; sleep 600"],
        ]),
      );
      agent.stdout.setEncoding('utf8');
      await new Promise((resolve) => agent.stdout.once('data', resolve));
      const inside = descendantsOf(agent.pid!);
      expect(inside.length).toBeGreaterThanOrEqual(2);
      agent.kill('SIGTERM');
      expect(await agent.exited).toEqual({ code: null, signal: 'SIGTERM' });
      for (const pid of inside) await vi.waitFor(() => expect(alive(pid)).toBe(false));
    },
  );

  it("stays through the signals a core's whole group is sent, and its agents still take them", async () => {
    const from = await launcher();
    const first = await launch(from, spec('sleep', ['600']));
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.kill(from.pid!, signal);
    const second = await launch(from, spec('sleep', ['600']));
    expect(alive(from.pid!)).toBe(true);
    expect(alive(first.pid!)).toBe(true);
    // A handler, not an ignored signal: what the launcher starts has the default action.
    second.kill('SIGINT');
    expect(await second.exited).toEqual({ code: null, signal: 'SIGINT' });
  });

  it('a launcher killed: its agents are killed and exit SIGKILL with the reason, a start under way fails', async () => {
    const from = await launcher();
    const first = await launch(from, spec('sleep', ['600']));
    const second = await launch(from, lifelined('sleep 600 & exec sleep 600'));
    // Agents run behind a lifeline or in a sandbox that dies with its parent: one the launcher had
    // started but not yet handed over still ends with it.
    const mark = `${process.pid}.${Date.now()}`;
    const behind = lifelined('exec sleep 600');
    const pending = from.spawn({ ...behind, env: { ...ENV, GATEHOUSE_TEST_PENDING: mark } });
    process.kill(from.pid!, 'SIGKILL');
    await expect(pending).rejects.toBeInstanceOf(LauncherLostError);
    await expect(pending).rejects.toThrow('the agent launcher exited (signal SIGKILL)');
    for (const agent of [first, second]) {
      expect(await agent.exited).toEqual({
        code: null,
        signal: 'SIGKILL',
        reason: 'the agent launcher exited (signal SIGKILL)',
      });
      await vi.waitFor(() => expect(alive(agent.pid!)).toBe(false));
    }
    await expect(from.spawn(spec('sleep', ['1']))).rejects.toBeInstanceOf(LauncherLostError);
    await vi.waitFor(() => expect(pidsWithEnv(`GATEHOUSE_TEST_PENDING=${mark}`)).toEqual([]));
  });

  it('a message that does not fit the protocol stops the launcher and its agents', async () => {
    const from = await launcher();
    const agent = await launch(from, spec('sleep', ['600']));
    // As if the launcher had been replaced by something else speaking on its channel.
    const child = (from as unknown as { child: ChildProcess }).child;
    child.emit('message', { type: 'exit', id: 999, code: 0, signal: null });
    expect(await agent.exited).toMatchObject({
      signal: 'SIGKILL',
      reason: 'the agent launcher sent an exit of no agent it runs',
    });
    await vi.waitFor(() => expect(alive(agent.pid!)).toBe(false));
    await vi.waitFor(() => expect(alive(from.pid!)).toBe(false));
  });

  it('the next start after a launcher was lost starts a new one', async () => {
    const first = await agentLauncher();
    const agent = await first.spawn(spec('sleep', ['600']));
    agents.push(agent);
    process.kill(first.pid!, 'SIGKILL');
    await agent.exited;
    const next = await agentLauncher();
    launchers.push(next);
    expect(next.pid).not.toBe(first.pid);
    const again = await launch(next, spec('/bin/sh', ['-c', 'exit 0']));
    expect(await again.exited).toEqual({ code: 0, signal: null });
  });

  it('hands back every pipe of programs that exit at once, started together; the launcher stays', async () => {
    const from = await launcher();
    // Each pipe waits in the IPC channel for the core's acknowledgement of the one before it: by
    // the time the last ones cross, their programs have long exited.
    const started = await Promise.all(
      Array.from({ length: 40 }, (_, i) => launch(from, spec('/bin/sh', ['-c', `exit ${i % 7}`]))),
    );
    for (const [i, agent] of started.entries()) {
      expect(agent.pid).toBeDefined();
      expect(await agent.exited).toEqual({ code: i % 7, signal: null });
    }
    const after = await launch(from, spec('/bin/sh', ['-c', 'exit 0']));
    expect(await after.exited).toEqual({ code: 0, signal: null });
  });

  it('runs a short program as a child of the launcher, not of the core, and says why one failed', async () => {
    const from = await agentLauncher();
    launchers.push(from);
    const out = join(mkdtempSync(join(tmpdir(), 'gatehouse-tool-')), 'parent');
    try {
      // The program writes its parent's pid: the launcher's, so the core's thread never forked it.
      const said = await runThroughLauncher('/bin/sh', ['-c', `echo $PPID > '${out}'; echo done`]);
      expect(Number(readFileSync(out, 'utf8'))).toBe(from.pid);
      expect(said).toBe('done\n');
      await expect(
        runThroughLauncher('/bin/sh', ['-c', 'echo "no room left" >&2; exit 3']),
      ).rejects.toThrow('/bin/sh: exit code 3 (no room left)');
      await expect(runThroughLauncher('/bin/sh', ['-c', 'exit 4'])).rejects.toThrow('exit code 4');
      await expect(runThroughLauncher('/no/such/tool', [])).rejects.toMatchObject({
        message: expect.stringContaining('command not found: /no/such/tool'),
        ran: false,
      });
      // One that hangs is ended at its bound, and its stderr is kept for the failure.
      const hung = runThroughLauncher('/bin/sh', ['-c', 'echo stuck >&2; exec sleep 60'], 300);
      await expect(hung).rejects.toMatchObject({
        name: 'ToolFailedError',
        ran: true,
        message: '/bin/sh: ran past 300 ms (stuck)',
        stderr: 'stuck\n',
      });
      // What it started goes with it: the whole group is ended at the bound.
      const left = join(dirname(out), 'left');
      await expect(
        runThroughLauncher('/bin/sh', ['-c', `sleep 60 & echo $! > '${left}'; wait`], 300),
      ).rejects.toThrow('ran past 300 ms');
      const sleeper = Number(readFileSync(left, 'utf8').trim());
      // Gone, or a zombie its new parent has not reaped yet.
      const running = () => {
        try {
          return !/\) Z /.test(readFileSync(`/proc/${sleeper}/stat`, 'utf8'));
        } catch {
          return false;
        }
      };
      await vi.waitFor(() => expect(running()).toBe(false));
    } finally {
      rmSync(dirname(out), { recursive: true, force: true });
    }
  });
});
