import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CANCEL_VOTE_SENTINEL } from '.';
import { decided, resolved, makeHarness, record, state, vote } from './harness.test-support';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('designated policy', () => {
  it('only the proven originator resolves, decided by designated-originator', async () => {
    const h = makeHarness('designated');
    const { r, p } = h.ask({ originatorClientId: 'alice' });

    expect(h.voteProven(r, 'allow', 'alice')).toEqual(resolved('allow'));
    await expect(p).resolves.toEqual(decided('allow', 'designated-originator', ['alice']));
  });

  it('an unproven vote is identity_unproven even when it claims the originator id', async () => {
    const h = makeHarness('designated');
    const { r, p } = h.ask({ originatorClientId: 'alice' });

    expect(h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'alice' }))).toEqual({
      kind: 'forbidden',
      reason: 'identity_unproven',
    });
    expect(
      h.mediator.vote(
        vote(r.requestId, 'allow', {
          clientId: 'alice',
          identityProven: false,
          fromLoopback: true,
        }),
      ),
    ).toEqual({ kind: 'forbidden', reason: 'identity_unproven' });
    expect(await state(p)).toBe('pending');
  });

  it('a proven different client is designated_mismatch', async () => {
    const h = makeHarness('designated');
    const { r, p } = h.ask({ originatorClientId: 'alice' });
    expect(h.voteProven(r, 'allow', 'mallory')).toEqual({
      kind: 'forbidden',
      reason: 'designated_mismatch',
    });
    expect(await state(p)).toBe('pending');
  });

  it('an unproven different client is identity_unproven (proof is checked first)', () => {
    const h = makeHarness('designated');
    const r = record({ originatorClientId: 'alice' });
    void h.request(r, 60_000);
    expect(h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'mallory' }))).toEqual({
      kind: 'forbidden',
      reason: 'identity_unproven',
    });
  });

  it('an anonymous voter is anonymous_not_allowed', () => {
    const h = makeHarness('designated');
    const r = record({ originatorClientId: 'alice' });
    void h.request(r, 60_000);
    expect(
      h.mediator.vote(vote(r.requestId, 'allow', { fromLoopback: true, identityProven: true })),
    ).toEqual({
      kind: 'forbidden',
      reason: 'anonymous_not_allowed',
    });
  });

  it('emits permission_forbidden for each refused vote and audits them with the decision', async () => {
    const h = makeHarness('designated');
    const r = record({ originatorClientId: 'alice' });
    void h.request(r, 60_000);
    h.voteProven(r, 'allow', 'mallory');
    h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'alice' }));
    h.voteProven(r, 'reject', 'alice');

    expect(
      h.eventsOfType('permission_forbidden').map((e) => [e.clientId, e.reason, e.policy]),
    ).toEqual([
      ['mallory', 'designated_mismatch', 'designated'],
      ['alice', 'identity_unproven', 'designated'],
    ]);
    expect((await h.decisions())[0]).toMatchObject({
      reason: 'designated-originator',
      votes: [{ clientId: 'alice', optionId: 'reject', identityProven: true }],
      forbidden: [
        { clientId: 'mallory', reason: 'designated_mismatch' },
        { clientId: 'alice', reason: 'identity_unproven', identityProven: false },
      ],
    });
  });

  it('without an originator it fails closed: no vote resolves it, it times out', async () => {
    const h = makeHarness('designated');
    const r = record({ originatorClientId: undefined });
    const p = h.request(r, 1_000);

    expect(h.voteProven(r, 'allow', 'alice', { fromLoopback: true })).toEqual({
      kind: 'forbidden',
      reason: 'designated_mismatch',
    });
    expect(h.voteProven(r, 'allow', '', { fromLoopback: true })).toEqual({
      kind: 'forbidden',
      reason: 'anonymous_not_allowed',
    });
    vi.advanceTimersByTime(1_000);
    await expect(p).resolves.toEqual({ kind: 'cancelled', reason: 'timeout' });
  });

  it('without an originator a cancel still ends it', async () => {
    const h = makeHarness('designated');
    const { r, p } = h.ask({ originatorClientId: undefined });
    h.mediator.vote(vote(r.requestId, CANCEL_VOTE_SENTINEL, { clientId: 'x' }));
    await expect(p).resolves.toEqual({
      kind: 'cancelled',
      reason: 'voter_cancelled',
      clientId: 'x',
    });
  });
});
