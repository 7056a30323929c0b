import type { OptionTally } from './types';

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
  private readonly voters: ReadonlySet<string>;
  private readonly counts: number[];
  // Insertion order is vote order, which `supportersOf` relies on.
  private readonly ballots = new Map<string, number>();

  constructor(options: readonly string[], voters: ReadonlySet<string>, quorum: number) {
    this.options = options;
    this.voters = voters;
    this.quorum = quorum;
    this.counts = new Array<number>(options.length).fill(0);
  }

  get voterCount(): number {
    return this.voters.size;
  }

  get votesCast(): number {
    return this.ballots.size;
  }

  isVoter(clientId: string): boolean {
    return this.voters.has(clientId);
  }

  ballotOf(clientId: string): number | undefined {
    return this.ballots.get(clientId);
  }

  /** Caller guarantees `clientId` is a voter without a ballot and `optionIndex` is in range. */
  cast(clientId: string, optionIndex: number): number {
    this.ballots.set(clientId, optionIndex);
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
    const outstanding = this.voters.size - this.ballots.size;
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
    for (const [clientId, choice] of this.ballots) {
      if (choice === optionIndex) supporters.push(clientId);
    }
    return supporters;
  }

  voterList(): string[] {
    return Array.from(this.voters);
  }
}
