import type { OptionTally } from './types';
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
 * One consensus request's ballot box. Ballots are final: that is what makes a
 * split decidable before every voter has spoken (if voters could move their
 * vote, any option could still win until the timeout).
 *
 * Small on purpose: a box lives from issue until its request ends, and under a burst thousands
 * wait at once, every word of them copied by each young-generation collection. Its voters are a
 * shared roll, and what only votes need is made on the first ballot.
 */
export class ConsensusBallot {
  readonly quorum: number;
  readonly voters: VoterRoll;
  private readonly options: readonly string[];
  // Each ballot as its voter id then its option index, in vote order (`supportersOf` relies on
  // it): one array, made on the first ballot with room for every voter, so it never grows.
  private ballots: Array<string | number> | null = null;
  private castCount = 0;
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

  get votesCast(): number {
    return this.castCount;
  }

  isVoter(clientId: string): boolean {
    return this.voters.has(clientId);
  }

  ballotOf(clientId: string): number | undefined {
    const { ballots } = this;
    for (let i = 0; i < 2 * this.castCount; i += 2) {
      if (ballots![i] === clientId) return ballots![i + 1] as number;
    }
    return undefined;
  }

  /**
   * Caller guarantees `clientId` is a voter without a ballot and `optionIndex` is in range.
   * Returns the option's votes with this one.
   */
  cast(clientId: string, optionIndex: number): number {
    const ballots = (this.ballots ??= new Array<string | number>(2 * this.voters.ids.length));
    let count = 1;
    for (let i = 1; i < 2 * this.castCount; i += 2) if (ballots[i] === optionIndex) count++;
    ballots[2 * this.castCount] = clientId;
    ballots[2 * this.castCount + 1] = optionIndex;
    this.castCount++;
    if (count > this.leading) this.leading = count;
    return count;
  }

  /**
   * True while some option could still reach the quorum if every voter yet to
   * vote backed it. With no options, or a quorum above the voter count, this is
   * false from the start.
   */
  canAnyOptionStillWin(): boolean {
    const outstanding = this.voters.ids.length - this.castCount;
    return this.options.length > 0 && this.leading + outstanding >= this.quorum;
  }

  votesNeeded(): number {
    return Math.max(0, this.quorum - this.leading);
  }

  tally(): OptionTally {
    const tally = Object.create(TALLY_PROTOTYPE) as Record<string, number>;
    for (const option of this.options) tally[option] = 0;
    // Duplicate option ids share the first index, so a ballot counts once, under its id.
    for (let i = 1; i < 2 * this.castCount; i += 2) {
      const option = this.options[this.ballots![i] as number]!;
      tally[option]! += 1;
    }
    return tally;
  }

  /** The voters who backed `optionIndex`, in the order they voted, in an array of exactly that length. */
  supportersOf(optionIndex: number): string[] {
    const ballots = this.ballots ?? [];
    let count = 0;
    for (let i = 1; i < 2 * this.castCount; i += 2) if (ballots[i] === optionIndex) count++;
    const supporters = new Array<string>(count);
    let at = 0;
    for (let i = 1; i < 2 * this.castCount; i += 2) {
      if (ballots[i] === optionIndex) supporters[at++] = ballots[i - 1] as string;
    }
    return supporters;
  }
}
