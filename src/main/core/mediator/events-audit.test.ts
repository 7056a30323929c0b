import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CANCEL_VOTE_SENTINEL,
  MAX_AUDITED_FORBIDDEN_ATTEMPTS,
  SUPPORTED_POLICIES,
  type PermissionMediatorEvent,
  type PermissionResolution,
} from '.';
import { makeHarness, proven, record, state, vote } from './harness.test-support';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const boom = () => {
  throw new Error('listener down');
};

type Ending = (h: ReturnType<typeof makeHarness>, requestId: string) => void;
const endings: Array<[string, Ending, PermissionResolution['kind']]> = [
  ['a vote', (h, id) => void h.mediator.vote(vote(id, 'allow', { fromLoopback: true })), 'option'],
  ['a timeout', () => void vi.advanceTimersByTime(1_000), 'cancelled'],
  ['forgetSession', (h) => h.mediator.forgetSession('s1'), 'cancelled'],
  ['cancelForPrompt', (h) => void h.mediator.cancelForPrompt('s1'), 'cancelled'],
  ['a voter cancel', (h, id) => void h.mediator.vote(vote(id, CANCEL_VOTE_SENTINEL)), 'cancelled'],
];

describe('a throwing emit or lateVote never prevents resolution', () => {
  it.each(endings)(
    'emit throws, request ended by %s: the promise still resolves',
    async (_, end, kind) => {
      const reportError = vi.fn();
      const h = makeHarness('first-responder', { emit: boom, reportError });
      const r = record();
      const p = h.request(r, 1_000);
      end(h, r.requestId);
      expect(await state(p)).toMatchObject({ kind });
      expect(reportError).toHaveBeenCalledWith(expect.any(Error), 'emit');
      expect(await h.decisions()).toHaveLength(1);
    },
  );

  it('lateVote throws: the late voter is still answered and the error reported', async () => {
    const reportError = vi.fn();
    const h = makeHarness('first-responder', { lateVote: boom, reportError });
    const r = record();
    const p = h.request(r, 1_000);
    h.mediator.vote(vote(r.requestId, 'allow'));
    expect(await state(p)).toMatchObject({ kind: 'option' });
    expect(h.mediator.vote(vote(r.requestId, 'reject'))).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: 'allow',
    });
    expect(reportError).toHaveBeenCalledWith(expect.any(Error), 'lateVote');
    expect(h.eventsOfType('permission_resolved')).toHaveLength(1);
  });

  it('even when emit, lateVote and the error reporter all throw, votes still answer and promises resolve', async () => {
    const h = makeHarness('consensus', { emit: boom, lateVote: boom, reportError: boom });
    h.voters.set('s1', ['a', 'b', 'c']);
    const r = record();
    const p = h.request(r, 1_000);
    expect(h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'a' }))).toMatchObject({
      kind: 'forbidden',
    });
    expect(h.mediator.vote(proven(r.requestId, 'allow', 'a'))).toMatchObject({ kind: 'recorded' });
    expect(h.mediator.vote(proven(r.requestId, 'allow', 'b'))).toMatchObject({ kind: 'resolved' });
    expect(h.mediator.vote(proven(r.requestId, 'allow', 'c'))).toMatchObject({
      kind: 'already_resolved',
    });
    await expect(p).resolves.toMatchObject({ optionId: 'allow' });
  });

  it('the default error reporter is console.error', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const h = makeHarness('first-responder', { emit: boom, reportError: undefined });
      const r = record();
      const p = h.request(r, 1_000);
      h.mediator.vote(vote(r.requestId, 'allow'));
      await p;
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('which policies emit which events', () => {
  it.each(SUPPORTED_POLICIES)(
    'under %s: partial votes only for consensus, forbidden for all but first-responder',
    (policy) => {
      const h = makeHarness(policy);
      h.voters.set('s1', ['a', 'b', 'c']);
      const r = record({ originatorClientId: 'a' });
      void h.request(r, 1_000);
      h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'b', fromLoopback: false }));
      h.mediator.vote(proven(r.requestId, 'allow', 'a', { fromLoopback: true }));
      h.mediator.vote(proven(r.requestId, 'allow', 'c', { fromLoopback: true }));

      const types = new Set(h.events.map((e) => e.event.type));
      expect(types.has('permission_partial_vote')).toBe(policy === 'consensus');
      expect(types.has('permission_forbidden')).toBe(policy !== 'first-responder');
      expect(h.eventsOfType('permission_resolved')).toHaveLength(1);
    },
  );
});

