// The core's end of one store thread: calls batched into one message per turn of the event loop,
// replies matched to their callers, and a thread that dies replaced. When a thread dies, every call
// it had not answered is rejected: a decision waiting for its commit fails, and the pipeline denies
// the agent (fail closed). Records it had queued but not committed are lost with it; a decision on a
// request whose record was lost is then refused as unknown, and denied too.
import { Worker } from 'node:worker_threads';
import { StoreClosedError, StoreWriteError } from './errors';
import { entryFile, STORE_WORKER } from '../entry-file';
import {
  fromWire,
  type Call,
  type FromThread,
  type MethodArgs,
  type MethodName,
  type MethodResult,
  type ThreadConfig,
  type WireError,
} from './thread-protocol';

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * A thread's space for short-lived objects. Left to V8, it grew to its largest under a burst of
 * records and stayed there: about 34 MB of the core's RSS (bench/memory.ts), for no gain in writes.
 */
const YOUNG_GENERATION_MB = 8;

/**
 * How long a `soon` send may wait for company. Each message wakes the thread and each batch is a
 * commit: a request's record waiting for its decision, or for the next request, halves both when
 * people answer one request at a time, and the record is on disk before any answer to it is. The
 * preview's and the command's observed effects wait too: with 100 sessions asking, a request's
 * records crossed in 3.1 messages, now in 1.1, and the core's CPU a request fell from 3.4–3.5 to
 * 3.0–3.2 ms (2.5 to 2.1 without previews; bench/sse-latency.ts, alternated).
 */
const SOON_MS = 20;

/**
 * The most calls one message carries. A burst (a hundred decisions answered at once) crosses in
 * slices, so the thread decodes and writes the first while this one is still building the next,
 * instead of waiting for the whole: 19.5–20.0k durable decisions/s became 20.6–22.2k with 100 in
 * flight (bench/history.ts, durability full). The thread still commits what has arrived together.
 */
const CALLS_PER_MESSAGE = 32;

/** How many times a dying thread is replaced within a minute before the store gives up. */
const MAX_RESTARTS_PER_MINUTE = 5;

export interface ThreadEvents {
  /** A fire-and-forget call failed in the thread. */
  report(error: Error, context: string): void;
  /** The thread died and a new one took its place (`replaced` false: the store gave up on it). */
  died(info: { role: string; exitCode: number; replaced: boolean }): void;
}

/** One store thread, answering the methods of map `M` (thread-protocol.ts). */
export class StoreThread<M> {
  /** Null while a replacement is starting: calls wait in the outbox meanwhile. */
  private current: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private outbox: Call[] = [];
  /** How the outbox will cross: at the end of this turn, by a `soon` send's timer, or not yet. */
  private posting: 'turn' | ReturnType<typeof setTimeout> | null = null;
  private nextId = 1;
  private closed = false;
  private restarts: number[] = [];
  private failure: Error | null = null;
  /** Whether a thread of this store ever opened: a later one that cannot is a thread lost. */
  private opened = false;

  private constructor(
    private readonly config: ThreadConfig,
    private readonly now: () => number,
    private readonly events: ThreadEvents,
  ) {}

  /** Starts the thread; resolves once its engine is open (the writer: migrated). */
  static async start<M>(
    config: ThreadConfig,
    now: () => number,
    events: ThreadEvents,
  ): Promise<StoreThread<M>> {
    const thread = new StoreThread<M>(config, now, events);
    await thread.spawn();
    return thread;
  }

  /** The thread's worker (null while a replacement starts): its heap for the benches, its end for tests. */
  get worker(): Worker | null {
    return this.current;
  }

