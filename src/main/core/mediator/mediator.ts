import { DECISION_REASON, refusal } from './admission';
import { ConsensusBallot, consensusQuorumFor } from './consensus';
import {
  CancelSentinelCollisionError,
  DuplicatePermissionRequestError,
  InvalidPermissionOptionError,
} from './errors';
import type {
  AuditedForbiddenAttempt,
  AuditedVote,
  PermissionAuditRecord,
  PermissionMediatorEvent,
} from './events';
import { assertConsensusQuorum, assertPermissionPolicy } from './policy-config';
import { ResolvedRecords } from './resolved-records';
import { clampPermissionTimeoutMs, MAX_PERMISSION_TIMEOUT_MS } from './timeouts';
import {
  CANCEL_VOTE_SENTINEL,
  MAX_RESOLVED_PERMISSION_RECORDS,
  type ConsensusProgress,
  type DecisionReason,
  type ForbiddenReason,
  type PermissionMediator,
  type PermissionPolicy,
  type PermissionRequestOptions,
  type PermissionRequestRecord,
  type PermissionResolution,
  type PermissionVoteInput,
  type PermissionVoteOutcome,
} from './types';
import { logger } from '../log/logger';

const log = logger('mediator');

/** Refused votes kept per request for the audit record; the rest are only counted. */
export const MAX_AUDITED_FORBIDDEN_ATTEMPTS = 64;

export interface MultiClientPermissionMediatorOptions {
  /** Publishes on the session's channel. May throw; the mediator carries on. */
  emit(sessionId: string, event: PermissionMediatorEvent): void;
  /** May throw; the mediator carries on. */
  audit(record: PermissionAuditRecord): void;
  /** Client ids attached to the session; read once per consensus request, at issue time. */
  votersForSession(sessionId: string): Iterable<string>;
  /** Fixed N for consensus instead of the majority of the voter snapshot. */
  consensusQuorum?: number;
  now?: () => number;
  maxResolvedPerSession?: number;
  setTimer?: (callback: () => void, delayMs: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Where a throwing emit/audit is reported. Defaults to the log. */
  reportError?: (error: unknown, source: 'emit' | 'audit') => void;
}

interface PendingEntry {
  readonly record: PermissionRequestRecord;
  readonly policy: PermissionPolicy;
  readonly settle: (resolution: PermissionResolution) => void;
  readonly ballot: ConsensusBallot | undefined;
  timer: unknown;
  expiresAtMs: number;
  votes: AuditedVote[] | undefined;
  forbidden: AuditedForbiddenAttempt[] | undefined;
  forbiddenDropped: number;
}

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
 * only a cancel, `cancelForPrompt`, `forgetSession` or the timeout.
 */
export class MultiClientPermissionMediator implements PermissionMediator {
  readonly policy: PermissionPolicy;

