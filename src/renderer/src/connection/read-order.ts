// A read of the core's state (a list, one request) and the events that change it travel on two
// connections: an answer can arrive after an event the core sent later than it served the read.
// Taken as it came, that answer would undo the event — a finished preview shown as running for
// good, a request that just arrived gone from the queue. So the page notes what events said while
// a read was out, and lays it over the answer.

/** Per item, what events said while a read was out: its latest fields, or null once removed. */
export type HeardSince<P> = ReadonlyMap<string, P | null>;

/** What events said while reads were out; nothing is kept once no read is out. */
export class ReadClock<P extends object> {
  private tick = 0;
  private readonly heard = new Map<string, { tick: number; patch: P | null }>();
  private readonly open = new Map<number, number>();

  /**
   * An event set these fields of the item `id` (values, not changes: the latest wins), or removed
   * it (`null`).
   */
  touch(id: string, patch: P | null): void {
    if (this.open.size === 0) return;
    const was = this.heard.get(id)?.patch;
    this.heard.set(id, {
      tick: ++this.tick,
      patch: patch === null ? null : ({ ...was, ...patch } as P),
    });
  }

  /** A read goes out now: the value to hand to `end` when its answer (or its failure) comes. */
  begin(): number {
    const at = this.tick;
    this.open.set(at, (this.open.get(at) ?? 0) + 1);
    return at;
  }

  /** The read that began at `at` is back: what events said of each item since it went out. */
  end(at: number): HeardSince<P> {
    const since = new Map<string, P | null>();
    for (const [id, { tick, patch }] of this.heard) if (tick > at) since.set(id, patch);
    const left = (this.open.get(at) ?? 1) - 1;
    if (left > 0) this.open.set(at, left);
    else this.open.delete(at);
    if (this.open.size === 0) this.heard.clear();
    return since;
  }
}

/**
 * A list as read, with what the page heard since the read went out laid over it: an item an event
 * removed stays gone, one it changed carries the fields the event set, and one it added after the
 * read was served is kept, at the end, as the page holds it.
 */
export function mergeRead<T extends { requestId: string }>(
  held: readonly T[],
  read: readonly T[],
  heard: HeardSince<Partial<T>>,
): T[] {
  if (heard.size === 0) return [...read];
  const listed = new Set(read.map((item) => item.requestId));
  const merged = read.flatMap((item) => {
    const patch = heard.get(item.requestId);
    if (patch === undefined) return [item];
    return patch === null ? [] : [{ ...item, ...patch }];
  });
  const added = held.filter((item) => !listed.has(item.requestId) && heard.get(item.requestId));
  return [...merged, ...added];
}