describe('listeners that re-enter the mediator', () => {
  it('a permission_resolved listener that votes again gets already_resolved', async () => {
    const seen: string[] = [];
    const h = makeHarness('first-responder', {
      emit: (_, event: PermissionMediatorEvent) => {
        if (event.type === 'permission_resolved') {
          seen.push(h.mediator.vote(vote(event.requestId, 'reject')).kind);
        }
      },
    });
    const r = record();
    const p = h.request(r, 1_000);
    h.mediator.vote(vote(r.requestId, 'allow'));
    expect(seen).toEqual(['already_resolved']);
    await expect(p).resolves.toMatchObject({ optionId: 'allow' });
  });

  it('a listener that forgets the session mid-sweep does not double-resolve anything', async () => {
    let resolvedEvents = 0;
    const h = makeHarness('first-responder', {
      emit: (sessionId, event) => {
        if (event.type !== 'permission_resolved') return;
        resolvedEvents++;
        h.mediator.forgetSession(sessionId);
      },
    });
    const promises = [1, 2, 3].map(() => h.request(record(), 1_000));
    h.mediator.cancelForPrompt('s1');
    const results = await Promise.all(promises);
    expect(resolvedEvents).toBe(3);
    expect(results.every((r) => r.kind === 'cancelled')).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('audit records', () => {
  it('carry the decision reason, the counted votes and the forbidden attempts', async () => {
    const h = makeHarness('consensus');
    h.voters.set('s1', ['a', 'b', 'c']);
    const r = record({ promptId: 'turn', originatorClientId: 'a', issuedAtMs: 42 });
    void h.request(r, 1_000);
    h.mediator.vote(proven(r.requestId, 'reject', 'outsider'));
    h.mediator.vote(proven(r.requestId, 'allow', 'a', { metadata: { surface: 'dialog' } }));
    h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'b' }));
    h.mediator.vote(proven(r.requestId, 'allow', 'b'));

    expect(await h.decisions()).toEqual([
      {
        requestId: r.requestId,
        sessionId: 's1',
        promptId: 'turn',
        originatorClientId: 'a',
        policy: 'consensus',
        reason: 'consensus-quorum',
        resolution: {
          kind: 'option',
          optionId: 'allow',
          decidedBy: { reason: 'consensus-quorum', clientIds: ['a', 'b'] },
        },
        quorum: 2,
        voters: ['a', 'b', 'c'],
        votes: [
          expect.objectContaining({
            clientId: 'a',
            optionId: 'allow',
            identityProven: true,
            metadata: { surface: 'dialog' },
          }),
          expect.objectContaining({ clientId: 'b', optionId: 'allow', identityProven: true }),
        ],
        forbidden: [
          expect.objectContaining({ clientId: 'outsider', reason: 'not_a_voter' }),
          expect.objectContaining({
            clientId: 'b',
            reason: 'identity_unproven',
            identityProven: false,
          }),
        ],
        forbiddenDropped: 0,
        issuedAtMs: 42,
        decidedAtMs: Date.now(),
      },
    ]);
  });

  it('cap the forbidden attempts kept per request and count the rest', async () => {
    const h = makeHarness('local-only');
    const r = record();
    void h.request(r, 1_000);
    for (let i = 0; i < MAX_AUDITED_FORBIDDEN_ATTEMPTS + 5; i++) {
      h.mediator.vote(vote(r.requestId, 'allow', { clientId: `remote-${i}` }));
    }
    vi.advanceTimersByTime(1_000);
    const decision = (await h.decisions())[0];
    expect(decision?.forbidden).toHaveLength(MAX_AUDITED_FORBIDDEN_ATTEMPTS);
    expect(decision?.forbiddenDropped).toBe(5);
    expect(h.eventsOfType('permission_forbidden')).toHaveLength(MAX_AUDITED_FORBIDDEN_ATTEMPTS + 5);
  });

  it('one decision record per request, whatever happens afterwards', async () => {
    const h = makeHarness();
    const r = record();
    void h.request(r, 1_000);
    h.mediator.vote(vote(r.requestId, 'allow'));
    vi.advanceTimersByTime(5_000);
    h.mediator.forgetSession('s1');
    h.mediator.cancelForPrompt('s1');
    expect(await h.decisions()).toHaveLength(1);
    expect(h.eventsOfType('permission_resolved')).toHaveLength(1);
  });
});
