import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DuplicatePermissionRequestError,
  InvalidPolicyConfigError,
  MAX_PERMISSION_TIMEOUT_MS,
  MultiClientPermissionMediator,
  type PermissionPolicy,
} from '.';
import { makeHarness, proven, record, state, vote } from './harness.test-support';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('N1: the timeout is armed synchronously inside request()', () => {
  it('a timer exists as soon as request() returns', () => {
    const h = makeHarness();
    void h.request(record(), 60_000);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('forgetSession right after request() resolves session_closed and leaves no timer behind', async () => {
    const h = makeHarness();
    const p = h.request(record(), 60_000);
    h.mediator.forgetSession('s1');
    await expect(p).resolves.toEqual({ kind: 'cancelled', reason: 'session_closed' });
    expect(vi.getTimerCount()).toBe(0);
    expect((await h.decisions())[0]).toMatchObject({ reason: 'session-closed' });
  });

  it('a forgetSession re-entered from votersForSession cannot leave the request pending forever', async () => {
    const h = makeHarness('consensus', {
      votersForSession: (sessionId) => {
        h.mediator.forgetSession(sessionId);
        return ['a', 'b', 'c'];
      },
    });
    const p = h.request(record(), 5_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await state(p)).toEqual({ kind: 'cancelled', reason: 'timeout' });
  });

  it('a request() for the same id re-entered from votersForSession makes the outer one throw', async () => {
    const r = record();
    let inner: ReturnType<typeof h.request> | undefined;
    let reentered = false;
    const h = makeHarness('consensus', {
      votersForSession: () => {
        if (!reentered) {
          reentered = true;
          inner = h.request(r, 5_000);
        }
        return ['a', 'b', 'c'];
      },
    });
    expect(() => h.request(r, 5_000)).toThrow(DuplicatePermissionRequestError);
    // The inner request is the one pending, and it still ends.
    expect(h.mediator.pendingCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await state(inner!)).toEqual({ kind: 'cancelled', reason: 'timeout' });
  });

  it('injected setTimer/clearTimer are used instead of the globals', async () => {
    const timers = new Map<number, () => void>();
    let next = 0;
    const h = makeHarness('first-responder', {
      setTimer: (callback) => {
        timers.set(++next, callback);
        return next;
      },
      clearTimer: (handle) => timers.delete(handle as number),
    });
    const p = h.request(record(), 60_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(timers.size).toBe(1);
    [...timers.values()][0]?.();
    await expect(p).resolves.toEqual({ kind: 'cancelled', reason: 'timeout' });
  });
});

describe('timeouts', () => {
  it('an unanswered request resolves cancelled{timeout} at its deadline, audited as timeout', async () => {
    const h = makeHarness();
    const p = h.request(record(), 10_000);
    vi.advanceTimersByTime(9_999);
    expect(await state(p)).toBe('pending');
    vi.advanceTimersByTime(1);
    expect(await state(p)).toEqual({ kind: 'cancelled', reason: 'timeout' });
    expect((await h.decisions())[0]).toMatchObject({ reason: 'timeout', votes: [] });
    expect(h.eventsOfType('permission_resolved')).toHaveLength(1);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 0, -5])(
    'a non-finite or non-positive timeout (%s) becomes the 300 000 ms default',
    (timeoutMs) => {
      const h = makeHarness();
      const r = record();
      void h.request(r, timeoutMs);
      expect(h.mediator.expiresAt(r.requestId)).toBe(Date.now() + 300_000);
    },
  );

  it('a timeout below 100 ms is raised to 100 ms', async () => {
    const h = makeHarness();
    const p = h.request(record(), 1);
    vi.advanceTimersByTime(99);
    expect(await state(p)).toBe('pending');
    vi.advanceTimersByTime(1);
    expect(await state(p)).toMatchObject({ reason: 'timeout' });
  });

  it('a timeout past 24 h is capped at 24 h instead of overflowing setTimeout and firing at once', async () => {
    const h = makeHarness();
    const r = record();
    const p = h.request(r, 2 ** 31 + 10);
    expect(h.mediator.expiresAt(r.requestId)).toBe(Date.now() + MAX_PERMISSION_TIMEOUT_MS);
    vi.advanceTimersByTime(10);
    expect(await state(p)).toBe('pending');
    vi.advanceTimersByTime(MAX_PERMISSION_TIMEOUT_MS);
    expect(await state(p)).toMatchObject({ reason: 'timeout' });
  });

  it('expiresAt is null for unknown and resolved requests', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 1_000);
    h.mediator.vote(vote(r.requestId, 'allow'));
    expect(h.mediator.expiresAt(r.requestId)).toBeNull();
    expect(h.mediator.expiresAt('nope')).toBeNull();
  });
});

describe('extendTimeout', () => {
  it('moves the deadline back and the old deadline no longer fires', async () => {
    const h = makeHarness();
    const r = record();
    const p = h.request(r, 10_000);
    const start = Date.now();
    vi.advanceTimersByTime(4_000);
    expect(h.mediator.extendTimeout(r.requestId, 30_000)).toBe(start + 40_000);
    expect(h.mediator.expiresAt(r.requestId)).toBe(start + 40_000);
    vi.advanceTimersByTime(35_999);
    expect(await state(p)).toBe('pending');
    vi.advanceTimersByTime(1);
    expect(await state(p)).toMatchObject({ reason: 'timeout' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clamps the extension like a request timeout and never goes past 24 h from now', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 10_000);
    const now = Date.now();
    expect(h.mediator.extendTimeout(r.requestId, 1)).toBe(now + 10_100);
    expect(h.mediator.extendTimeout(r.requestId, Number.NaN)).toBe(now + 310_100);
    expect(h.mediator.extendTimeout(r.requestId, 2 ** 40)).toBe(now + MAX_PERMISSION_TIMEOUT_MS);
    expect(h.mediator.extendTimeout(r.requestId, 60_000)).toBe(now + MAX_PERMISSION_TIMEOUT_MS);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('tells every client of the session the new deadline', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 10_000);
    const expiresAtMs = h.mediator.extendTimeout(r.requestId, 5_000);
    expect(h.eventsOfType('permission_timeout_extended')).toEqual([
      expect.objectContaining({ requestId: r.requestId, sessionId: 's1', expiresAtMs }),
    ]);
  });

  it('returns null for requests that are not pending', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 10_000);
    h.mediator.vote(vote(r.requestId, 'allow'));
    expect(h.mediator.extendTimeout(r.requestId, 5_000)).toBeNull();
    expect(h.mediator.extendTimeout('nope', 5_000)).toBeNull();
  });
});

describe('policy captured per request', () => {
  it('defaults to the constructor policy, exposed as .policy', async () => {
    const h = makeHarness('local-only');
    expect(h.mediator.policy).toBe('local-only');
    const r = record();
    void h.request(r, 10_000);
    expect(h.mediator.vote(vote(r.requestId, 'allow', { fromLoopback: false }))).toMatchObject({
      reason: 'remote_not_allowed',
    });
  });

  it('a per-request policy override governs that request only', async () => {
    const h = makeHarness('first-responder');
    h.voters.set('s1', ['a', 'b', 'c']);
    const strict = record({ originatorClientId: 'a' });
    const open = record();
    const strictP = h.request(strict, 10_000, { policy: 'designated' });
    const openP = h.request(open, 10_000);

    expect(h.mediator.vote(vote(strict.requestId, 'allow', { clientId: 'b' }))).toMatchObject({
      kind: 'forbidden',
    });
    expect(h.mediator.vote(vote(open.requestId, 'allow', { clientId: 'b' }))).toMatchObject({
      kind: 'resolved',
    });
    expect(await state(strictP)).toBe('pending');
    expect(await openP).toMatchObject({ decidedBy: { reason: 'first-responder' } });
  });

  it('the override is validated: an unknown policy throws InvalidPolicyConfigError synchronously', () => {
    const h = makeHarness();
    expect(() => h.request(record(), 10_000, { policy: 'majority' as PermissionPolicy })).toThrow(
      InvalidPolicyConfigError,
    );
    expect(() => h.request(record(), 10_000, { consensusQuorum: 0 })).toThrow(
      InvalidPolicyConfigError,
    );
    expect(h.mediator.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the constructor validates its policy, quorum and record bound', () => {
    const deps = { emit: () => {}, lateVote: () => {}, votersForSession: () => [] };
    expect(() => new MultiClientPermissionMediator('anyone' as PermissionPolicy, deps)).toThrow(
      InvalidPolicyConfigError,
    );
    expect(
      () => new MultiClientPermissionMediator('consensus', { ...deps, consensusQuorum: 1.5 }),
    ).toThrow(InvalidPolicyConfigError);
    expect(
      () => new MultiClientPermissionMediator('consensus', { ...deps, maxResolvedPerSession: 0 }),
    ).toThrow(RangeError);
  });
});

describe('duplicate request ids', () => {
  it('a pending duplicate is refused synchronously and the original still resolves normally', async () => {
    const h = makeHarness();
    const r = record();
    const original = h.request(r, 10_000);

    expect(() => h.request({ ...r, allowedOptionIds: ['evil'] }, 10_000)).toThrow(
      DuplicatePermissionRequestError,
    );
    expect(h.mediator.pendingCount()).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    expect(h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'a' }))).toMatchObject({
      kind: 'resolved',
    });
    await expect(original).resolves.toMatchObject({ kind: 'option', optionId: 'allow' });
  });

  it('an id still in the resolved record is refused, even from another session', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 10_000);
    h.mediator.vote(vote(r.requestId, 'allow'));
    expect(() => h.request(r, 10_000)).toThrow(DuplicatePermissionRequestError);
    expect(() => h.request({ ...r, sessionId: 's2' }, 10_000)).toThrow(
      DuplicatePermissionRequestError,
    );
    expect(h.mediator.vote(vote(r.requestId, 'reject'))).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: 'allow',
    });
  });

  it('a forgotten session frees its ids for reuse', async () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 10_000);
    h.mediator.forgetSession('s1');
    const again = h.request(r, 10_000);
    h.mediator.vote(vote(r.requestId, 'reject'));
    await expect(again).resolves.toMatchObject({ optionId: 'reject' });
  });
});

