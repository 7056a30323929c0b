// The core's end of the agent launcher (launcher-process.ts): one process, started on the first
// agent start, that spawns agents (and each preview's scratch layer, sandbox/layer-run.ts) and hands
// their pipes back, so the core's thread never waits for a child's exec. The launcher is the agents' parent but the core keeps what decides: it holds the
// pipes (the lifeline's core end included), knows every pid and signals process groups itself.
// A launcher that dies, or says anything unexpected, fails closed: every agent it started is killed
// (their sessions end as agent exits do), the starts under way fail, and the next start forks a
// new launcher.
import { fork, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { z } from 'zod';
import { AGENT_LAUNCHER, entryFile } from '../entry-file';
import {
  failureWords,
  notStarted,
  type LaunchExit,
  type LaunchSpec,
  type LaunchedAgent,
} from './launched-agent';
import { FromLauncher, Spawn } from './launcher-protocol';
import { signalGroup } from './process-group';
import { TOOL_TIMEOUT_MS, ToolFailedError } from '../sandbox/tool-runner';

export class LauncherLostError extends Error {
  override name = 'LauncherLostError';
}

interface Starting {
  pipes: Socket[];
  count: number;
  resolve(agent: LaunchedAgent): void;
  reject(error: Error): void;
}

interface Running {
  agent: LaunchedAgent;
  finish(exit: LaunchExit): void;
}

export class AgentLauncher {
  private nextId = 0;
  private readonly starting = new Map<number, Starting>();
  private readonly running = new Map<number, Running>();
  private lostWith: LauncherLostError | null = null;

  private constructor(
    private readonly child: ChildProcess,
    private readonly onLost: () => void,
  ) {
    child.on('message', (message, handle) => this.receive(message, handle));
    child.once('exit', (code, signal) =>
      this.lose(`the agent launcher exited (${signal ? `signal ${signal}` : `code ${code}`})`),
    );
    child.once('error', (error) => this.lose(`the agent launcher failed: ${error.message}`));
    this.idle();
  }

  /** Forks the launcher; `onLost` is told once it is gone. */
  static async start(onLost: () => void = () => {}): Promise<AgentLauncher> {
    const child = fork(await entryFile(AGENT_LAUNCHER), [], {
      // Inside Electron, process.execPath is the app: this makes it plain Node. The launcher needs
      // nothing of the core's environment (each agent's is given whole).
      env: { ELECTRON_RUN_AS_NODE: '1' },
      execArgv: [],
      // Stdin is the launcher's lifeline (launcher-process.ts): never written, it closes with the core.
      stdio: ['pipe', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
    });
    child.stdin?.on('error', () => {});
    return new AgentLauncher(child, onLost);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Spawns the agent; rejects with LauncherLostError if the launcher is gone before it reports. */
  spawn(spec: LaunchSpec): Promise<LaunchedAgent> {
    if (this.lostWith) return Promise.reject(this.lostWith);
    const id = this.nextId++;
    const env = Object.fromEntries(
      Object.entries(spec.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const message: Spawn = {
      type: 'spawn',
      id,
      command: spec.command,
      args: [...spec.args],
      cwd: spec.cwd,
      env,
      pipes: spec.lifeline ? 4 : 3,
    };
    // The launcher takes an unfit message for a broken channel and leaves, with every agent: one
    // start that asks too much (an argument past exec's bound) fails alone, here.
    const fit = Spawn.safeParse(message);
    if (!fit.success)
      return Promise.resolve(notStarted(`it could not be started: ${z.prettifyError(fit.error)}`));
    return new Promise((resolve, reject) => {
      this.starting.set(id, { pipes: [], count: message.pipes, resolve, reject });
      this.busy();
      this.child.send(message, (error) => {
        if (error) this.lose(`the agent launcher cannot be reached: ${error.message}`);
      });
    });
  }

  /** Stops the launcher; what it started is killed as if it had died. */
  stop(): void {
    this.lose('the agent launcher was stopped');
  }

  private receive(raw: unknown, handle: unknown): void {
    const parsed = FromLauncher.safeParse(raw);
    if (!parsed.success) return this.refuse('a malformed message', handle);
    const message = parsed.data;
    if (message.type === 'exit') {
      const agent = this.running.get(message.id);
      if (!agent || handle) return this.refuse('an exit of no agent it runs', handle);
      this.running.delete(message.id);
      agent.finish({ code: message.code, signal: message.signal });
      return this.idle();
    }
    const start = this.starting.get(message.id);
    if (!start) return this.refuse(`a ${message.type} message for no start under way`, handle);
    if (message.type === 'pipe') {
      if (
        !(handle instanceof Socket) ||
        message.fd !== start.pipes.length ||
        message.fd >= start.count
      )
        return this.refuse('a pipe out of order', handle);
      // An error on a pipe (the agent gone mid-write) is the agent's exit, not the core's crash.
      handle.on('error', () => {});
      start.pipes.push(handle);
      return;
    }
    if (handle) return this.refuse(`a ${message.type} message with a handle`, handle);
    const piped = message.type === 'failed' ? 0 : start.count;
    if (start.pipes.length !== piped)
      return this.refuse(`a ${message.type} start with ${start.pipes.length} pipes`, handle);
    this.starting.delete(message.id);
    if (message.type === 'spawned')
      return start.resolve(this.started(message.id, message.pid, start.pipes));
    start.resolve(notStarted(failureWords(message)));
    this.idle();
  }

  private started(id: number, pid: number, pipes: Socket[]): LaunchedAgent {
    const [stdin, stdout, stderr, lifeline] = pipes as [Socket, Socket, Socket, Socket?];
    // The exit comes over the launcher's channel and the output over the agent's own pipes, in no
    // set order: an exit is passed on once what the agent wrote before it has been read (the words
    // of an agent that could not start are the last it writes).
    let finish!: (exit: LaunchExit) => void;
    const exited = new Promise<LaunchExit>((resolve) => {
      finish = (exit) =>
        void Promise.all([drained(stdout), drained(stderr)]).then(() => resolve(exit));
    });
    const agent: LaunchedAgent = {
      pid,
      stdin,
      stdout,
      stderr,
      lifeline: lifeline ?? null,
      exited,
      kill: (signal) => {
        try {
          return process.kill(pid, signal);
        } catch {
          return false;
        }
      },
    };
    this.running.set(id, { agent, finish });
    return agent;
  }

  /** Anything unexpected from the launcher: it is not trusted further. */
  private refuse(what: string, handle: unknown): void {
    if (handle instanceof Socket) handle.destroy();
    this.lose(`the agent launcher sent ${what}`);
  }

  private lose(reason: string): void {
    if (this.lostWith) return;
    this.lostWith = new LauncherLostError(reason);
    this.child.kill('SIGKILL');
    // Their parent is gone: nothing reports their exits any more, and none may run unwatched.
    for (const { agent, finish } of this.running.values()) {
      signalGroup(agent, 'SIGKILL');
      finish({ code: null, signal: 'SIGKILL', reason });
    }
    for (const start of this.starting.values()) {
      for (const pipe of start.pipes) pipe.destroy();
      start.reject(this.lostWith);
    }
    this.running.clear();
    this.starting.clear();
    this.onLost();
  }

  /** The launcher keeps the core's process alive only while it has agents starting or running. */
  private busy(): void {
    this.child.ref();
    this.child.channel?.ref();
  }

  private idle(): void {
    if (this.starting.size > 0 || this.running.size > 0) return;
    this.child.unref();
    this.child.channel?.unref();
  }
}

/**
 * How long an exit waits for the agent's pipes to close. Something the agent started may hold them
 * open after it exited; the exit is not held for that.
 */
const DRAIN_MS = 500;

function drained(pipe: Socket): Promise<void> {
  if (pipe.closed || pipe.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, DRAIN_MS);
    timer.unref();
    function done() {
      clearTimeout(timer);
      pipe.off('end', done).off('close', done);
      resolve();
    }
    pipe.once('end', done).once('close', done);
  });
}

let current: Promise<AgentLauncher> | null = null;

/** The core's launcher, started on the first call and again after one was lost. */
export function agentLauncher(): Promise<AgentLauncher> {
  if (!current) {
    const started = AgentLauncher.start(() => {
      if (current === started) current = null;
    });
    current = started;
    started.catch(() => {
      if (current === started) current = null;
    });
  }
  return current;
}

/**
 * Starts the launcher ahead of the first agent, where agents are spawned through it: its own fork
 * waits for an exec on the core's thread too, once, better at the core's start than at a session's.
 */
export function prepareAgentLauncher(): void {
  if (process.platform !== 'win32') void agentLauncher().catch(() => {});
}

/** Spawns through the launcher; a launcher that could not start or was lost is the agent's failure. */
export async function launchAgent(spec: LaunchSpec): Promise<LaunchedAgent> {
  try {
    return await (await agentLauncher()).spawn(spec);
  } catch (error) {
    return notStarted((error as Error).message);
  }
}

/** What is kept of a tool's output: its stdout for the caller, its stderr for its failure. */
const TOOL_STDOUT_MAX = 256 * 1024;
const TOOL_STDERR_MAX = 1024;

/**
 * Runs a short program (no input) through the launcher, for the sandbox's own needs
 * (sandbox/tool-runner.ts): a spawn on the core's thread holds it for a fork of the whole core,
 * ~10 ms on a small machine. Resolves with its stdout; rejects with its exit, why it did not run, or
 * its running past `timeoutMs` (it is then killed), and the start of what it wrote to stderr.
 */
export async function runThroughLauncher(
  command: string,
  args: readonly string[],
  timeoutMs = TOOL_TIMEOUT_MS,
): Promise<string> {
  const child = await launchAgent({
    command,
    args,
    cwd: '/',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    lifeline: false,
  });
  child.stdin.end();
  const kept = (max: number) => {
    let text = '';
    return {
      add: (part: string) => {
        if (text.length < max) text += part.slice(0, max - text.length);
      },
      text: () => text,
    };
  };
  const stdout = kept(TOOL_STDOUT_MAX);
  const stderr = kept(TOOL_STDERR_MAX);
  child.stdout.setEncoding('utf8').on('data', stdout.add);
  child.stderr.setEncoding('utf8').on('data', stderr.add);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // It leads a group of its own: what it started is ended with it.
    signalGroup(child, 'SIGKILL');
  }, timeoutMs);
  const exit = await child.exited;
  clearTimeout(timer);
  if (exit.code === 0 && !timedOut) return stdout.text();
  const how = timedOut
    ? `ran past ${timeoutMs} ms`
    : (exit.reason ?? (exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`));
  const said = stderr.text().trim();
  // A reason is the launcher's: the program never ran, or was lost with the launcher.
  const ran = timedOut || exit.reason === undefined;
  throw new ToolFailedError(`${command}: ${how}${said ? ` (${said})` : ''}`, stderr.text(), ran);
}
