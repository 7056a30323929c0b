/**
 * The mediator's contract: shared by the server (which turns wire votes into
 * `PermissionVoteInput`), the pipeline (which awaits `PermissionDecision`) and
 * the UI (which renders the outcomes). Data only.
 */
import type { GrantChoice } from '../../../shared/contract';
import { PermissionPolicy, type Surface } from '../../../shared/domain';
import type { QuestionAnswer } from '../../../shared/question';

export type { PermissionPolicy };

// Config validation and capability advertisement both read this list; the policies themselves are
// declared once, in the shared domain schema every client validates against.
export const SUPPORTED_POLICIES: readonly PermissionPolicy[] = PermissionPolicy.options;

/**
 * What the server substitutes for a voter's `{ outcome: 'cancelled' }`. It can
 * never be a real option: wire votes carrying it are refused (`assertWireOptionId`)
 * and agents publishing it are refused (`CancelSentinelCollisionError`).
 */
export const CANCEL_VOTE_SENTINEL = '__cancelled__';

/** Resolved requests remembered per session, so duplicate votes get `already_resolved`. */
export const MAX_RESOLVED_PERMISSION_RECORDS = 512;

export interface PermissionRequestRecord {
  readonly requestId: string;
  readonly sessionId: string;
  readonly originatorClientId?: string;
  readonly promptId?: string;
  readonly allowedOptionIds: readonly string[];
  readonly issuedAtMs: number;
}

export interface PermissionVote {
  /** `undefined` (or empty) means anonymous. */
  readonly clientId?: string;
  readonly optionId: string;
  /** Stamped by the server from the socket's remote address, never from a header. */
  readonly fromLoopback: boolean;
  readonly receivedAtMs: number;
  /** Stamped by the server's client registry when the client presented its secret token. */
  readonly identityProven?: boolean;
  readonly metadata?: VoteMetadata;
}

/**
 * What a vote carries for whoever reads the decision (the pipeline, the audit). The mediator
 * never looks inside: no policy may depend on what a client says about itself.
 */
export interface VoteMetadata {
  /** Where the vote was cast: a desktop surface, a browser, the API, an approval link. */
  readonly surface: Surface;
  /** False for an API client no person paired: its vote is recorded as `api`. */
  readonly paired?: boolean;
  /** The scope the voter chose for an "always" option. */
  readonly grant?: GrantChoice;
  /** The voter's words with a reject, already cleaned; only ever on a reject option's vote. */
  readonly message?: string;
  /** A question's answer, checked against its form before the vote was cast. */
  readonly answer?: QuestionAnswer;
}

export interface PermissionVoteInput extends PermissionVote {
  readonly requestId: string;
  /** When given and different from the request's session, the vote is `unknown_request`. */
  readonly sessionId?: string;
}

export type ForbiddenReason =
  | 'designated_mismatch'
  | 'not_a_voter'
  | 'identity_unproven'
  | 'remote_not_allowed'
  | 'anonymous_not_allowed'
  /** Consensus ballots are final; a different second vote from the same voter. */
  | 'already_voted';

/**
 * Votes per allowed option. Nothing inherited (its prototype is empty, frozen and has none of its
 * own), so an option named `__proto__` is just a key.
 */
export type OptionTally = Readonly<Record<string, number>>;

export type PermissionVoteOutcome =
  | { readonly kind: 'resolved'; readonly resolvedOptionId: string }
  /** This vote ended the request without an option: a voter cancel, or the split it completed. */
  | { readonly kind: 'cancelled'; readonly reason: 'voter_cancelled' | 'split_vote' }
  | { readonly kind: 'recorded'; readonly votesNeeded: number; readonly tally: OptionTally }
  /** `resolvedOptionId` is null when the request ended cancelled. */
  | { readonly kind: 'already_resolved'; readonly resolvedOptionId: string | null }
  | { readonly kind: 'forbidden'; readonly reason: ForbiddenReason }
  | { readonly kind: 'unknown_request' };

export type OptionDecisionReason =
  'first-responder' | 'designated-originator' | 'consensus-quorum' | 'local-only-loopback';

export type CancelReason =
  | 'timeout'
  | 'session_closed'
  | 'agent_cancelled'
  | 'voter_cancelled'
  | 'split_vote'
  /** No vote is needed any more: what changed since it arrived (a rule, a grant, a mode) decides. */
  | 'withdrawn';

export type PermissionResolution =
  | {
      readonly kind: 'option';
      readonly optionId: string;
      readonly decidedBy: {
        readonly reason: OptionDecisionReason;
        /** The voter(s) whose votes decided; empty when an anonymous voter decided. */
        readonly clientIds: readonly string[];
      };
    }
  | {
      readonly kind: 'cancelled';
      readonly reason: CancelReason;
      /** Only for `voter_cancelled` by an identified voter. */
      readonly clientId?: string;
    };

/** Audit vocabulary: every way a request can end. */
export type DecisionReason =
  | OptionDecisionReason
  | 'timeout'
  | 'session-closed'
  | 'agent-cancelled'
  | 'voter-cancelled'
  | 'split-vote'
  | 'withdrawn';

export interface ConsensusProgress {
  readonly requestId: string;
  readonly quorum: number;
  /** Size of the issue-time voter snapshot (M). */
  readonly voters: number;
  readonly votesCast: number;
  /** Votes the leading option still needs. */
  readonly votesNeeded: number;
  readonly tally: OptionTally;
}

export interface PermissionRequestOptions {
  /** Per-agent policy from settings; defaults to the mediator's policy. */
  readonly policy?: PermissionPolicy;
  /** Per-agent quorum; defaults to the mediator's `consensusQuorum`, then the majority formula. */
  readonly consensusQuorum?: number;
}

export interface AuditedVote {
  readonly clientId?: string;
  readonly optionId: string;
  readonly fromLoopback: boolean;
  readonly identityProven: boolean;
  readonly receivedAtMs: number;
  readonly metadata?: VoteMetadata;
}

export interface AuditedForbiddenAttempt extends AuditedVote {
  readonly reason: ForbiddenReason;
}

/** How a request ended, with everything the audit keeps about it: what `request()` resolves with. */
export interface PermissionDecision {
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

/** The half of the mediator the agent pipeline depends on. */
export interface PermissionMediator {
  readonly policy: PermissionPolicy;
  request(
    record: PermissionRequestRecord,
    timeoutMs: number,
    options?: PermissionRequestOptions,
  ): Promise<PermissionDecision>;
  vote(vote: PermissionVoteInput): PermissionVoteOutcome;
  forgetSession(sessionId: string): void;
}
