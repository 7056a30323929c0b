import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_RESOLVED_PERMISSION_RECORDS } from '.';
import { makeHarness, record, vote } from './harness.test-support';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('resolved records', () => {
  it('a duplicate vote after resolution gets already_resolved, not unknown_request', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 10_000);
    h.mediator.vote(vote(r.requestId, 'reject'));
    expect(h.mediator.vote(vote(r.requestId, 'reject'))).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: 'reject',
    });
  });

  it('already_resolved carries null when the request ended cancelled', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 100);
    vi.advanceTimersByTime(100);
    expect(h.mediator.vote(vote(r.requestId, 'allow'))).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: null,
    });
  });

  it('late votes are audited but never re-broadcast through emit', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 10_000);
    h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'first' }));
    const emitted = h.events.length;

    h.mediator.vote(vote(r.requestId, 'reject', { clientId: 'late', receivedAtMs: 9_999 }));
    expect(h.events.length).toBe(emitted);
    expect(h.lateVotes.at(-1)).toEqual({
      requestId: r.requestId,
      sessionId: 's1',
      resolvedOptionId: 'allow',
      clientId: 'late',
      optionId: 'reject',
      fromLoopback: false,
      identityProven: false,
      receivedAtMs: 9_999,
    });
  });

  it(`keeps ${MAX_RESOLVED_PERMISSION_RECORDS} records per session by default, evicting the oldest first`, () => {
    const h = makeHarness();
    const ids: string[] = [];
    for (let i = 0; i < MAX_RESOLVED_PERMISSION_RECORDS + 10; i++) {
      const r = record();
      ids.push(r.requestId);
      void h.request(r, 10_000);
      h.mediator.vote(vote(r.requestId, 'allow'));
    }
    const outcomes = ids.map((id) => h.mediator.vote(vote(id, 'allow')).kind);
    expect(outcomes.slice(0, 10)).toEqual(Array(10).fill('unknown_request'));
    expect(new Set(outcomes.slice(10))).toEqual(new Set(['already_resolved']));
  });

  it('the bound is per session: a busy session cannot evict another session record', () => {
    const h = makeHarness('first-responder', { maxResolvedPerSession: 3 });
    const quiet = record({ sessionId: 'quiet' });
    void h.request(quiet, 10_000);
    h.mediator.vote(vote(quiet.requestId, 'reject'));

    const busy: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = record({ sessionId: 'busy' });
      busy.push(r.requestId);
      void h.request(r, 10_000);
      h.mediator.vote(vote(r.requestId, 'allow'));
    }
    expect(h.mediator.vote(vote(quiet.requestId, 'allow'))).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: 'reject',
    });
    expect(busy.filter((id) => h.mediator.peekSessionFor(id) !== undefined)).toEqual(
      busy.slice(-3),
    );
  });

  it('memory stays flat: 100k requests over 100 sessions remember exactly the bound per live session', () => {
    const h = makeHarness('first-responder', { lateVote: () => {}, emit: () => {} });
    const sessions = 100;
    const perSession = 1_000;
    const ids: string[] = [];
    for (let s = 0; s < sessions; s++) {
      const sessionId = `s-${s}`;
      for (let i = 0; i < perSession; i++) {
        const requestId = `${sessionId}-${i}`;
        ids.push(requestId);
        void h.mediator.request(
          { requestId, sessionId, allowedOptionIds: ['allow', 'reject'], issuedAtMs: 0 },
          10_000,
        );
        h.mediator.vote(vote(requestId, 'allow'));
      }
      if (s % 2 === 0) h.mediator.forgetSession(sessionId);
    }
    expect(ids.length).toBe(100_000);
    const remembered = () => ids.filter((id) => h.mediator.peekSessionFor(id) !== undefined).length;
    expect(remembered()).toBe((sessions / 2) * MAX_RESOLVED_PERMISSION_RECORDS);

    for (let s = 0; s < sessions; s++) h.mediator.forgetSession(`s-${s}`);
    expect(remembered()).toBe(0);
    expect(h.mediator.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
