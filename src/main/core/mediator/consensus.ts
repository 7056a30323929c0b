import type { OptionTally } from './types';

const SMALL_VOTER_LIST = 8;

/** Strict majority of the issue-time voters, never below one. */
export function consensusQuorumFor(voterCount: number): number {
  return Math.max(1, Math.floor(voterCount / 2) + 1);
}

/**
 * One consensus request's ballot box. Ballots are final: that is what makes a
 * split decidable before every voter has spoken (if voters could move their
 * vote, any option could still win until the timeout).
 */
export class ConsensusBallot {
  readonly quorum: number;
  private readonly options: readonly string[];
  /** Distinct voter ids. A Set only past a handful: one is built per request, and most have few voters. */
  private readonly voters: readonly string[];
  private readonly voterSet: ReadonlySet<string> | null;
  private readonly counts: number[];
  // Ballots in vote order, which `supportersOf` relies on. Arrays, not a Map: a ballot box is made
  // per request and holds a handful of votes, so a Map's allocation outweighed its lookups.
  private readonly castBy: string[] = [];
  private readonly choices: number[] = [];

  /** `quorum` defaults to a strict majority of the distinct voters. */
  constructor(options: readonly string[], voterIds: Iterable<string>, quorum?: number) {
    this.options = options;
    const voters = Array.isArray(voterIds) ? (voterIds as readonly string[]) : Array.from(voterIds);
    if (voters.length <= SMALL_VOTER_LIST) {
      this.voters = voters.filter((v, i) => voters.indexOf(v) === i);
      this.voterSet = null;
    } else {
      this.voterSet = new Set(voters);
      this.voters = [...this.voterSet];
    }
    this.quorum = quorum ?? consensusQuorumFor(this.voters.length);
    this.counts = new Array<number>(options.length).fill(0);
  }

  get voterCount(): number {
    return this.voters.length;
  }

  get votesCast(): number {
    return this.castBy.length;
  }

  isVoter(clientId: string): boolean {
    return this.voterSet !== null ? this.voterSet.has(clientId) : this.voters.includes(clientId);
  }

  ballotOf(clientId: string): number | undefined {
    const at = this.castBy.indexOf(clientId);
    return at < 0 ? undefined : this.choices[at];
  }

  /** Caller guarantees `clientId` is a voter without a ballot and `optionIndex` is in range. */
  cast(clientId: string, optionIndex: number): number {
    this.castBy.push(clientId);
    this.choices.push(optionIndex);
    const count = (this.counts[optionIndex] ?? 0) + 1;
    this.counts[optionIndex] = count;
    return count;
  }

  /**
   * True while some option could still reach the quorum if every voter yet to
   * vote backed it. With no options, or a quorum above the voter count, this is
   * false from the start.
   */
  canAnyOptionStillWin(): boolean {
    const outstanding = this.voters.length - this.castBy.length;
    for (const count of this.counts) {
      if (count + outstanding >= this.quorum) return true;
    }
    return false;
  }

  votesNeeded(): number {
    let leading = 0;
    for (const count of this.counts) if (count > leading) leading = count;
    return Math.max(0, this.quorum - leading);
  }

  tally(): OptionTally {
    const tally = Object.create(null) as Record<string, number>;
    for (let i = 0; i < this.options.length; i++) {
      const option = this.options[i];
      // Duplicate option ids share the first index, so only that slot is counted.
      if (option !== undefined && !(option in tally)) tally[option] = this.counts[i] ?? 0;
    }
    return tally;
  }

  supportersOf(optionIndex: number): string[] {
    const supporters: string[] = [];
    for (let i = 0; i < this.castBy.length; i++) {
      if (this.choices[i] === optionIndex) supporters.push(this.castBy[i]!);
    }
    return supporters;
  }

  voterList(): string[] {
    return this.voters.slice();
  }
}
