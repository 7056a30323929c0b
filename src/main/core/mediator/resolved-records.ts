export interface ResolvedRecord {
  readonly sessionId: string;
  /** null when the request ended cancelled. */
  readonly resolvedOptionId: string | null;
}

/**
 * Recently resolved requests, bounded per session: a global FIFO would let one
 * busy session evict another's records and turn its late votes into
 * `unknown_request`. Each session's ids sit in a ring so eviction is O(1).
 */
export class ResolvedRecords {
  private readonly maxPerSession: number;
  private readonly byId = new Map<string, ResolvedRecord>();
  private readonly bySession = new Map<string, { ids: string[]; head: number }>();

  constructor(maxPerSession: number) {
    this.maxPerSession = maxPerSession;
  }

  get size(): number {
    return this.byId.size;
  }

  get sessionCount(): number {
    return this.bySession.size;
  }

  get(requestId: string): ResolvedRecord | undefined {
    return this.byId.get(requestId);
  }

  has(requestId: string): boolean {
    return this.byId.has(requestId);
  }

  /** Caller guarantees `requestId` is not already recorded (the mediator refuses duplicates). */
  add(requestId: string, sessionId: string, resolvedOptionId: string | null): void {
    let ring = this.bySession.get(sessionId);
    if (ring === undefined) {
      ring = { ids: [], head: 0 };
      this.bySession.set(sessionId, ring);
    }
    if (ring.ids.length < this.maxPerSession) {
      ring.ids.push(requestId);
    } else {
      const evicted = ring.ids[ring.head];
      if (evicted !== undefined) this.byId.delete(evicted);
      ring.ids[ring.head] = requestId;
      ring.head = (ring.head + 1) % this.maxPerSession;
    }
    this.byId.set(requestId, { sessionId, resolvedOptionId });
  }

  forgetSession(sessionId: string): void {
    const ring = this.bySession.get(sessionId);
    if (ring === undefined) return;
    for (const id of ring.ids) this.byId.delete(id);
    this.bySession.delete(sessionId);
  }
}
