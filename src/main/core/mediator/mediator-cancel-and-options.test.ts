import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  assertWireOptionId,
  CANCEL_VOTE_SENTINEL,
  CancelSentinelCollisionError,
  InvalidPermissionOptionError,
  SUPPORTED_POLICIES,
} from '.';
import { makeHarness, proven, record, state, vote } from './harness.test-support';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('cancel sentinel', () => {
  it.each(SUPPORTED_POLICIES)(
    'routes before policy dispatch: under %s an anonymous remote unproven non-voter can cancel',
    async (policy) => {
      const h = makeHarness(policy);
      h.voters.set('s1', ['a', 'b', 'c']);
      const r = record({ originatorClientId: 'a' });
      const p = h.request(r, 60_000);

      expect(
        h.mediator.vote(vote(r.requestId, CANCEL_VOTE_SENTINEL, { fromLoopback: false })),
      ).toEqual({
        kind: 'cancelled',
        reason: 'voter_cancelled',
      });
      await expect(p).resolves.toEqual({ kind: 'cancelled', reason: 'voter_cancelled' });
      expect(h.eventsOfType('permission_forbidden')).toEqual([]);
    },
  );

  it('names the cancelling client in the resolution and audits it as voter-cancelled', async () => {
    const h = makeHarness('consensus');
    h.voters.set('s1', ['a', 'b', 'c']);
    const r = record();
    const p = h.request(r, 60_000);
    h.mediator.vote(proven(r.requestId, 'allow', 'a'));
    h.mediator.vote(vote(r.requestId, CANCEL_VOTE_SENTINEL, { clientId: 'zed' }));

    await expect(p).resolves.toEqual({
      kind: 'cancelled',
      reason: 'voter_cancelled',
      clientId: 'zed',
    });
    expect((await h.decisions())[0]).toMatchObject({
      reason: 'voter-cancelled',
      votes: [
        { clientId: 'a', optionId: 'allow' },
        { clientId: 'zed', optionId: CANCEL_VOTE_SENTINEL },
      ],
    });
    expect(h.mediator.vote(proven(r.requestId, 'allow', 'b'))).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: null,
    });
  });

  it('request() throws CancelSentinelCollisionError when the agent offers the sentinel as an option', () => {
    const h = makeHarness();
    const r = record({ allowedOptionIds: ['allow', CANCEL_VOTE_SENTINEL] });
    expect(() => h.request(r, 60_000)).toThrow(CancelSentinelCollisionError);
    expect(h.mediator.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(h.mediator.vote(vote(r.requestId, 'allow'))).toEqual({ kind: 'unknown_request' });
  });

  it('assertWireOptionId refuses the sentinel (and non-strings) so a wire client cannot forge a cancel', () => {
    expect(() => assertWireOptionId(CANCEL_VOTE_SENTINEL)).toThrow(InvalidPermissionOptionError);
    expect(() => assertWireOptionId('')).toThrow(InvalidPermissionOptionError);
    expect(() => assertWireOptionId(42)).toThrow(InvalidPermissionOptionError);
    expect(() => assertWireOptionId('allow')).not.toThrow();
  });
});

describe('option validation', () => {
  it.each(SUPPORTED_POLICIES)(
    'under %s a vote for an option the agent did not offer throws InvalidPermissionOptionError and changes nothing',
    async (policy) => {
      const h = makeHarness(policy);
      h.voters.set('s1', ['a', 'b', 'c']);
      const r = record({ originatorClientId: 'a' });
      const p = h.request(r, 60_000);
      const before = h.mediator.progress(r.requestId);

      expect(() =>
        h.mediator.vote(proven(r.requestId, 'sudo-everything', 'a', { fromLoopback: true })),
      ).toThrow(InvalidPermissionOptionError);
      expect(await state(p)).toBe('pending');
      expect(h.events).toEqual([]);
      expect(h.lateVotes).toEqual([]);
      expect(await h.decisions()).toEqual([]);
      expect(h.mediator.progress(r.requestId)).toEqual(before);

      // The voter can still vote properly afterwards.
      expect(
        h.mediator.vote(proven(r.requestId, 'allow', 'a', { fromLoopback: true })),
      ).not.toMatchObject({
        kind: 'forbidden',
      });
    },
  );

  it('the error carries the option and request for the server to report', () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 60_000);
    let caught: unknown;
    try {
      h.mediator.vote(vote(r.requestId, 'nope'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidPermissionOptionError);
    expect(caught).toMatchObject({
      optionId: 'nope',
      requestId: r.requestId,
      code: 'invalid_permission_option',
    });
  });
});