describe('forgetSession', () => {
  it('cancels every pending request of the session as session_closed and no other session', async () => {
    const h = makeHarness();
    const a1 = h.request(record(), 10_000);
    const a2 = h.request(record(), 10_000);
    const b = h.request(record({ sessionId: 's2' }), 10_000);

    h.mediator.forgetSession('s1');
    await expect(a1).resolves.toEqual({ kind: 'cancelled', reason: 'session_closed' });
    await expect(a2).resolves.toEqual({ kind: 'cancelled', reason: 'session_closed' });
    expect(await state(b)).toBe('pending');
    expect(h.mediator.pendingCount('s1')).toBe(0);
    expect(h.mediator.pendingCount('s2')).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('drops the session resolved records, so later votes are unknown_request', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 10_000);
    h.mediator.vote(vote(r.requestId, 'allow'));
    h.mediator.forgetSession('s1');
    expect(h.mediator.vote(vote(r.requestId, 'allow'))).toEqual({ kind: 'unknown_request' });
    expect(h.mediator.peekSessionFor(r.requestId)).toBeUndefined();
  });

  it('is a no-op for an unknown session', async () => {
    const h = makeHarness();
    expect(() => h.mediator.forgetSession('ghost')).not.toThrow();
    expect(h.lateVotes).toEqual([]);
    expect(await h.decisions()).toEqual([]);
  });
});

