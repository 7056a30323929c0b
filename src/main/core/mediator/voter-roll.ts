/** Past this many voters a roll keeps a Set beside its list; below, `includes` is cheaper. */
const SMALL_VOTER_LIST = 8;

/**
 * An issue-time voter snapshot: the distinct ids, in first-seen order, frozen. One roll is shared
 * by every ballot issued while the session's voters stay the same, so a pending consensus request
 * holds no list of its own (under a burst, thousands wait at once and each young-generation
 * collection copies every word they hold), and a decision can hand the list on as it is.
 */
export class VoterRoll {
  readonly ids: readonly string[];
  private readonly set: ReadonlySet<string> | null;

  /** Copies `voters`: the caller's array is never kept. */
  constructor(voters: readonly string[]) {
    if (voters.length <= SMALL_VOTER_LIST) {
      this.ids = Object.freeze(distinct(voters));
      this.set = null;
    } else {
      this.set = new Set(voters);
      this.ids = Object.freeze([...this.set]);
    }
  }

  has(clientId: string): boolean {
    return this.set !== null ? this.set.has(clientId) : this.ids.includes(clientId);
  }

  /** True when `voters` lists exactly this roll's ids, in its order and without repeats. */
  matches(voters: readonly string[]): boolean {
    if (voters.length !== this.ids.length) return false;
    for (let i = 0; i < voters.length; i++) if (voters[i] !== this.ids[i]) return false;
    return true;
  }
}

/** Rolls for successive requests: the last one again while the voters it lists are unchanged. */
export class VoterRolls {
  private last: VoterRoll | null = null;

  of(voterIds: Iterable<string>): VoterRoll {
    const voters = Array.isArray(voterIds) ? (voterIds as readonly string[]) : Array.from(voterIds);
    if (this.last !== null && this.last.matches(voters)) return this.last;
    this.last = new VoterRoll(voters);
    return this.last;
  }
}

/** `voters` without repeats, in an array of exactly that length (a growing one reserves room). */
function distinct(voters: readonly string[]): string[] {
  let count = 0;
  for (let i = 0; i < voters.length; i++) if (isFirst(voters, i)) count++;
  if (count === voters.length) return voters.slice();
  const out = new Array<string>(count);
  let at = 0;
  for (let i = 0; i < voters.length; i++) if (isFirst(voters, i)) out[at++] = voters[i]!;
  return out;
}

function isFirst(voters: readonly string[], i: number): boolean {
  // From a negative index lastIndexOf would count from the end.
  return i === 0 || voters.lastIndexOf(voters[i]!, i - 1) < 0;
}
