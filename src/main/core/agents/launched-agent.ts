// A started agent as the core holds it: its pid, its pipes and its exit. On Linux and macOS the agent
// launcher spawns it (launcher.ts); on Windows the core spawns it itself (no process groups, no
// lifeline, nothing to move off the thread that would not stay on it).
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { Readable, Writable } from 'node:stream';

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

/** An exit, with what the agent cannot say itself: why its command did not run, why it was ended. */
export interface LaunchExit extends ExitInfo {
  reason?: string;
}

/** What the core asks to run: the prepared launch, already behind its lifeline where it has one. */
export interface LaunchSpec {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A fourth pipe, the lifeline's core end (lifeline.ts). */
  lifeline: boolean;
}

export interface LaunchedAgent {
  /** Undefined when the command did not run. */
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** The lifeline's core end: held, never written, closed by the kernel when the core dies. */
  readonly lifeline: Socket | null;
  /** Resolves once, when the agent has exited or could not start. */
  readonly exited: Promise<LaunchExit>;
  /** Signals the agent itself (process-group.ts signals its group where there is one). */
  kill(signal: NodeJS.Signals): boolean;
}

/** The words for a command that could not be run, where its own errors would have been. */
export function failureWords(error: {
  code?: string | null;
  path?: string | null;
  message: string;
}): string {
  return error.code === 'ENOENT' && error.path ? `command not found: ${error.path}` : error.message;
}

/** An agent that never ran: no pid, empty pipes, already exited with `reason`. */
export function notStarted(reason: string, code: number | null = null): LaunchedAgent {
  const stdout = Readable.from([]);
  const stderr = Readable.from([]);
  const stdin = new Writable({ write: (_chunk, _encoding, done) => done() });
  const exited = Promise.resolve({ code, signal: null, reason });
  return { pid: undefined, stdin, stdout, stderr, lifeline: null, exited, kill: () => false };
}

/** Windows: spawned on the core's own thread, as before the launcher. */
export function spawnInProcess(spec: LaunchSpec): LaunchedAgent {
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: 'pipe' });
  const exited = new Promise<LaunchExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined)
        resolve({ code: error.errno ?? null, signal: null, reason: failureWords(error) });
    });
  });
  return {
    pid: child.pid,
    stdin: child.stdin!,
    stdout: child.stdout!,
    stderr: child.stderr!,
    lifeline: null,
    exited,
    kill: (signal) => child.kill(signal),
  };
}
