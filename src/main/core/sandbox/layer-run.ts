// The scratch layer's first process (unshare, then scratch-script.ts's script) from its start to its
// end: its output kept within a bound, its reports read, the timeout and an abort ending it, the
// layer read through /proc/<pid> while it lives. Spawning it holds the spawning thread for a fork
// and exec of a process as large as the spawner, so the core hands in its launcher (agents/), whose
// pipes and pid come back as if the core had spawned it; only where none is handed in (the scratch
// layer or the previewer built on their own) is it spawned here, through the same shape.
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { SETUP_FAILED } from './scratch-script';

/** What the layer's first process is started from. */
export interface LayerSpec {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A fourth pipe (a launcher's lifeline slot): here it carries the script's reports. */
  lifeline: true;
}

/** The started process, led in a process group of its own; its pipes held here alone. */
export interface LayerProcess {
  /** Undefined when it did not start. */
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly lifeline: Readable | null;
  /** Its exit; `reason` says why it never ran, or why it was ended (its launcher lost). */
  readonly exited: Promise<{ code: number | null; signal: string | null; reason?: string }>;
}

/** Starts the layer's first process detached (a group of its own), with four pipes. */
export type LayerSpawner = (spec: LayerSpec) => Promise<LayerProcess>;

/** The spawn on the calling thread, for a layer built without the core's launcher. */
export const spawnHere: LayerSpawner = (spec) => {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<Awaited<LayerProcess['exited']>>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.on('error', (error) => {
      if (child.pid === undefined)
        resolve({ code: null, signal: null, reason: `unshare: ${error.message}` });
    });
  });
  return Promise.resolve({
    pid: child.pid,
    stdin: child.stdin!,
    stdout: child.stdout!,
    stderr: child.stderr!,
    lifeline: child.stdio[3] as Readable,
    exited,
  });
};

export interface LayerRun<R> {
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  output: string;
  setupFailure: string | null;
  spawnError?: string;
  read: R | null;
  /** The layer could not be read: what it changed is unknown, never "nothing". */
  readError?: string;
}

const OUTPUT_KEEP = 16 * 1024;
// A stopped layer that does not go within this long is killed with its process group.
const STOP_GRACE_MS = 5_000;
// How long the reports may still arrive once the layer's group is gone (their pipe then closes).
const REPORTS_DRAIN_MS = 500;

/**
 * What starts the layer runs with: nothing of the command's environment. The namespaces' first
 * process holds every capability there, outside bwrap: a PATH or LD_PRELOAD of the command's
 * would choose the programs it runs.
 */
const LAYER_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' };

/**
 * Starts the namespaces and the script; when the command ended (or was stopped at the bound),
 * `read` looks at the layer through the namespace, then the namespace is let go.
 */
export async function runLayer<R>(
  spawnLayer: LayerSpawner,
  unshare: string,
  scriptFile: string,
  input: { timeoutMs: number; signal?: AbortSignal | undefined },
  read: (pid: number) => Promise<R>,
): Promise<LayerRun<R>> {
  const outcome: LayerRun<R> = {
    exitCode: null,
    timedOut: false,
    aborted: false,
    output: '',
    setupFailure: null,
    read: null,
  };
  let layer: LayerProcess;
  try {
    layer = await spawnLayer({
      command: unshare,
      args: [
        '--user',
        '--map-root-user',
        '--mount',
        '--net',
        '--pid',
        '--fork',
        '--kill-child',
        '--mount-proc',
        '/bin/sh',
        scriptFile,
      ],
      cwd: process.cwd(),
      env: LAYER_ENV,
      lifeline: true,
    });
  } catch (error) {
    // The launcher was lost before the layer started: nothing ran.
    return { ...outcome, spawnError: (error as Error).message };
  }
  const { pid, stdin, lifeline: reportPipe } = layer;
  if (pid === undefined || !reportPipe) {
    const exit = await layer.exited;
    return { ...outcome, spawnError: exit.reason ?? 'unshare: it did not start' };
  }
  const keep = (chunk: Buffer): void => {
    outcome.output = (outcome.output + chunk.toString('utf8')).slice(-OUTPUT_KEEP);
  };
  layer.stdout.on('data', keep);
  layer.stderr.on('data', keep);
  stdin.on('error', () => {});
  const reportsEnded = ended(reportPipe);
  let reports = '';
  let reading = false;
  const killAll = (): void => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  let grace: NodeJS.Timeout | null = null;
  const stop = (): void => {
    stdin.write('stop\n');
    grace ??= setTimeout(killAll, STOP_GRACE_MS);
  };
  // The bound is the command's: it starts again once the layer is built and the command starts, so
  // that a layer slow to build (a loaded machine) does not take the command's time. The layer's
  // building has the same bound of its own.
  const bound = (): NodeJS.Timeout =>
    setTimeout(() => {
      outcome.timedOut = true;
      stop();
    }, input.timeoutMs);
  let timer = bound();
  let started = false;
  const onAbort = (): void => {
    outcome.aborted = true;
    killAll();
  };
  input.signal?.addEventListener('abort', onAbort, { once: true });
  // Aborted while the layer was being prepared: the listener came too late to hear it.
  if (input.signal?.aborted) onAbort();
  reportPipe.on('data', (chunk: Buffer) => {
    reports += chunk.toString('utf8');
    if (!started && /^start$/m.test(reports) && !outcome.timedOut) {
      started = true;
      clearTimeout(timer);
      timer = bound();
    }
    const exit = /^exit (\d+)$/m.exec(reports);
    if (!exit || reading) return;
    reading = true;
    clearTimeout(timer);
    outcome.exitCode = Number(exit[1]);
    if (outcome.aborted) return;
    void read(pid)
      .then((value) => (outcome.read = value))
      .catch((error: Error) => (outcome.readError = error.message))
      .finally(() => {
        stdin.end();
        grace ??= setTimeout(killAll, STOP_GRACE_MS);
      });
  });
  const exit = await layer.exited;
  clearTimeout(timer);
  if (grace) clearTimeout(grace);
  input.signal?.removeEventListener('abort', onAbort);
  // Whatever the command left running dies with the namespace; nothing outlives the run.
  killAll();
  await within(reportsEnded, REPORTS_DRAIN_MS);
  // Its launcher lost: the layer was killed with it, and what it showed is not to be trusted.
  if (exit.reason !== undefined) return { ...outcome, spawnError: exit.reason };
  const failed = /^fail ([\s\S]*)$/m.exec(reports);
  if (exit.code === SETUP_FAILED && failed) outcome.setupFailure = failed[1]!.trim();
  else if (!reading && !outcome.aborted && !outcome.timedOut)
    outcome.setupFailure = `the layer ended before its command (${exit.code}): ${outcome.output.trim().slice(-500)}`;
  return outcome;
}

/** The reports' pipe at its end. */
function ended(pipe: Readable): Promise<void> {
  if (pipe.readableEnded || pipe.destroyed) return Promise.resolve();
  return new Promise((resolve) => pipe.once('end', resolve).once('close', resolve));
}

/** `done`, or `ms` past, whichever comes first: should anything outside the group still hold it. */
function within(done: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const past = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([done, past]).finally(() => clearTimeout(timer));
}