describe('cancelForPrompt', () => {
  it('cancels only the requests of that prompt as agent_cancelled', async () => {
    const h = makeHarness();
    const p1 = h.request(record({ promptId: 'turn-1' }), 10_000);
    const p2 = h.request(record({ promptId: 'turn-2' }), 10_000);
    const other = h.request(record({ sessionId: 's2', promptId: 'turn-1' }), 10_000);

    expect(h.mediator.cancelForPrompt('s1', 'turn-1')).toBe(1);
    await expect(p1).resolves.toEqual({ kind: 'cancelled', reason: 'agent_cancelled' });
    expect(await state(p2)).toBe('pending');
    expect(await state(other)).toBe('pending');
    expect((await h.decisions())[0]).toMatchObject({
      reason: 'agent-cancelled',
      promptId: 'turn-1',
    });
  });

  it('without a promptId cancels every pending request of the session', async () => {
    const h = makeHarness();
    const p1 = h.request(record({ promptId: 'turn-1' }), 10_000);
    const p2 = h.request(record(), 10_000);
    const other = h.request(record({ sessionId: 's2' }), 10_000);

    expect(h.mediator.cancelForPrompt('s1')).toBe(2);
    await expect(p1).resolves.toMatchObject({ reason: 'agent_cancelled' });
    await expect(p2).resolves.toMatchObject({ reason: 'agent_cancelled' });
    expect(await state(other)).toBe('pending');
    expect(h.mediator.cancelForPrompt('nobody')).toBe(0);
  });
});

