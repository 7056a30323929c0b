import { describe, expect, it } from 'vitest';
import { UPDATE_LANE, UpdateLane, type Flood, type UpdateLaneBounds } from './update-lane';

interface Update {
  n: number;
  toolCallId?: string;
}

/** A lane whose effects are recorded in order. */
function lane(bounds: UpdateLaneBounds = UPDATE_LANE) {
  const shown: number[] = [];
  const log: string[] = [];
  const floods: Flood[] = [];
  const updates = new UpdateLane(
    {
      show: (batch) => shown.push(...(batch as Update[]).map((u) => u.n)),
      dropped: (total) => log.push(`dropped ${total}`),
      floodStarted: () => log.push('flood'),
      floodEnded: (flood) => floods.push(flood),
      hold: (on) => log.push(on ? 'hold' : 'resume'),
      toolCallOf: (u) => (u as Update).toolCallId,
    },
    bounds,
  );
  return { updates, shown, log, floods };
}

/** Every turn of the loop the lane has scheduled, until it has nothing left to show. */
async function drained(updates: UpdateLane): Promise<void> {
  while (updates.waiting > 0) await new Promise((r) => setImmediate(r));
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('a session update lane', () => {
  it('shows what is read in order, a slice per turn, without holding a session that keeps up', async () => {
    const { updates, shown, log, floods } = lane();
    for (const n of range(0, 250)) updates.push({ n });
    expect(shown).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(shown).toEqual(range(0, UPDATE_LANE.slice));
    await drained(updates);
    expect(shown).toEqual(range(0, 250));
    expect(log).toEqual([]);
    expect(floods).toEqual([]);
  });

  it("stops reading the agent's output past its bound, and keeps the newest of what waits", async () => {
    const { updates, shown, log, floods } = lane();
    for (const n of range(0, UPDATE_LANE.hold)) updates.push({ n });
    expect(log).toEqual([]);
    updates.push({ n: UPDATE_LANE.hold });
    updates.push({ n: UPDATE_LANE.hold + 1 });
    expect(log).toEqual(['flood', 'hold']);
    // The next turn drops all but the newest tail, shows a slice of it and reads again.
    await new Promise((r) => setImmediate(r));
    const dropped = UPDATE_LANE.hold + 2 - UPDATE_LANE.tail;
    expect(log).toEqual(['flood', 'hold', `dropped ${dropped}`, 'resume']);
    expect(shown).toEqual(range(dropped, dropped + UPDATE_LANE.slice));
    await drained(updates);
    expect(shown).toEqual(range(dropped, UPDATE_LANE.hold + 2));
    // The flood is told once, when it is over.
    expect(floods).toEqual([{ updates: UPDATE_LANE.hold + 2, dropped, holds: 1 }]);
  });

  it('never drops what a session that keeps up sends in a burst below its bound', async () => {
    const { updates, shown, log } = lane();
    for (const n of range(0, UPDATE_LANE.hold)) updates.push({ n });
    await drained(updates);
    expect(shown).toEqual(range(0, UPDATE_LANE.hold));
    expect(log).toEqual([]);
  });

  it("shows a request's own tool call first, at most a tail of what is in its way, and drops what is older", async () => {
    const { updates, shown, log, floods } = lane();
    for (const n of range(0, 900)) updates.push({ n, ...(n % 2 ? { toolCallId: 'w' } : {}) });
    for (const n of range(900, 950)) updates.push({ n });
    updates.beforeRequest('w');
    // 0..899 were in the request's way (its call's last update is 899): 700 dropped, 200 shown.
    expect(shown).toEqual(range(700, 900));
    expect(log).toEqual(['flood', 'dropped 700']);
    // What came after its call's last update waits: the request went ahead of it.
    expect(updates.waiting).toBe(50);
    await drained(updates);
    expect(shown).toEqual(range(700, 950));
    expect(floods).toEqual([{ updates: 950, dropped: 700, holds: 0 }]);
  });

  it('shows nothing ahead of a request whose tool call has no update waiting', () => {
    const { updates, shown, log } = lane();
    for (const n of range(0, 10)) updates.push({ n, toolCallId: 'other' });
    updates.beforeRequest('w');
    updates.beforeRequest(undefined);
    expect(shown).toEqual([]);
    expect(log).toEqual([]);
    expect(updates.waiting).toBe(10);
  });

  it('counts every drop of one flood in one running total, and a new flood starts again', async () => {
    const { updates, log, floods } = lane({ ...UPDATE_LANE, tail: 10 });
    for (const n of range(0, 30)) updates.push({ n, toolCallId: 'a' });
    for (const n of range(30, 35)) updates.push({ n });
    updates.beforeRequest('a');
    for (const n of range(35, 65)) updates.push({ n, toolCallId: 'b' });
    updates.beforeRequest('b');
    // 20 before a's tail, then the 5 that waited and 20 of b's 30.
    expect(log).toEqual(['flood', 'dropped 20', 'dropped 45']);
    await drained(updates);
    expect(floods).toEqual([{ updates: 65, dropped: 45, holds: 0 }]);
    for (const n of range(65, 85)) updates.push({ n, toolCallId: 'c' });
    updates.beforeRequest('c');
    expect(log.slice(3)).toEqual(['flood', 'dropped 10']);
  });

  it("shows everything read before a turn's answer at once, so the turn ends after what it said", () => {
    const { updates, shown, log } = lane();
    for (const n of range(0, 300)) updates.push({ n });
    updates.flush();
    expect(shown).toEqual(range(0, 300));
    expect(updates.waiting).toBe(0);
    expect(log).toEqual([]);
  });

  it('shows what is left when the session ends, releases a held agent and ends its flood', () => {
    const { updates, shown, log, floods } = lane();
    for (const n of range(0, UPDATE_LANE.hold + 1)) updates.push({ n });
    updates.close();
    expect(shown).toEqual(range(0, UPDATE_LANE.hold + 1));
    expect(log).toEqual(['flood', 'hold', 'resume']);
    expect(floods).toEqual([{ updates: UPDATE_LANE.hold + 1, dropped: 0, holds: 1 }]);
    updates.push({ n: -1 });
    expect(updates.waiting).toBe(0);
  });
});
