/**
 * What the mediator publishes: events on a session's channel (seen by every
 * client of that session) and audit records (kept by the audit log).
 */
import type {
  DecisionReason,
  ForbiddenReason,
  OptionTally,
  PermissionPolicy,
  PermissionResolution,
} from './types';

interface EventBase {
  readonly requestId: string;
  readonly sessionId: string;
  readonly promptId?: string;
}

export type PermissionMediatorEvent =
  /** Consensus only: lets every dialog render progress. */
  | (EventBase & {
      readonly type: 'permission_partial_vote';
      readonly clientId: string;
      readonly optionId: string;
      readonly tally: OptionTally;
      readonly votesNeeded: number;
      readonly quorum: number;
      readonly voters: number;
      readonly votesCast: number;
    })
  /** Designated, consensus and local-only; first-responder has nothing to forbid. */
  | (EventBase & {
      readonly type: 'permission_forbidden';
      readonly policy: PermissionPolicy;
      readonly reason: ForbiddenReason;
      readonly clientId?: string;
    })
  | (EventBase & {
      readonly type: 'permission_resolved';
      readonly resolution: PermissionResolution;
    })
  /** Keeps the countdown of every client's dialog in step after one of them extended it. */
  | (EventBase & {
      readonly type: 'permission_timeout_extended';
      readonly expiresAtMs: number;
    });

export interface AuditedVote {
  readonly clientId?: string;
  readonly optionId: string;
  readonly fromLoopback: boolean;
  readonly identityProven: boolean;
  readonly receivedAtMs: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface AuditedForbiddenAttempt extends AuditedVote {
  readonly reason: ForbiddenReason;
}

export interface PermissionDecisionAudit {
  readonly kind: 'decision';
  readonly requestId: string;
  readonly sessionId: string;
  readonly promptId?: string;
  readonly originatorClientId?: string;
  readonly policy: PermissionPolicy;
  readonly reason: DecisionReason;
  readonly resolution: PermissionResolution;
  /** Consensus only. */
  readonly quorum?: number;
  /** Consensus only: the issue-time voter snapshot. */
  readonly voters?: readonly string[];
  /** Votes that counted, in arrival order (including a cancel vote). */
  readonly votes: readonly AuditedVote[];
  /** Refused votes, capped per request so a spamming client cannot grow memory. */
  readonly forbidden: readonly AuditedForbiddenAttempt[];
  readonly forbiddenDropped: number;
  readonly issuedAtMs: number;
  readonly decidedAtMs: number;
}

/** A vote that arrived after its request was decided; answered to the voter, never broadcast. */
export interface PermissionLateVoteAudit extends AuditedVote {
  readonly kind: 'late_vote';
  readonly requestId: string;
  readonly sessionId: string;
  readonly resolvedOptionId: string | null;
}

export type PermissionAuditRecord = PermissionDecisionAudit | PermissionLateVoteAudit;
