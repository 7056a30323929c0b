import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { consensusQuorumFor } from '.';
import {
  decided,
  resolved,
  makeHarness,
  proven,
  record,
  state,
  vote,
} from './harness.test-support';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function consensus(voters: string[], overrides: Parameters<typeof makeHarness>[1] = {}) {
  const h = makeHarness('consensus', overrides);
  h.voters.set('s1', voters);
  return h;
}

describe('consensus quorum', () => {
  it('default quorum is max(1, floor(M/2)+1)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(consensusQuorumFor)).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it('a vote short of quorum is recorded with votesNeeded and the per-option tally', async () => {
    const h = consensus(['a', 'b', 'c']);
    const { r, p } = h.ask();

    expect(h.voteProven(r, 'allow', 'a')).toEqual({
      kind: 'recorded',
      votesNeeded: 1,
      tally: { allow: 1, reject: 0 },
    });
    expect(await state(p)).toBe('pending');
  });

  it('reaching quorum resolves with that option, decided by every supporting voter in vote order', async () => {
    const h = consensus(['a', 'b', 'c']);
    const { r, p } = h.ask();
    h.voteProven(r, 'allow', 'c');
    expect(h.voteProven(r, 'allow', 'a')).toEqual(resolved('allow'));
    await expect(p).resolves.toEqual(decided('allow', 'consensus-quorum', ['c', 'a']));
    expect((await h.decisions())[0]).toMatchObject({
      reason: 'consensus-quorum',
      quorum: 2,
      voters: ['a', 'b', 'c'],
      votes: [{ clientId: 'c' }, { clientId: 'a' }],
    });
  });

  it('supporters of a losing option are not counted among the deciders', async () => {
    const h = consensus(['a', 'b', 'c', 'd', 'e']);
    const { r, p } = h.ask();
    h.voteProven(r, 'allow', 'a');
    h.voteProven(r, 'reject', 'b');
    h.voteProven(r, 'allow', 'c');
    h.voteProven(r, 'allow', 'd');
    expect(await p).toMatchObject({ optionId: 'allow', decidedBy: { clientIds: ['a', 'c', 'd'] } });
  });

  it('emits permission_partial_vote for each recorded vote with tally and votesNeeded', () => {
    const h = consensus(['a', 'b', 'c', 'd']);
    const r = record({ promptId: 'p9' });
    void h.request(r, 60_000);
    h.voteProven(r, 'allow', 'a');
    h.voteProven(r, 'reject', 'b');

    expect(h.eventsOfType('permission_partial_vote')).toEqual([
      {
        type: 'permission_partial_vote',
        requestId: r.requestId,
        sessionId: 's1',
        promptId: 'p9',
        clientId: 'a',
        optionId: 'allow',
        tally: { allow: 1, reject: 0 },
        votesNeeded: 2,
        quorum: 3,
        voters: 4,
        votesCast: 1,
      },
      expect.objectContaining({
        clientId: 'b',
        tally: { allow: 1, reject: 1 },
        votesNeeded: 2,
        votesCast: 2,
      }),
    ]);
    expect(h.events.every((e) => e.sessionId === 's1')).toBe(true);
  });

  it('a voter listed twice counts once, in short and long voter lists', () => {
    for (const voters of [
      ['a', 'a', 'b', 'c'],
      [...Array.from({ length: 20 }, (_, i) => `v${i}`), 'v0', 'v1'],
    ]) {
      const h = consensus(voters);
      const r = record();
      void h.request(r, 60_000);
      expect(h.mediator.progress(r.requestId)).toMatchObject({
        voters: new Set(voters).size,
        quorum: consensusQuorumFor(new Set(voters).size),
      });
      expect(h.mediator.vote(proven(r.requestId, 'allow', voters.at(-1)!)).kind).toBe('recorded');
      expect(h.voteProven(r, 'allow', 'stranger')).toMatchObject({
        kind: 'forbidden',
        reason: 'not_a_voter',
      });
    }
  });

  it('votersForSession is read once, at issue time, for the request session', () => {
    const h = consensus(['a', 'b', 'c']);
    const r = record();
    void h.request(r, 60_000);
    h.voteProven(r, 'allow', 'a');
    h.voteProven(r, 'allow', 'b');
    expect(h.votersForSession).toHaveBeenCalledTimes(1);
    expect(h.votersForSession).toHaveBeenCalledWith('s1');
  });

  it('a client that joined after issue is not_a_voter; one that left still votes', async () => {
    const h = consensus(['a', 'b', 'c']);
    const { r, p } = h.ask();
    h.voters.set('s1', ['b', 'c', 'late']);

    expect(h.voteProven(r, 'allow', 'late')).toEqual({
      kind: 'forbidden',
      reason: 'not_a_voter',
    });
    h.voteProven(r, 'allow', 'a');
    expect(h.voteProven(r, 'allow', 'b')).toMatchObject({ kind: 'resolved' });
    expect(await p).toMatchObject({ decidedBy: { clientIds: ['a', 'b'] } });
  });

  it('only proven votes count: unproven is identity_unproven, anonymous is anonymous_not_allowed', async () => {
    const h = consensus(['a', 'b', 'c']);
    const { r, p } = h.ask();

    expect(
      h.mediator.vote(vote(r.requestId, 'allow', { clientId: 'a', fromLoopback: true })),
    ).toEqual({
      kind: 'forbidden',
      reason: 'identity_unproven',
    });
    expect(h.mediator.vote(vote(r.requestId, 'allow', { identityProven: true }))).toEqual({
      kind: 'forbidden',
      reason: 'anonymous_not_allowed',
    });
    expect(h.mediator.progress(r.requestId)).toMatchObject({
      votesCast: 0,
      tally: { allow: 0, reject: 0 },
    });
    expect(h.eventsOfType('permission_forbidden').map((e) => e.reason)).toEqual([
      'identity_unproven',
      'anonymous_not_allowed',
    ]);
    expect(await state(p)).toBe('pending');
  });

  it('ballots are final: repeating the same vote is idempotent and changes nothing', () => {
    const h = consensus(['a', 'b', 'c', 'd']);
    const r = record();
    void h.request(r, 60_000);
    const first = h.voteProven(r, 'allow', 'a');
    const eventsBefore = h.events.length;

    expect(h.voteProven(r, 'allow', 'a')).toEqual(first);
    expect(h.events.length).toBe(eventsBefore);
    expect(h.mediator.progress(r.requestId)).toMatchObject({ votesCast: 1, tally: { allow: 1 } });
  });

  it('ballots are final: a different second vote is forbidden already_voted and not moved', async () => {
    const h = consensus(['a', 'b', 'c']);
    const { r, p } = h.ask();
    h.voteProven(r, 'allow', 'a');
    h.voteProven(r, 'reject', 'b');

    expect(h.voteProven(r, 'reject', 'a')).toEqual({
      kind: 'forbidden',
      reason: 'already_voted',
    });
    expect(h.mediator.progress(r.requestId)?.tally).toEqual({ allow: 1, reject: 1 });
    expect(await state(p)).toBe('pending');
    h.voteProven(r, 'allow', 'c');
    expect(await p).toMatchObject({ optionId: 'allow', decidedBy: { clientIds: ['a', 'c'] } });
  });

  it('the consensusQuorum option overrides the majority formula', async () => {
    const h = consensus(['a', 'b', 'c'], { consensusQuorum: 1 });
    const { r, p } = h.ask();
    expect(h.voteProven(r, 'reject', 'b')).toMatchObject({ kind: 'resolved' });
    expect(await p).toMatchObject({ optionId: 'reject' });
  });

  it('a per-request consensusQuorum overrides the mediator one', async () => {
    const h = consensus(['a', 'b', 'c'], { consensusQuorum: 1 });
    const r = record();
    const p = h.request(r, 60_000, { consensusQuorum: 3 });
    h.voteProven(r, 'allow', 'a');
    h.voteProven(r, 'allow', 'b');
    expect(await state(p)).toBe('pending');
    h.voteProven(r, 'allow', 'c');
    expect(await p).toMatchObject({ optionId: 'allow' });
  });

  it('a quorum larger than the voter snapshot is never lowered: the request ends as split_vote at once', async () => {
    const h = consensus(['a', 'b'], { consensusQuorum: 3 });
    const { r, p } = h.ask();

    await expect(p).resolves.toEqual({ kind: 'cancelled', reason: 'split_vote' });
    expect(vi.getTimerCount()).toBe(0);
    expect(h.mediator.pendingCount()).toBe(0);
    expect((await h.decisions())[0]).toMatchObject({
      reason: 'split-vote',
      quorum: 3,
      voters: ['a', 'b'],
    });
    expect(h.voteProven(r, 'allow', 'a')).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: null,
    });
  });

  it('with no voters at issue time nobody can win, so it ends as split_vote at once', async () => {
    const h = consensus([]);
    const p = h.request(record(), 60_000);
    await expect(p).resolves.toEqual({ kind: 'cancelled', reason: 'split_vote' });
  });

  it('M=2 split (unanimity required) ends as split_vote on the second vote, not at the timeout', async () => {
    const h = consensus(['a', 'b']);
    const r = record();
    const p = h.request(r, 300_000);
    h.voteProven(r, 'allow', 'a');
    expect(h.voteProven(r, 'reject', 'b')).toEqual({
      kind: 'cancelled',
      reason: 'split_vote',
    });
    await expect(p).resolves.toEqual({ kind: 'cancelled', reason: 'split_vote' });
    expect(vi.getTimerCount()).toBe(0);
    expect((await h.decisions())[0]).toMatchObject({
      reason: 'split-vote',
      votes: [{ clientId: 'a' }, { clientId: 'b' }],
    });
    expect(h.eventsOfType('permission_resolved')).toHaveLength(1);
  });

  it('a split ends as soon as no option can win, before every voter has voted', async () => {
    const h = consensus(['a', 'b', 'c', 'd']);
    const { r, p } = h.ask({ allowedOptionIds: ['x', 'y', 'z'] });
    h.voteProven(r, 'x', 'a');
    h.voteProven(r, 'y', 'b');
    expect(await state(p)).toBe('pending');
    // quorum 3: x and y hold 1 each with one voter (d) left after c; nobody can reach 3.
    expect(h.voteProven(r, 'z', 'c')).toEqual({
      kind: 'cancelled',
      reason: 'split_vote',
    });
    await expect(p).resolves.toEqual({ kind: 'cancelled', reason: 'split_vote' });
    expect(h.voteProven(r, 'x', 'd')).toEqual({
      kind: 'already_resolved',
      resolvedOptionId: null,
    });
  });

  it('an option with only an outstanding voter short of quorum does not count as winnable', async () => {
    const h = consensus(['a', 'b', 'c']);
    const { r, p } = h.ask({ allowedOptionIds: ['x', 'y', 'z'] });
    h.voteProven(r, 'x', 'a');
    // x=1, y=1, one voter left: x or y can still reach 2.
    expect(h.voteProven(r, 'y', 'b')).toMatchObject({ kind: 'recorded' });
    expect(await state(p)).toBe('pending');
  });

  it('progress() snapshots the tally of a pending consensus request and is null otherwise', () => {
    const h = consensus(['a', 'b', 'c']);
    const r = record();
    void h.request(r, 60_000);
    h.voteProven(r, 'reject', 'a');
    const snapshot = h.mediator.progress(r.requestId);
    expect(snapshot).toEqual({
      requestId: r.requestId,
      quorum: 2,
      voters: 3,
      votesCast: 1,
      votesNeeded: 1,
      tally: { allow: 0, reject: 1 },
    });
    h.voteProven(r, 'allow', 'b');
    expect(snapshot?.tally).toEqual({ allow: 0, reject: 1 });
    h.voteProven(r, 'reject', 'c');
    expect(h.mediator.progress(r.requestId)).toBeNull();
    expect(h.mediator.progress('nope')).toBeNull();

    const fr = makeHarness('first-responder');
    const other = record();
    void fr.mediator.request(other, 60_000);
    expect(fr.mediator.progress(other.requestId)).toBeNull();
  });

  it('an option literally named __proto__ is tallied like any other', async () => {
    const h = consensus(['a', 'b', 'c']);
    const { r, p } = h.ask({ allowedOptionIds: ['__proto__', 'constructor'] });
    const outcome = h.voteProven(r, '__proto__', 'a');
    expect(outcome.kind === 'recorded' && Object.entries(outcome.tally)).toEqual([
      ['__proto__', 1],
      ['constructor', 0],
    ]);
    h.voteProven(r, '__proto__', 'b');
    expect(await p).toMatchObject({ optionId: '__proto__' });
  });
});