describe('withdraw', () => {
  it('ends one pending request as withdrawn, clears its timer, and answers later votes', async () => {
    const h = makeHarness();
    const r = record();
    const p = h.request(r, 10_000);
    const other = h.request(record(), 10_000);

    expect(h.mediator.withdraw(r.requestId)).toBe(true);
    await expect(p).resolves.toEqual({ kind: 'cancelled', reason: 'withdrawn' });
    expect((await h.decisions())[0]).toMatchObject({ reason: 'withdrawn' });
    expect(await state(other)).toBe('pending');
    expect(h.mediator.vote(vote(r.requestId, 'allow'))).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: null,
    });
  });

  it('is false once the request has ended: a vote that came first wins', async () => {
    const h = makeHarness();
    const r = record();
    const p = h.request(r, 10_000);
    expect(h.mediator.vote(vote(r.requestId, 'allow'))).toMatchObject({ kind: 'resolved' });
    expect(h.mediator.withdraw(r.requestId)).toBe(false);
    expect(h.mediator.withdraw('never-issued')).toBe(false);
    await expect(p).resolves.toMatchObject({ kind: 'option', optionId: 'allow' });
  });
});

describe('lookups', () => {
  it('peekSessionFor finds pending and remembered resolved requests', () => {
    const h = makeHarness();
    const pending = record({ sessionId: 'sA' });
    const done = record({ sessionId: 'sB' });
    void h.request(pending, 10_000);
    void h.request(done, 10_000);
    h.mediator.vote(vote(done.requestId, 'allow'));
    expect(h.mediator.peekSessionFor(pending.requestId)).toBe('sA');
    expect(h.mediator.peekSessionFor(done.requestId)).toBe('sB');
    expect(h.mediator.peekSessionFor('nope')).toBeUndefined();
  });

  it('pendingCount counts all or one session', () => {
    const h = makeHarness();
    void h.request(record(), 10_000);
    void h.request(record(), 10_000);
    void h.request(record({ sessionId: 's2' }), 10_000);
    expect(h.mediator.pendingCount()).toBe(3);
    expect(h.mediator.pendingCount('s1')).toBe(2);
    expect(h.mediator.pendingCount('s3')).toBe(0);
  });

  it('a vote naming another session than the request is unknown_request and changes nothing', async () => {
    const h = makeHarness();
    const r = record();
    const p = h.request(r, 10_000);
    expect(h.mediator.vote(vote(r.requestId, 'allow', { sessionId: 's2' }))).toEqual({
      kind: 'unknown_request',
    });
    expect(await state(p)).toBe('pending');
    expect(h.mediator.vote(vote(r.requestId, 'allow', { sessionId: 's1' }))).toMatchObject({
      kind: 'resolved',
    });
    expect(h.mediator.vote(vote(r.requestId, 'allow', { sessionId: 's2' }))).toEqual({
      kind: 'unknown_request',
    });
  });

  it('a vote for an id never issued is unknown_request', () => {
    const h = makeHarness();
    expect(h.mediator.vote(proven('never', 'allow', 'a'))).toEqual({ kind: 'unknown_request' });
    expect(h.lateVotes).toEqual([]);
  });
});
