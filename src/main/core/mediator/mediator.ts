import { DECISION_REASON, refusal } from './admission';
import { ConsensusBallot } from './consensus';
import {
  CancelSentinelCollisionError,
  DuplicatePermissionRequestError,
  InvalidPermissionOptionError,
} from './errors';
import { GuardedListeners, type MediatorListeners } from './listeners';
import { auditedVote, PendingRequest, PendingRequests } from './pending';
import { assertConsensusQuorum, assertPermissionPolicy } from './policy-config';
import { ResolvedRecords } from './resolved-records';
import { VoterRolls } from './voter-roll';
import { clampPermissionTimeoutMs, MAX_PERMISSION_TIMEOUT_MS } from './timeouts';
import {
  CANCEL_VOTE_SENTINEL,
  MAX_RESOLVED_PERMISSION_RECORDS,
  type ConsensusProgress,
  type DecisionReason,
  type ForbiddenReason,
  type PermissionDecision,
  type PermissionMediator,
  type PermissionPolicy,
  type PermissionRequestOptions,
  type PermissionRequestRecord,
  type PermissionResolution,
  type PermissionVoteInput,
  type PermissionVoteOutcome,
} from './types';

export interface MultiClientPermissionMediatorOptions extends MediatorListeners {
  /** Client ids attached to the session; read once per consensus request, at issue time. */
  votersForSession(sessionId: string): Iterable<string>;
  /** Fixed N for consensus instead of the majority of the voter snapshot. */
  consensusQuorum?: number;
  now?: () => number;
  maxResolvedPerSession?: number;
  setTimer?: (callback: () => void, delayMs: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** `request`'s last argument: optional only for a mediator whose requests carry no view. */
type ViewArgument<V> = undefined extends V ? [view?: V] : [view: V];

/**
 * Owns every pending and recently resolved permission request and decides each
 * one under the policy captured when it was issued.
 *
 * Consensus choices: the quorum is `consensusQuorum` if configured, else a
 * strict majority of the issue-time voter snapshot. A quorum larger than the
 * snapshot is not lowered to fit (that would let one operator approve what was
 * configured to need two): it can never be met, so the request ends at once as
 * `split_vote`. Ballots are final; repeating the same vote is idempotent and a
 * different second vote is `forbidden{already_voted}`.
 *
 * Designated with no `originatorClientId` fails closed: no vote can resolve it,
 * only a cancel, `cancelForPrompt`, `forgetSession`, `withdraw` or the timeout.
 *
 * It is also the one holder of what waits: each pending request carries the caller's view of it
 * (`V`, the pipeline's approval as clients are shown it), listed by `views`, `viewOf` and
 * `pendingCount` while the request is pending and gone from all three the moment it ends.
 */
export class MultiClientPermissionMediator<V = undefined> implements PermissionMediator {
  readonly policy: PermissionPolicy;

  private readonly listeners: GuardedListeners;
  private readonly votersForSession: MultiClientPermissionMediatorOptions['votersForSession'];
  private readonly consensusQuorum: number | undefined;
  private readonly now: () => number;
  // Looked up on each call, not captured, so fake timers installed later still apply.
  private readonly setTimer: (callback: () => void, delayMs: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  private readonly pending = new PendingRequests<V>();
  private readonly resolved: ResolvedRecords;
  private readonly voterRolls = new VoterRolls();
  /** Counts request() calls, so a re-entrant call from foreign code is noticed without a lookup. */
  private requestCalls = 0;

  constructor(policy: PermissionPolicy, options: MultiClientPermissionMediatorOptions) {
    assertPermissionPolicy(policy);
    if (options.consensusQuorum !== undefined) assertConsensusQuorum(options.consensusQuorum);
    const maxResolved = options.maxResolvedPerSession ?? MAX_RESOLVED_PERMISSION_RECORDS;
    if (!Number.isSafeInteger(maxResolved) || maxResolved < 1) {
      throw new RangeError(`maxResolvedPerSession must be a positive integer, got ${maxResolved}`);
    }
    this.policy = policy;
    this.listeners = new GuardedListeners(options);
    this.votersForSession = options.votersForSession;
    this.consensusQuorum = options.consensusQuorum;
    this.now = options.now ?? (() => Date.now());
    this.setTimer = options.setTimer ?? ((callback, delayMs) => setTimeout(callback, delayMs));
    this.clearTimer =
      options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
    this.resolved = new ResolvedRecords(maxResolved);
  }

  /**
   * Never rejects: resolves with the decision once the request ends, however it ends. Misuse by
   * the caller (a duplicate id, an option spelled like the cancel sentinel, an unknown policy
   * override) throws synchronously and leaves every existing request untouched. `view` is held
   * with the request while it is pending.
   */
  request(
    record: PermissionRequestRecord,
    timeoutMs: number,
    options?: PermissionRequestOptions,
    ...[view]: ViewArgument<V>
  ): Promise<PermissionDecision> {
    this.requestCalls++;
    const { requestId, sessionId } = record;
    if (record.allowedOptionIds.includes(CANCEL_VOTE_SENTINEL)) {
      throw new CancelSentinelCollisionError(requestId);
    }
    this.assertFresh(requestId);
    const policy = options?.policy ?? this.policy;
    assertPermissionPolicy(policy);
    const quorumOverride = options?.consensusQuorum ?? this.consensusQuorum;
    if (quorumOverride !== undefined) assertConsensusQuorum(quorumOverride);

    // A snapshot, so later mutation of the caller's record cannot change the rules mid-flight.
    const snapshot: PermissionRequestRecord = {
      ...record,
      allowedOptionIds: record.allowedOptionIds.slice(),
    };
    let ballot: ConsensusBallot | undefined;
    if (policy === 'consensus') {
      const calls = this.requestCalls;
      const voters = this.voterRolls.of(this.votersForSession(sessionId));
      ballot = new ConsensusBallot(snapshot.allowedOptionIds, voters, quorumOverride);
      // votersForSession is foreign code and may have re-entered request() (checked only then:
      // this is the issue path of every consensus request).
      if (this.requestCalls !== calls) this.assertFresh(requestId);
    }

    // `ViewArgument` lets the view be left out only when undefined is a V.
    const entry = new PendingRequest<V>(snapshot, policy, ballot, view as V);
    if (ballot !== undefined && !ballot.canAnyOptionStillWin(0)) {
      this.conclude(entry, { kind: 'cancelled', reason: 'split_vote' }, 'split-vote');
      return entry.decided;
    }

    const delayMs = clampPermissionTimeoutMs(timeoutMs);
    entry.expiresAtMs = this.now() + delayMs;
    // N1: the timer exists before the entry is reachable, so whatever removes or
    // forgets the entry later, nothing can leave its promise pending forever.
    entry.timer = this.setTimer(() => this.onTimeout(entry), delayMs);
    this.pending.add(entry);
    return entry.decided;
  }

  /**
   * Throws `InvalidPermissionOptionError` (and changes nothing) for an option the
   * request does not offer; the command layer reports it as invalid input.
   */
  vote(input: PermissionVoteInput): PermissionVoteOutcome {
    const entry = this.pending.get(input.requestId);
    if (entry === undefined) return this.lateVote(input);
    if (input.sessionId !== undefined && input.sessionId !== entry.record.sessionId) {
      return { kind: 'unknown_request' };
    }
    const clientId = input.clientId === '' ? undefined : input.clientId;

    // Routed before any policy check on purpose: every voter may abort under
    // every policy (it can only deny, never grant). Keep it above `refusal()`.
    if (input.optionId === CANCEL_VOTE_SENTINEL) {
      entry.countVote(input, clientId);
      this.conclude(
        entry,
        clientId === undefined
          ? { kind: 'cancelled', reason: 'voter_cancelled' }
          : { kind: 'cancelled', reason: 'voter_cancelled', clientId },
        'voter-cancelled',
      );
      return { kind: 'cancelled', reason: 'voter_cancelled' };
    }

    if (!entry.record.allowedOptionIds.includes(input.optionId)) {
      throw new InvalidPermissionOptionError(input.optionId, input.requestId);
    }

    const reason = refusal(entry.policy, entry.record, entry.ballot, input, clientId);
    if (reason !== null) return this.forbid(entry, input, clientId, reason);
    if (entry.ballot === undefined) return this.decide(entry, input, clientId);
    // refusal() admits no anonymous vote under consensus.
    return this.castBallot(entry, entry.ballot, input, clientId as string);
  }

  forgetSession(sessionId: string): void {
    for (const entry of this.pending.takeSession(sessionId)) {
      // A listener may have ended it already, while an earlier one was concluded.
      if (this.pending.get(entry.record.requestId) !== entry) continue;
      this.conclude(entry, { kind: 'cancelled', reason: 'session_closed' }, 'session-closed');
    }
    this.resolved.forgetSession(sessionId);
  }

  /** The agent cancelled its turn. Without `promptId`, every pending request of the session. */
  cancelForPrompt(sessionId: string, promptId?: string): number {
    const matching = this.pending
      .ofSession(sessionId)
      .filter((entry) => promptId === undefined || entry.record.promptId === promptId);
    let cancelled = 0;
    for (const entry of matching) {
      if (this.pending.get(entry.record.requestId) !== entry) continue;
      this.conclude(entry, { kind: 'cancelled', reason: 'agent_cancelled' }, 'agent-cancelled');
      cancelled++;
    }
    return cancelled;
  }

  /**
   * Ends a pending request no vote is needed for any more. False when it has already ended: a vote
   * and a withdrawal racing each other end it once, whichever comes first.
   */
  withdraw(requestId: string): boolean {
    const entry = this.pending.get(requestId);
    if (entry === undefined) return false;
    this.conclude(entry, { kind: 'cancelled', reason: 'withdrawn' }, 'withdrawn');
    return true;
  }

  /** The session of a pending or still-remembered resolved request. */
  peekSessionFor(requestId: string): string | undefined {
    return this.pending.get(requestId)?.record.sessionId ?? this.resolved.get(requestId)?.sessionId;
  }

  pendingCount(sessionId?: string): number {
    return this.pending.count(sessionId);
  }

  /** The view a pending request was issued with; undefined once it has ended. */
  viewOf(requestId: string): V | undefined {
    return this.pending.get(requestId)?.view;
  }

  /** The views of the pending requests, oldest first. */
  *views(): Generator<V, void, undefined> {
    for (const entry of this.pending.values()) yield entry.view;
  }

  expiresAt(requestId: string): number | null {
    return this.pending.get(requestId)?.expiresAtMs ?? null;
  }

  /**
   * Pushes the deadline back by `extraMs` (clamped like a request timeout),
   * counted from the current deadline, but never more than the maximum timeout
   * from now. Returns the new deadline, or null when the request is not pending.
   */
  extendTimeout(requestId: string, extraMs: number): number | null {
    const entry = this.pending.get(requestId);
    if (entry === undefined) return null;
    const now = this.now();
    const expiresAtMs = Math.min(
      Math.max(entry.expiresAtMs, now) + clampPermissionTimeoutMs(extraMs),
      now + MAX_PERMISSION_TIMEOUT_MS,
    );
    if (expiresAtMs <= entry.expiresAtMs) return entry.expiresAtMs;
    // Armed before the old one is cleared so the entry is never without a timer (N1).
    const timer = this.setTimer(() => this.onTimeout(entry), expiresAtMs - now);
    if (entry.timer !== undefined) this.clearTimer(entry.timer);
    entry.timer = timer;
    entry.expiresAtMs = expiresAtMs;
    this.listeners.emit(entry.record.sessionId, {
      type: 'permission_timeout_extended',
      requestId,
      sessionId: entry.record.sessionId,
      promptId: entry.record.promptId,
      expiresAtMs,
    });
    return expiresAtMs;
  }

  /** Consensus tally of a pending request; null otherwise. */
  progress(requestId: string): ConsensusProgress | null {
    return this.pending.get(requestId)?.progress() ?? null;
  }

  private assertFresh(requestId: string): void {
    if (this.pending.has(requestId) || this.resolved.has(requestId)) {
      throw new DuplicatePermissionRequestError(requestId);
    }
  }

  /** Consensus: `clientId` is an admitted voter of this ballot. */
  private castBallot(
    entry: PendingRequest<V>,
    ballot: ConsensusBallot,
    input: PermissionVoteInput,
    clientId: string,
  ): PermissionVoteOutcome {
    const { optionId } = input;
    const previous = ballot.ballotOf(entry.counted, clientId);
    if (previous === optionId) {
      // A retried request from the same voter: answer as before, record nothing.
      return {
        kind: 'recorded',
        votesNeeded: ballot.votesNeeded(),
        tally: ballot.tally(entry.counted),
      };
    }
    if (previous !== undefined) return this.forbid(entry, input, clientId, 'already_voted');

    entry.countVote(input, clientId);
    const ballots = entry.counted;
    if (ballot.count(ballots, optionId) >= ballot.quorum) {
      this.conclude(
        entry,
        {
          kind: 'option',
          optionId,
          decidedBy: {
            reason: 'consensus-quorum',
            clientIds: ballot.supportersOf(ballots, optionId),
          },
        },
        'consensus-quorum',
      );
      return { kind: 'resolved', resolvedOptionId: optionId };
    }
    if (!ballot.canAnyOptionStillWin(ballots.length)) {
      this.conclude(entry, { kind: 'cancelled', reason: 'split_vote' }, 'split-vote');
      return { kind: 'cancelled', reason: 'split_vote' };
    }
    const votesNeeded = ballot.votesNeeded();
    const tally = ballot.tally(ballots);
    this.listeners.emit(entry.record.sessionId, {
      type: 'permission_partial_vote',
      requestId: entry.record.requestId,
      sessionId: entry.record.sessionId,
      promptId: entry.record.promptId,
      clientId,
      optionId,
      tally,
      votesNeeded,
      quorum: ballot.quorum,
      voters: ballot.voterCount,
      votesCast: ballots.length,
    });
    return { kind: 'recorded', votesNeeded, tally };
  }

  /** Every policy but consensus: the one admitted vote decides. */
  private decide(
    entry: PendingRequest<V>,
    input: PermissionVoteInput,
    clientId: string | undefined,
  ): PermissionVoteOutcome {
    const reason = DECISION_REASON[entry.policy];
    entry.countVote(input, clientId);
    this.conclude(
      entry,
      {
        kind: 'option',
        optionId: input.optionId,
        decidedBy: { reason, clientIds: clientId === undefined ? [] : [clientId] },
      },
      reason,
    );
    return { kind: 'resolved', resolvedOptionId: input.optionId };
  }

  private forbid(
    entry: PendingRequest<V>,
    input: PermissionVoteInput,
    clientId: string | undefined,
    reason: ForbiddenReason,
  ): PermissionVoteOutcome {
    entry.refuseVote(input, clientId, reason);
    this.listeners.emit(entry.record.sessionId, {
      type: 'permission_forbidden',
      requestId: entry.record.requestId,
      sessionId: entry.record.sessionId,
      promptId: entry.record.promptId,
      policy: entry.policy,
      reason,
      clientId,
    });
    return { kind: 'forbidden', reason };
  }

  /** Answered to the voter and audited, never broadcast: the channel already saw the resolution. */
  private lateVote(input: PermissionVoteInput): PermissionVoteOutcome {
    const prior = this.resolved.get(input.requestId);
    if (
      prior === undefined ||
      (input.sessionId !== undefined && input.sessionId !== prior.sessionId)
    ) {
      return { kind: 'unknown_request' };
    }
    const clientId = input.clientId === '' ? undefined : input.clientId;
    this.listeners.lateVote({
      requestId: input.requestId,
      sessionId: prior.sessionId,
      resolvedOptionId: prior.resolvedOptionId,
      ...auditedVote(input, clientId),
    });
    return { kind: 'already_resolved', resolvedOptionId: prior.resolvedOptionId };
  }

  private onTimeout(entry: PendingRequest<V>): void {
    if (this.pending.get(entry.record.requestId) !== entry) return;
    entry.timer = undefined;
    this.conclude(entry, { kind: 'cancelled', reason: 'timeout' }, 'timeout');
  }

  /**
   * The one way out of pending. State is settled before anything foreign runs,
   * so a listener that re-enters (votes, forgets the session) sees a consistent
   * mediator, and a listener that throws cannot stop the promise resolving.
   */
  private conclude(
    entry: PendingRequest<V>,
    resolution: PermissionResolution,
    reason: DecisionReason,
  ): void {
    const { requestId, sessionId } = entry.record;
    if (entry.timer !== undefined) {
      this.clearTimer(entry.timer);
      entry.timer = undefined;
    }
    this.pending.remove(entry);
    this.resolved.add(
      requestId,
      sessionId,
      resolution.kind === 'option' ? resolution.optionId : null,
    );
    entry.decide(resolution, reason, this.now());

    this.listeners.emit(sessionId, {
      type: 'permission_resolved',
      requestId,
      sessionId,
      promptId: entry.record.promptId,
      resolution,
    });
  }
}
