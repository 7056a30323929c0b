import type { AuditedVote, OptionTally } from './types';
import type { VoterRoll } from './voter-roll';

/**
 * The prototype of every tally: empty, frozen and without a prototype of its own, so an option id
 * such as `__proto__` or `constructor` is set as an own key like any other and no key is
 * inherited. Not `Object.create(null)` for the tally itself: V8 builds that as a hash table,
 * several times the cost of an object whose keys sit in a shape, and a consensus vote makes one.
 */
const TALLY_PROTOTYPE: object = Object.freeze(Object.create(null) as object);

/** Strict majority of the issue-time voters, never below one. */
export function consensusQuorumFor(voterCount: number): number {
  return Math.max(1, Math.floor(voterCount / 2) + 1);
}

/**
 * A counted vote. A box keeps no ballots of its own: they are the request's counted votes, which
 * the pending request keeps in vote order for its audit record (`supportersOf` relies on the
 * order), each with its voter's id (consensus admits no anonymous vote).
 */
type Ballot = Pick<AuditedVote, 'clientId' | 'optionId'>;

/**
 * One consensus request's ballot box. Ballots are final: that is what makes a
 * split decidable before every voter has spoken (if voters could move their
 * vote, any option could still win until the timeout).
 *
 * Small on purpose: a box lives from issue until its request ends, and under a burst thousands
 * wait at once, every word of them copied by each young-generation collection. Its voters are a
 * shared roll, and its ballots are the request's counted votes.
 */
export class ConsensusBallot {
  readonly quorum: number;
  readonly voters: VoterRoll;
  private readonly options: readonly string[];
  /** The most votes any one option has. */
  private leading = 0;

  /** `quorum` defaults to a strict majority of the roll. */
  constructor(options: readonly string[], voters: VoterRoll, quorum?: number) {
    this.options = options;
    this.voters = voters;
    this.quorum = quorum ?? consensusQuorumFor(voters.ids.length);
  }

  get voterCount(): number {
    return this.voters.ids.length;
  }

  isVoter(clientId: string): boolean {
    return this.voters.has(clientId);
  }

  /** The option `clientId` voted for, if it has. */
  ballotOf(ballots: readonly Ballot[], clientId: string): string | undefined {
    for (let i = 0; i < ballots.length; i++) {
      if (ballots[i]!.clientId === clientId) return ballots[i]!.optionId;
    }
    return undefined;
  }

  /**
   * Counts a ballot just added to `ballots`; the caller guarantees its voter had none before and
   * its option is offered. Returns the option's votes with it.
   */
  count(ballots: readonly Ballot[], optionId: string): number {
    let count = 0;
    for (let i = 0; i < ballots.length; i++) if (ballots[i]!.optionId === optionId) count++;
    if (count > this.leading) this.leading = count;
    return count;
  }

  /**
   * True while some option could still reach the quorum if every voter yet to
   * vote backed it. With no options, or a quorum above the voter count, this is
   * false from the start.
   */
  canAnyOptionStillWin(votesCast: number): boolean {
    const outstanding = this.voters.ids.length - votesCast;
    return this.options.length > 0 && this.leading + outstanding >= this.quorum;
  }

  votesNeeded(): number {
    return Math.max(0, this.quorum - this.leading);
  }

  tally(ballots: readonly Ballot[]): OptionTally {
    const tally = Object.create(TALLY_PROTOTYPE) as Record<string, number>;
    // A repeated option id is one key, counted once per ballot.
    for (let i = 0; i < this.options.length; i++) tally[this.options[i]!] = 0;
    for (let i = 0; i < ballots.length; i++) tally[ballots[i]!.optionId]! += 1;
    return tally;
  }

  /** The voters who backed `optionId`, in the order they voted, in an array of exactly that length. */
  supportersOf(ballots: readonly Ballot[], optionId: string): string[] {
    let count = 0;
    for (let i = 0; i < ballots.length; i++) if (ballots[i]!.optionId === optionId) count++;
    const supporters = new Array<string>(count);
    let at = 0;
    for (let i = 0; i < ballots.length; i++) {
      if (ballots[i]!.optionId === optionId) supporters[at++] = ballots[i]!.clientId!;
    }
    return supporters;
  }
}
