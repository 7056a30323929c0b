// A session's updates on their way to the people watching it. What an update changes that a request
// or the mode guard reads (its tool call's state, the agent's mode) is applied as it is read, never
// here; what this lane holds is only what a person is shown (the transcript, the bus), so a request
// read behind a flood of updates is not held behind their display, and a flood costs the core what it
// chooses to spend on it.

import { isRecord, stringField } from '../safety/text';

/** The tool call a `tool_call` update, a `tool_call_update` or a request's tool call names. */
export function toolCallIdOf(value: unknown): string | undefined {
  return isRecord(value) ? stringField(value, 'toolCallId') : undefined;
}

/** The tool call a permission request's raw params name (read before they are validated). */
export function requestedToolCall(params: unknown): string | undefined {
  return isRecord(params) ? toolCallIdOf(params['toolCall']) : undefined;
}

/** The lane's bounds, in updates. */
export const UPDATE_LANE = {
  /**
   * Past this many updates waiting to be shown, the agent's output is not read (it waits in its
   * write) until the next turn, which drops all but the newest `tail` of them.
   */
  hold: 1_000,
  /** What is kept of a flood, and the most a request waits to have shown before it. */
  tail: 200,
  /** Shown per turn of the core's loop: every other session's messages are read between two. */
  slice: 100,
} as const;

/** A flood: from the first time the agent's output was held until everything read was shown. */
export interface Flood {
  /** Updates read while it lasted. */
  updates: number;
  /** Of those, dropped unshown: the oldest of a backlog past its bound, or in a request's way. */
  dropped: number;
  /** Times reading stopped. */
  holds: number;
}

export interface UpdateLaneDeps {
  /** Shows updates, in the order they were read. */
  show(updates: readonly unknown[]): void;
  /** The flood under way has dropped `total` updates so far (said where the first were dropped). */
  dropped(total: number): void;
  /** The agent's output outran what is shown: reading stopped for the first time in this flood. */
  floodStarted(): void;
  /** Everything read was shown (or the session ended): the flood is over. */
  floodEnded(flood: Flood): void;
  /** Stops (true) or resumes (false) reading the agent's output. */
  hold(on: boolean): void;
  /** The tool call an update is about, if any: a request shows its own call's updates first. */
  toolCallOf(update: unknown): string | undefined;
}

export type UpdateLaneBounds = { [K in keyof typeof UPDATE_LANE]: number };

export class UpdateLane {
  private queue: unknown[] = [];
  private held = false;
  private flood: Flood | null = null;
  private turn: NodeJS.Immediate | null = null;
  private closed = false;

  constructor(
    private readonly deps: UpdateLaneDeps,
    private readonly bounds: UpdateLaneBounds = UPDATE_LANE,
  ) {}

  /** Updates read and not yet shown. */
  get waiting(): number {
    return this.queue.length;
  }

  /** One update, as read (its state already applied). */
  push(update: unknown): void {
    if (this.closed) return;
    this.queue.push(update);
    if (this.flood) this.flood.updates += 1;
    if (this.queue.length > this.bounds.hold && !this.held) {
      this.held = true;
      this.started().holds += 1;
      this.deps.hold(true);
    }
    this.schedule();
  }

  /**
   * A request was read: the updates of its tool call read before it are shown first, with what was
   * read between them (in order, so what the person reads keeps the agent's order), but never more
   * than `tail` of them; anything older in their way is dropped and counted. Later updates wait: the
   * request goes ahead of them.
   */
  beforeRequest(toolCallId: string | undefined): void {
    if (this.closed || toolCallId === undefined) return;
    let last = -1;
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.deps.toolCallOf(this.queue[i]) === toolCallId) {
        last = i;
        break;
      }
    }
    if (last < 0) return;
    const ahead = last + 1;
    if (ahead > this.bounds.tail) this.drop(ahead - this.bounds.tail);
    this.show(Math.min(ahead, this.bounds.tail));
    this.settle();
  }

  /**
   * The agent answered a turn: what it sent before its answer is shown now, so the turn's end is
   * heard after everything said in it (bounded: a held agent has sent no more than its bound).
   */
  flush(): void {
    if (this.closed) return;
    this.show(this.queue.length);
    this.settle();
  }

  /** The session ended: what was read is shown, the flood (if one was under way) ends. */
  close(): void {
    if (this.closed) return;
    if (this.turn) clearImmediate(this.turn);
    this.turn = null;
    this.show(this.queue.length);
    this.settle();
    this.closed = true;
  }

  private schedule(): void {
    if (this.turn || this.closed) return;
    this.turn = setImmediate(() => {
      this.turn = null;
      // The agent sends faster than it is shown: what a person would read is its newest updates.
      if (this.queue.length > this.bounds.hold) this.drop(this.queue.length - this.bounds.tail);
      this.show(this.bounds.slice);
      this.settle();
      if (this.queue.length > 0) this.schedule();
    });
  }

  private show(count: number): void {
    if (count <= 0 || this.queue.length === 0) return;
    this.deps.show(this.queue.splice(0, count));
  }

  private drop(count: number): void {
    // A burst that never held reading is a flood too once something of it is dropped.
    const flood = this.started();
    this.queue.splice(0, count);
    flood.dropped += count;
    this.deps.dropped(flood.dropped);
  }

  private started(): Flood {
    if (this.flood) return this.flood;
    // The updates already waiting belong to it: they are what outran the display.
    this.flood = { updates: this.queue.length, dropped: 0, holds: 0 };
    this.deps.floodStarted();
    return this.flood;
  }

  private settle(): void {
    if (this.held && this.queue.length <= this.bounds.tail) {
      this.held = false;
      this.deps.hold(false);
    }
    if (this.queue.length === 0 && this.flood) {
      const flood = this.flood;
      this.flood = null;
      this.deps.floodEnded(flood);
    }
  }
}
