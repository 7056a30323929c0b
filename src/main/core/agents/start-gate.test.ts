import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StartGate } from './start-gate';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('StartGate', () => {
  it('lets `width` starts in at once; the next enters when one leaves, in order', async () => {
    const gate = new StartGate(2, 60_000);
    const first = await gate.enter();
    await gate.enter();
    const third = gate.enter();
    const fourth = gate.enter();
    expect(await settled(third)).toBe(false);
    first();
    expect(await settled(third)).toBe(true);
    expect(await settled(fourth)).toBe(false);
  });

  it('a second leave of the same start frees no second slot', async () => {
    const gate = new StartGate(1, 60_000);
    const leave = await gate.enter();
    const second = gate.enter();
    const third = gate.enter();
    leave();
    leave();
    expect(await settled(second)).toBe(true);
    expect(await settled(third)).toBe(false);
  });

  it('a start that never leaves gives its slot up after holdMs', async () => {
    const gate = new StartGate(1, 3000);
    await gate.enter();
    const next = gate.enter();
    await vi.advanceTimersByTimeAsync(2999);
    expect(await settled(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(next)).toBe(true);
  });
});
