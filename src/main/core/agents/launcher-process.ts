// The agent launcher: a small process the core starts once (launcher.ts) to spawn its agents.
// Spawning blocks the spawning thread until the forked child has called exec, and on a busy machine
// that child waits for a CPU behind every agent booting: done here, that wait no longer stalls the
// core's thread (in the desktop app, the main process every window answers from). Each agent's
// pipes are socket pairs (libuv makes a child's stdio pipes so on Unix); their handles go to the core
// over the IPC channel and this process closes its own copies, so the core holds the only ends:
// EOF, and the lifeline's end closing with the core, work as if the core had spawned the agent.
// What an agent leaves in its process group ends with it, and every agent ends with the core.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, readdirSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { Spawn, type FromLauncher } from './launcher-protocol';

const O_CLOEXEC = 0o2000000;

function send(message: FromLauncher, pipe?: Socket): void {
  // A send after the core went away fails; 'disconnect' ends this process anyway.
  process.send?.(message, pipe, () => {});
}

/**
 * Descriptors this process inherited without close-on-exec would pass on to every agent; none is
 * ours (Node and libuv open all theirs close-on-exec, the IPC channel included). Linux: /proc.
 */
function closeInherited(): void {
  if (process.platform !== 'linux') return;
  for (const name of readdirSync('/proc/self/fd')) {
    const fd = Number(name);
    if (fd <= 2) continue;
    try {
      const flags = /^flags:\s*(\d+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      if (flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0) closeSync(fd);
    } catch {
      // The listing's own descriptor, gone by now.
    }
  }
}

/**
 * Stops this process reading an agent's pipe: a pipe is read from as soon as it is made, and what
 * was read here before the handle left would never reach the core. Node offers no public call for
 * this on a child's stdio.
 */
function stopReading(pipe: unknown): void {
  (pipe as { _handle?: { readStop(): number } })._handle?.readStop();
}

/** The agents started here that have not exited: each leads its own process group. */
const running = new Set<number>();

/**
 * Ends what is left of an agent's process group. Bubblewrap's `--die-with-parent` has a window: the
 * first process of a sandbox's PID namespace ties itself to the outer `bwrap` only once the mounts
 * are made, and ignores SIGTERM from outside, so a group told to stop in the first milliseconds of
 * its start can lose the `bwrap` and keep that process, with whatever it goes on to start. It
 * stays in the group, where a kill still reaches it.
 */
function endGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Nothing left in it.
  }
}

/** Leaves, and first ends every agent's group: with the core gone, nothing else would stop them. */
function leave(code: number): never {
  running.forEach(endGroup);
  process.exit(code);
}

function launch({ id, command, args, cwd, env, pipes }: Spawn): void {
  let child: ChildProcess;
  try {
    // Detached: the agent leads its own process group, which the core signals (process-group.ts).
    child = spawn(command, args, {
      cwd,
      env,
      stdio: new Array(pipes).fill('pipe'),
      detached: true,
    });
  } catch (error) {
    send({ type: 'failed', id, code: null, path: null, message: (error as Error).message });
    return;
  }
  const pid = child.pid;
  if (pid === undefined) {
    child.once('error', (error: NodeJS.ErrnoException) =>
      send({
        type: 'failed',
        id,
        code: error.code ?? null,
        path: error.path ?? null,
        message: error.message,
      }),
    );
    return;
  }
  // A later error (a signal that could not be sent) is no concern here: the core signals agents.
  child.on('error', () => {});
  // Node destroys a child's stdin when the child exits. Each pipe waits in the IPC channel for the
  // core's acknowledgement of the one before it, so with starts under way a quick program's stdin
  // could be destroyed before its turn and cross without its handle (the core then drops the
  // launcher with every agent). The pipes are the core's to close, not the ChildProcess's.
  const stdio = [...child.stdio];
  child.stdin = null;
  stdio.forEach((pipe, fd) => {
    stopReading(pipe);
    // Sent without keepOpen: this process's copy is closed once the core has it.
    send({ type: 'pipe', id, fd }, pipe as Socket);
  });
  running.add(pid);
  send({ type: 'spawned', id, pid });
  child.once('exit', (code, signal) => {
    running.delete(pid);
    // The group's leader is reaped just now, and its id is not reused while the group has members.
    endGroup(pid);
    send({ type: 'exit', id, code, signal });
  });
}

closeInherited();
process.on('message', (message) => {
  const parsed = Spawn.safeParse(message);
  // Only the core talks here; anything else means it is not the core's channel any more.
  if (!parsed.success) leave(70);
  launch(parsed.data);
});
// The core is gone (killed, crashed): leave too, with every agent, and the pipes still held here
// close. The IPC channel cannot say so: while a pipe waits for the core's acknowledgement Node
// holds back its 'disconnect' for ever. Stdin is this process's own lifeline, its other end the
// core's alone.
const lost = (): never => leave(0);
process.stdin.on('end', lost).on('close', lost).on('error', lost).resume();
// Its life is the core's alone. A signal sent to the core's whole process group (Ctrl-C at the
// terminal of `npm run headless`, a service manager's stop) reaches this process too, and leaving at
// once had every agent killed before the core could ask them to leave; the core stops them, then
// this process leaves with it. Handled, not ignored: an ignored signal would stay so in the agents.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