  private readonly emitFn: MultiClientPermissionMediatorOptions['emit'];
  private readonly auditFn: MultiClientPermissionMediatorOptions['audit'];
  private readonly votersForSession: MultiClientPermissionMediatorOptions['votersForSession'];
  private readonly reportError: NonNullable<MultiClientPermissionMediatorOptions['reportError']>;
  private readonly consensusQuorum: number | undefined;
  private readonly now: () => number;
  // Looked up on each call, not captured, so fake timers installed later still apply.
  private readonly setTimer: (callback: () => void, delayMs: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  private readonly pending = new Map<string, PendingEntry>();
  private readonly pendingBySession = new Map<string, Set<string>>();
  private readonly resolved: ResolvedRecords;

  constructor(policy: PermissionPolicy, options: MultiClientPermissionMediatorOptions) {
    assertPermissionPolicy(policy);
    if (options.consensusQuorum !== undefined) assertConsensusQuorum(options.consensusQuorum);
    const maxResolved = options.maxResolvedPerSession ?? MAX_RESOLVED_PERMISSION_RECORDS;
    if (!Number.isSafeInteger(maxResolved) || maxResolved < 1) {
      throw new RangeError(`maxResolvedPerSession must be a positive integer, got ${maxResolved}`);
    }
    this.policy = policy;
    this.emitFn = options.emit;
    this.auditFn = options.audit;
    this.votersForSession = options.votersForSession;
    this.reportError =
      options.reportError ??
      ((error, source) => log.error(`${source} threw`, error));
    this.consensusQuorum = options.consensusQuorum;
    this.now = options.now ?? (() => Date.now());
    this.setTimer = options.setTimer ?? ((callback, delayMs) => setTimeout(callback, delayMs));
    this.clearTimer =
      options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
    this.resolved = new ResolvedRecords(maxResolved);
  }

  /**
   * Never rejects. Misuse by the caller (a duplicate id, an option spelled like
   * the cancel sentinel, an unknown policy override) throws synchronously and
   * leaves every existing request untouched.
   */
  request(
    record: PermissionRequestRecord,
    timeoutMs: number,
    options?: PermissionRequestOptions,
  ): Promise<PermissionResolution> {
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
      const voters = new Set(this.votersForSession(sessionId));
      ballot = new ConsensusBallot(
        snapshot.allowedOptionIds,
        voters,
        quorumOverride ?? consensusQuorumFor(voters.size),
      );
      // votersForSession is foreign code and may have re-entered request().
      this.assertFresh(requestId);
    }

    let settle!: (resolution: PermissionResolution) => void;
    const promise = new Promise<PermissionResolution>((resolve) => {
      settle = resolve;
    });
    const entry: PendingEntry = {
      record: snapshot,
      policy,
      settle,
      ballot,
      timer: undefined,
      expiresAtMs: 0,
      votes: undefined,
      forbidden: undefined,
      forbiddenDropped: 0,
    };

    if (ballot !== undefined && !ballot.canAnyOptionStillWin()) {
      this.conclude(entry, { kind: 'cancelled', reason: 'split_vote' }, 'split-vote');
      return promise;
    }

    const delayMs = clampPermissionTimeoutMs(timeoutMs);
    entry.expiresAtMs = this.now() + delayMs;
    // N1: the timer exists before the entry is reachable, so whatever removes or
    // forgets the entry later, nothing can leave its promise pending forever.
    entry.timer = this.setTimer(() => this.onTimeout(entry), delayMs);
    this.pending.set(requestId, entry);
    let ids = this.pendingBySession.get(sessionId);
    if (ids === undefined) {
      ids = new Set();
      this.pendingBySession.set(sessionId, ids);
    }
    ids.add(requestId);
    return promise;
  }

  /**
   * Throws `InvalidPermissionOptionError` (and changes nothing) for an option the
   * request does not offer; the server maps that to 400.
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
      this.recordVote(entry, input, clientId);
      this.conclude(
        entry,
        clientId === undefined
          ? { kind: 'cancelled', reason: 'voter_cancelled' }
          : { kind: 'cancelled', reason: 'voter_cancelled', clientId },
        'voter-cancelled',
      );
      return { kind: 'cancelled', reason: 'voter_cancelled' };
    }

    const optionIndex = entry.record.allowedOptionIds.indexOf(input.optionId);
    if (optionIndex < 0) throw new InvalidPermissionOptionError(input.optionId, input.requestId);

    const reason = refusal(entry.policy, entry.record, entry.ballot, input, clientId);
    if (reason !== null) return this.forbid(entry, input, clientId, reason);
    if (entry.ballot === undefined) return this.decide(entry, input, clientId);
    // refusal() admits no anonymous vote under consensus.
    return this.castBallot(entry, entry.ballot, input, clientId as string, optionIndex);
  }

  forgetSession(sessionId: string): void {
    const ids = this.pendingBySession.get(sessionId);
    if (ids !== undefined) {
      this.pendingBySession.delete(sessionId);
      for (const id of ids) {
        const entry = this.pending.get(id);
        if (entry !== undefined) {
          this.conclude(entry, { kind: 'cancelled', reason: 'session_closed' }, 'session-closed');
        }
      }
    }
    this.resolved.forgetSession(sessionId);
  }

  /** The agent cancelled its turn. Without `promptId`, every pending request of the session. */
  cancelForPrompt(sessionId: string, promptId?: string): number {
    const ids = this.pendingBySession.get(sessionId);
    if (ids === undefined) return 0;
    // Collected first so requests issued re-entrantly by a listener are not swept up.
    const matching: PendingEntry[] = [];
    for (const id of ids) {
      const entry = this.pending.get(id);
      if (entry !== undefined && (promptId === undefined || entry.record.promptId === promptId)) {
        matching.push(entry);
      }
    }
    let cancelled = 0;
    for (const entry of matching) {
      if (this.pending.get(entry.record.requestId) !== entry) continue;
      this.conclude(entry, { kind: 'cancelled', reason: 'agent_cancelled' }, 'agent-cancelled');
      cancelled++;
    }
    return cancelled;
  }

