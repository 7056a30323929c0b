/**
 * What the mediator publishes besides its decisions: events on a session's
 * channel (seen by every client of that session) and late votes (for the audit).
 */
import type {
  AuditedVote,
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

/** A vote that arrived after its request was decided; answered to the voter, never broadcast. */
export interface PermissionLateVote extends AuditedVote {
  readonly requestId: string;
  readonly sessionId: string;
  readonly resolvedOptionId: string | null;
}