  call<K extends MethodName<M>>(method: K, ...args: MethodArgs<M, K>): Promise<MethodResult<M, K>> {
    if (this.closed) return Promise.reject(new StoreClosedError());
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.queue({ id, now: this.now(), method, args });
    });
  }

  /**
   * A call nobody waits for: a failure goes to `report`. `soon`: it may wait up to `SOON_MS` for
   * the next message instead of crossing alone (a call, or a send that is not `soon`, takes it).
   */
  send<K extends MethodName<M>>(method: K, args: MethodArgs<M, K>, soon = false): void {
    if (this.closed) throw new StoreClosedError();
    if (this.failure) {
      this.events.report(this.failure, method);
      return;
    }
    this.queue({ id: 0, now: this.now(), method, args }, soon);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const done = this.failure ? Promise.resolve() : this.closeCall();
    this.closed = true;
    await done.catch(() => undefined);
    await this.current?.terminate();
  }

  /** Every thread answers `close`, whatever its map: it ends the engine, then the thread. */
  private closeCall(): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.queue({ id, now: this.now(), method: 'close', args: [] });
    });
  }

  private queue(call: Call, soon = false): void {
    this.outbox.push(call);
    // A full slice crosses now; what follows it still waits as it would have.
    if (this.outbox.length >= CALLS_PER_MESSAGE) return this.cross();
    if (this.posting === 'turn') return;
    if (soon) {
      this.posting ??= setTimeout(() => this.post(), SOON_MS);
      return;
    }
    if (this.posting !== null) clearTimeout(this.posting);
    // Everything asked in one turn crosses at its end, in one message but for the full slices.
    this.posting = 'turn';
    queueMicrotask(() => this.post());
  }

  private post(): void {
    if (this.posting !== null && this.posting !== 'turn') clearTimeout(this.posting);
    this.posting = null;
    this.cross();
  }

  /** What waits goes to the thread; while a replacement starts, it waits for it. */
  private cross(): void {
    if (!this.current || this.outbox.length === 0) return;
    const calls = this.outbox;
    this.outbox = [];
    this.current.postMessage(calls);
  }

  private async spawn(): Promise<void> {
    const worker = new Worker(await entryFile(STORE_WORKER), {
      workerData: { ...this.config, now: this.now() },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.current = worker;
    this.post();
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      worker.on('message', (messages: FromThread[]) => {
        for (const message of messages) {
          if (message.type === 'ready') {
            ready = true;
            this.opened = true;
            resolve();
          } else if (message.type === 'failed') {
            reject(fromWire(message.error));
          } else this.receive(message);
        }
      });
      worker.on('error', (error) => {
        if (!ready) reject(error);
        else this.events.report(error, `store ${this.config.role} thread`);
      });
      worker.on('exit', (code) => {
        if (this.current !== worker) return;
        if (ready) return this.lost(code);
        const error = new StoreWriteError(
          `the store's ${this.config.role} thread could not open the store (exit code ${code})`,
        );
        this.failure = error;
        this.current = null;
        this.rejectOwed(error);
        reject(error);
        // A replacement that dies before it opens is not replaced again.
        if (this.opened)
          this.events.died({ role: this.config.role, exitCode: code, replaced: false });
      });
    });
  }

  private receive(message: Exclude<FromThread, { type: 'ready' | 'failed' }>): void {
    if (message.type === 'report') {
      this.events.report(fromWire(message.error), message.context);
      return;
    }
    const waiting = this.waiting.get(message.id);
    if (!waiting) return;
    this.waiting.delete(message.id);
    if (message.type === 'reply') waiting.resolve(message.value);
    else waiting.reject(fromWire(message.error as WireError));
  }

  private rejectOwed(error: Error): void {
    const owed = [...this.waiting.values()];
    this.waiting.clear();
    this.outbox = [];
    for (const waiting of owed) waiting.reject(error);
  }

  /** The thread died: everything it owed fails, and a new thread takes over unless it keeps dying. */
  private lost(exitCode: number): void {
    const error = new StoreWriteError(
      this.closed
        ? 'The history store is closed.'
        : `the store's ${this.config.role} thread stopped (exit code ${exitCode}); nothing it had not committed was kept`,
    );
    this.current = null;
    this.rejectOwed(error);
    if (this.closed) return;
    const at = Date.now();
    this.restarts = this.restarts.filter((t) => at - t < 60_000);
    const replaced = this.restarts.length < MAX_RESTARTS_PER_MINUTE;
    if (replaced) {
      this.restarts.push(at);
      this.spawn().catch((err: Error) => this.events.report(err, 'store thread'));
    } else {
      this.failure = new StoreWriteError(
        `the store's ${this.config.role} thread keeps stopping; the store gave up on it`,
      );
    }
    this.events.died({ role: this.config.role, exitCode, replaced });
  }
}
