import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsensusBallot } from './consensus';
import { VoterRoll, VoterRolls } from './voter-roll';
import { makeHarness, proven, record } from './harness.test-support';

const longList = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);

describe('voter roll', () => {
  it('lists each voter once, in first-seen order, in short and long lists', () => {
    expect(new VoterRoll(['b', 'a', 'b', 'c', 'a']).ids).toEqual(['b', 'a', 'c']);
    expect(new VoterRoll(['a', 'a']).ids).toEqual(['a']);
    expect(new VoterRoll([]).ids).toEqual([]);
    const long = [...longList(12), 'v3', 'v0'];
    expect(new VoterRoll(long).ids).toEqual(longList(12));
  });

  it('is a frozen copy: the caller changing its array changes nothing', () => {
    for (const voters of [['a', 'b', 'c'], longList(12)]) {
      const roll = new VoterRoll(voters);
      const before = [...voters];
      voters.push('intruder');
      voters[0] = 'swapped';
      expect(roll.ids).toEqual(before);
      expect(Object.isFrozen(roll.ids)).toBe(true);
      expect(roll.has('intruder')).toBe(false);
      expect(roll.has('swapped')).toBe(false);
      expect(roll.has(before[1]!)).toBe(true);
    }
  });

  it('is shared while the voters are the same, and replaced when they change', () => {
    const rolls = new VoterRolls();
    const voters = ['a', 'b', 'c'];
    const first = rolls.of(voters);
    expect(rolls.of(['a', 'b', 'c'])).toBe(first);
    expect(rolls.of(new Set(['a', 'b', 'c']))).toBe(first);
    // Same members, another order or a repeat: a roll of its own, never a stale one.
    expect(rolls.of(['b', 'a', 'c'])).not.toBe(first);
    expect(rolls.of(['b', 'a', 'c', 'c']).ids).toEqual(['b', 'a', 'c']);
    voters[2] = 'mallory';
    expect(rolls.of(voters).ids).toEqual(['a', 'b', 'mallory']);
    expect(first.ids).toEqual(['a', 'b', 'c']);
  });
});

