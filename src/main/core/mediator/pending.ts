import type { ConsensusBallot } from './consensus';
import type {
  AuditedForbiddenAttempt,
  AuditedVote,
  ConsensusProgress,
  DecisionReason,
  ForbiddenReason,
  PermissionDecision,
  PermissionPolicy,
  PermissionRequestRecord,
  PermissionResolution,
  PermissionVoteInput,
} from './types';

/** Refused votes kept per request for the audit record; the rest are only counted. */
export const MAX_AUDITED_FORBIDDEN_ATTEMPTS = 64;

const NO_VOTES: readonly AuditedVote[] = Object.freeze([]);

/**
 * One request the mediator holds: the policy it was issued under, its deadline and every vote it
 * saw, until `decide` turns them into the decision its promise resolves with. `view` is the
 * caller's own state of the request (the pipeline's: what clients are shown); the mediator never
 * reads it, but holding it here means it is listed exactly while the request is pending.
 */
export class PendingRequest<V = undefined> {
  /** Resolves once, with the decision, however the request ends. */
  readonly decided: Promise<PermissionDecision>;
  timer: unknown = undefined;
  expiresAtMs = 0;
  // Allocated on the first vote: most requests end with one vote or none.
  private votes: AuditedVote[] | undefined;
  private forbidden: AuditedForbiddenAttempt[] | undefined;
  private forbiddenDropped = 0;
  private settle!: (decision: PermissionDecision) => void;

  constructor(
    readonly record: PermissionRequestRecord,
    readonly policy: PermissionPolicy,
    readonly ballot: ConsensusBallot | undefined,
    readonly view: V,
  ) {
    this.decided = new Promise<PermissionDecision>((resolve) => {
      this.settle = resolve;
    });
  }

  /** The votes that counted, in arrival order: under consensus, the ballots. */
  get counted(): readonly AuditedVote[] {
    return this.votes ?? NO_VOTES;
  }

  countVote(input: PermissionVoteInput, clientId: string | undefined): void {
    (this.votes ??= []).push(auditedVote(input, clientId));
  }

  refuseVote(
    input: PermissionVoteInput,
    clientId: string | undefined,
    reason: ForbiddenReason,
  ): void {
    const forbidden = (this.forbidden ??= []);
    if (forbidden.length < MAX_AUDITED_FORBIDDEN_ATTEMPTS) {
      forbidden.push({ ...auditedVote(input, clientId), reason });
    } else {
      this.forbiddenDropped++;
    }
  }

  /** Consensus tally; null under every other policy. */
  progress(): ConsensusProgress | null {
    const { ballot } = this;
    if (ballot === undefined) return null;
    return {
      requestId: this.record.requestId,
      quorum: ballot.quorum,
      voters: ballot.voterCount,
      votesCast: this.counted.length,
      votesNeeded: ballot.votesNeeded(),
      tally: ballot.tally(this.counted),
    };
  }

  /** Resolves the request's promise with its decision; the caller guarantees it runs once. */
  decide(resolution: PermissionResolution, reason: DecisionReason, decidedAtMs: number): void {
    const { record, ballot } = this;
    this.settle({
      requestId: record.requestId,
      sessionId: record.sessionId,
      promptId: record.promptId,
      originatorClientId: record.originatorClientId,
      policy: this.policy,
      reason,
      resolution,
      quorum: ballot?.quorum,
      voters: ballot?.voters.ids,
      votes: this.votes ?? [],
      forbidden: this.forbidden ?? [],
      forbiddenDropped: this.forbiddenDropped,
      issuedAtMs: record.issuedAtMs,
      decidedAtMs,
    });
  }
}

export function auditedVote(input: PermissionVoteInput, clientId: string | undefined): AuditedVote {
  return {
    clientId,
    optionId: input.optionId,
    fromLoopback: input.fromLoopback === true,
    identityProven: input.identityProven === true,
    receivedAtMs: input.receivedAtMs,
    metadata: input.metadata,
  };
}

/**
 * The pending requests by id, in arrival order, and by session, so a session's requests end
 * without a scan.
 */
export class PendingRequests<V = undefined> {
  private readonly byId = new Map<string, PendingRequest<V>>();
  private readonly bySession = new Map<string, Set<string>>();

  get(requestId: string): PendingRequest<V> | undefined {
    return this.byId.get(requestId);
  }

  has(requestId: string): boolean {
    return this.byId.has(requestId);
  }

  add(entry: PendingRequest<V>): void {
    const { requestId, sessionId } = entry.record;
    this.byId.set(requestId, entry);
    let ids = this.bySession.get(sessionId);
    if (ids === undefined) {
      ids = new Set();
      this.bySession.set(sessionId, ids);
    }
    ids.add(requestId);
  }

  /** Removes `entry` if it is still the one pending under its id. */
  remove(entry: PendingRequest<V>): void {
    const { requestId, sessionId } = entry.record;
    if (this.byId.get(requestId) !== entry) return;
    this.byId.delete(requestId);
    const ids = this.bySession.get(sessionId);
    if (ids === undefined) return;
    ids.delete(requestId);
    if (ids.size === 0) this.bySession.delete(sessionId);
  }

  /** The session's pending requests, collected first so a listener's re-entry cannot change the list. */
  ofSession(sessionId: string): PendingRequest<V>[] {
    const ids = this.bySession.get(sessionId);
    if (ids === undefined) return [];
    return [...ids].flatMap((id) => this.byId.get(id) ?? []);
  }

  /**
   * Detaches the session's requests for the caller to end: while it ends them, the session has no
   * pending request as far as a re-entering listener can see, and requests issued meanwhile are
   * not swept up.
   */
  takeSession(sessionId: string): PendingRequest<V>[] {
    const taken = this.ofSession(sessionId);
    this.bySession.delete(sessionId);
    return taken;
  }

  /** Every pending request, oldest first: a Map iterates in insertion order, and each is added once, on arrival. */
  values(): IterableIterator<PendingRequest<V>> {
    return this.byId.values();
  }

  count(sessionId?: string): number {
    if (sessionId === undefined) return this.byId.size;
    return this.bySession.get(sessionId)?.size ?? 0;
  }
}