  /** The session of a pending or still-remembered resolved request. */
  peekSessionFor(requestId: string): string | undefined {
    return this.pending.get(requestId)?.record.sessionId ?? this.resolved.get(requestId)?.sessionId;
  }

  pendingCount(sessionId?: string): number {
    if (sessionId === undefined) return this.pending.size;
    return this.pendingBySession.get(sessionId)?.size ?? 0;
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
    this.safeEmit(entry.record.sessionId, {
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
    const ballot = this.pending.get(requestId)?.ballot;
    if (ballot === undefined) return null;
    return {
      requestId,
      quorum: ballot.quorum,
      voters: ballot.voterCount,
      votesCast: ballot.votesCast,
      votesNeeded: ballot.votesNeeded(),
      tally: ballot.tally(),
    };
  }

  private assertFresh(requestId: string): void {
    if (this.pending.has(requestId) || this.resolved.has(requestId)) {
      throw new DuplicatePermissionRequestError(requestId);
    }
  }

  /** Consensus: `clientId` is an admitted voter of this ballot. */
  private castBallot(
    entry: PendingEntry,
    ballot: ConsensusBallot,
    input: PermissionVoteInput,
    clientId: string,
    optionIndex: number,
  ): PermissionVoteOutcome {
    const previous = ballot.ballotOf(clientId);
    if (previous === optionIndex) {
      // A retried request from the same voter: answer as before, record nothing.
      return { kind: 'recorded', votesNeeded: ballot.votesNeeded(), tally: ballot.tally() };
    }
    if (previous !== undefined) return this.forbid(entry, input, clientId, 'already_voted');

    const count = ballot.cast(clientId, optionIndex);
    this.recordVote(entry, input, clientId);
    if (count >= ballot.quorum) {
      this.conclude(
        entry,
        {
          kind: 'option',
          optionId: input.optionId,
          decidedBy: { reason: 'consensus-quorum', clientIds: ballot.supportersOf(optionIndex) },
        },
        'consensus-quorum',
      );
      return { kind: 'resolved', resolvedOptionId: input.optionId };
    }
    if (!ballot.canAnyOptionStillWin()) {
      this.conclude(entry, { kind: 'cancelled', reason: 'split_vote' }, 'split-vote');
      return { kind: 'cancelled', reason: 'split_vote' };
    }
    const votesNeeded = ballot.votesNeeded();
    const tally = ballot.tally();
    this.safeEmit(entry.record.sessionId, {
      type: 'permission_partial_vote',
      requestId: entry.record.requestId,
      sessionId: entry.record.sessionId,
      promptId: entry.record.promptId,
      clientId,
      optionId: input.optionId,
      tally,
      votesNeeded,
      quorum: ballot.quorum,
      voters: ballot.voterCount,
      votesCast: ballot.votesCast,
    });
    return { kind: 'recorded', votesNeeded, tally };
  }

  /** Every policy but consensus: the one admitted vote decides. */
  private decide(
    entry: PendingEntry,
    input: PermissionVoteInput,
    clientId: string | undefined,
  ): PermissionVoteOutcome {
    const reason = DECISION_REASON[entry.policy];
    this.recordVote(entry, input, clientId);
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
    entry: PendingEntry,
    input: PermissionVoteInput,
    clientId: string | undefined,
    reason: ForbiddenReason,
  ): PermissionVoteOutcome {
    const forbidden = (entry.forbidden ??= []);
    if (forbidden.length < MAX_AUDITED_FORBIDDEN_ATTEMPTS) {
      forbidden.push({ ...auditedVote(input, clientId), reason });
    } else {
      entry.forbiddenDropped++;
    }
    this.safeEmit(entry.record.sessionId, {
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
    this.safeAudit({
      kind: 'late_vote',
      requestId: input.requestId,
      sessionId: prior.sessionId,
      resolvedOptionId: prior.resolvedOptionId,
      ...auditedVote(input, clientId),
    });
    return { kind: 'already_resolved', resolvedOptionId: prior.resolvedOptionId };
  }

  private onTimeout(entry: PendingEntry): void {
    if (this.pending.get(entry.record.requestId) !== entry) return;
    entry.timer = undefined;
    this.conclude(entry, { kind: 'cancelled', reason: 'timeout' }, 'timeout');
  }

  private recordVote(
    entry: PendingEntry,
    input: PermissionVoteInput,
    clientId: string | undefined,
  ): void {
    (entry.votes ??= []).push(auditedVote(input, clientId));
  }

  /**
   * The one way out of pending. State is settled before anything foreign runs,
   * so a listener that re-enters (votes, forgets the session) sees a consistent
   * mediator, and a listener that throws cannot stop the promise resolving.
   */
  private conclude(
    entry: PendingEntry,
    resolution: PermissionResolution,
    reason: DecisionReason,
  ): void {
    const { requestId, sessionId } = entry.record;
    if (entry.timer !== undefined) {
      this.clearTimer(entry.timer);
      entry.timer = undefined;
    }
    if (this.pending.get(requestId) === entry) {
      this.pending.delete(requestId);
      const ids = this.pendingBySession.get(sessionId);
      if (ids !== undefined) {
        ids.delete(requestId);
        if (ids.size === 0) this.pendingBySession.delete(sessionId);
      }
    }
    this.resolved.add(
      requestId,
      sessionId,
      resolution.kind === 'option' ? resolution.optionId : null,
    );
    entry.settle(resolution);

    this.safeEmit(sessionId, {
      type: 'permission_resolved',
      requestId,
      sessionId,
      promptId: entry.record.promptId,
      resolution,
    });
    const ballot = entry.ballot;
    this.safeAudit({
      kind: 'decision',
      requestId,
      sessionId,
      promptId: entry.record.promptId,
      originatorClientId: entry.record.originatorClientId,
      policy: entry.policy,
      reason,
      resolution,
      quorum: ballot?.quorum,
      voters: ballot?.voterList(),
      votes: entry.votes ?? [],
      forbidden: entry.forbidden ?? [],
      forbiddenDropped: entry.forbiddenDropped,
      issuedAtMs: entry.record.issuedAtMs,
      decidedAtMs: this.now(),
    });
  }

  private safeEmit(sessionId: string, event: PermissionMediatorEvent): void {
    try {
      this.emitFn(sessionId, event);
    } catch (error) {
      this.report(error, 'emit');
    }
  }

  private safeAudit(record: PermissionAuditRecord): void {
    try {
      this.auditFn(record);
    } catch (error) {
      this.report(error, 'audit');
    }
  }

  private report(error: unknown, source: 'emit' | 'audit'): void {
    try {
      this.reportError(error, source);
    } catch {
      // Nothing is left to tell; resolution must still go ahead.
    }
  }
}

function auditedVote(input: PermissionVoteInput, clientId: string | undefined): AuditedVote {
  return {
    clientId,
    optionId: input.optionId,
    fromLoopback: input.fromLoopback === true,
    identityProven: input.identityProven === true,
    receivedAtMs: input.receivedAtMs,
    metadata: input.metadata,
  };
}