describe('consensus ballot box', () => {
  /** A box and its ballots, cast the way the mediator does: recorded first, then counted. */
  function box(options: string[], voters: string[], quorum?: number) {
    const ballot = new ConsensusBallot(options, new VoterRoll(voters), quorum);
    const ballots: Array<{ clientId: string; optionId: string }> = [];
    return {
      ballot,
      ballots,
      cast(clientId: string, optionId: string): number {
        ballots.push({ clientId, optionId });
        return ballot.count(ballots, optionId);
      },
      canWin: () => ballot.canAnyOptionStillWin(ballots.length),
    };
  }

  it('counts ballots per option and keeps the voters in vote order', () => {
    const b = box(['yes', 'no'], ['a', 'b', 'c', 'd', 'e']);
    expect(b.ballot.quorum).toBe(3);
    expect(b.ballot.votesNeeded()).toBe(3);
    expect(b.ballot.ballotOf(b.ballots, 'a')).toBeUndefined();
    expect(b.cast('c', 'no')).toBe(1);
    expect(b.cast('a', 'yes')).toBe(1);
    expect(b.cast('e', 'no')).toBe(2);
    expect(b.ballot.ballotOf(b.ballots, 'a')).toBe('yes');
    expect(b.ballot.ballotOf(b.ballots, 'e')).toBe('no');
    expect(b.ballot.ballotOf(b.ballots, 'b')).toBeUndefined();
    expect(b.ballot.votesNeeded()).toBe(1);
    expect(b.ballot.supportersOf(b.ballots, 'no')).toEqual(['c', 'e']);
    expect(b.ballot.supportersOf(b.ballots, 'yes')).toEqual(['a']);
    expect(Object.entries(b.ballot.tally(b.ballots))).toEqual([
      ['yes', 1],
      ['no', 2],
    ]);
  });

  it('can still be won while the outstanding voters could carry the leader or an empty option', () => {
    const b = box(['x', 'y', 'z'], ['a', 'b', 'c', 'd', 'e']);
    expect(b.canWin()).toBe(true);
    b.cast('a', 'x');
    b.cast('b', 'y');
    b.cast('c', 'z');
    // Two voters left and every option at one: any of them can still reach three.
    expect(b.canWin()).toBe(true);
    b.cast('d', 'x');
    expect(b.canWin()).toBe(true);
    const split = box(['x', 'y', 'z'], ['a', 'b', 'c', 'd', 'e']);
    for (const [voter, option] of ['ax', 'by', 'cz', 'dy', 'ex']) split.cast(voter!, option!);
    expect(split.canWin()).toBe(false);
  });

  it('cannot be won from the start with no options or a quorum above the voters', () => {
    expect(box([], ['a', 'b']).canWin()).toBe(false);
    expect(box(['x'], ['a', 'b'], 3).canWin()).toBe(false);
    expect(box(['x'], ['a', 'b'], 2).canWin()).toBe(true);
  });

  it('tallies option ids an agent chose to collide with object internals as plain keys', () => {
    const hostile = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '0', 'yes', 'yes'];
    const b = box(hostile, ['a', 'b', 'c', 'd']);
    b.cast('a', '__proto__');
    b.cast('b', 'toString');
    b.cast('c', 'yes');
    b.cast('d', 'yes');
    const tally = b.ballot.tally(b.ballots);
    expect(Object.keys(tally).sort()).toEqual([...new Set(hostile)].sort());
    expect(tally['__proto__']).toBe(1);
    expect(tally['toString']).toBe(1);
    expect(tally['constructor']).toBe(0);
    expect(tally['hasOwnProperty']).toBe(0);
    expect(tally['0']).toBe(0);
    expect(tally['yes']).toBe(2);
    expect(JSON.parse(JSON.stringify(tally))).toEqual({
      ['__proto__']: 1,
      constructor: 0,
      toString: 1,
      hasOwnProperty: 0,
      0: 0,
      yes: 2,
    });
    // Nothing leaked into what every tally inherits from, and nothing is inherited.
    const plain = box(['x'], ['a']).ballot.tally([]);
    expect(Object.keys(plain)).toEqual(['x']);
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(key in plain).toBe(false);
    }
    expect(Object.isFrozen(Object.getPrototypeOf(plain))).toBe(true);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(plain))).toBeNull();
  });
});

describe('consensus voters across requests', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a voter list changed in place between requests applies to the later request only', async () => {
    const h = makeHarness('consensus');
    const voters = ['a', 'b', 'c'];
    h.voters.set('s1', voters);
    const first = record();
    const p1 = h.mediator.request(first, 60_000);
    voters.splice(0, 3, 'x', 'y');
    const second = record();
    const p2 = h.mediator.request(second, 60_000);

    expect(h.mediator.vote(proven(first.requestId, 'allow', 'x')).kind).toBe('forbidden');
    expect(h.mediator.vote(proven(second.requestId, 'allow', 'a')).kind).toBe('forbidden');
    h.mediator.vote(proven(first.requestId, 'allow', 'a'));
    h.mediator.vote(proven(first.requestId, 'allow', 'c'));
    h.mediator.vote(proven(second.requestId, 'reject', 'y'));
    h.mediator.vote(proven(second.requestId, 'reject', 'x'));
    const [d1, d2] = await Promise.all([p1, p2]);
    expect(d1).toMatchObject({ voters: ['a', 'b', 'c'], quorum: 2 });
    expect(d1.resolution).toMatchObject({
      optionId: 'allow',
      decidedBy: { clientIds: ['a', 'c'] },
    });
    expect(d2).toMatchObject({ voters: ['x', 'y'], quorum: 2 });
    expect(d2.resolution).toMatchObject({
      optionId: 'reject',
      decidedBy: { clientIds: ['y', 'x'] },
    });
    // The list a decision hands on cannot be changed under the audit.
    expect(Object.isFrozen(d1.voters)).toBe(true);
  });
});
