export {
  MultiClientPermissionMediator,
  type MultiClientPermissionMediatorOptions,
} from './mediator';
export { MAX_AUDITED_FORBIDDEN_ATTEMPTS } from './pending';
export { consensusQuorumFor } from './consensus';
export {
  PermissionMediatorError,
  InvalidPermissionOptionError,
  CancelSentinelCollisionError,
  DuplicatePermissionRequestError,
  InvalidPolicyConfigError,
} from './errors';
export {
  validatePolicyConfig,
  isPermissionPolicy,
  isValidConsensusQuorum,
  DEFAULT_PERMISSION_POLICY,
  type PolicyConfig,
  type PolicyConfigInput,
} from './policy-config';
export {
  clampPermissionTimeoutMs,
  DEFAULT_PERMISSION_TIMEOUT_MS,
  MIN_PERMISSION_TIMEOUT_MS,
  MAX_PERMISSION_TIMEOUT_MS,
} from './timeouts';
export { assertWireOptionId } from './wire';
export {
  SUPPORTED_POLICIES,
  CANCEL_VOTE_SENTINEL,
  MAX_RESOLVED_PERMISSION_RECORDS,
  type PermissionPolicy,
  type PermissionRequestRecord,
  type PermissionVote,
  type PermissionVoteInput,
  type VoteMetadata,
  type PermissionVoteOutcome,
  type PermissionResolution,
  type PermissionDecision,
  type AuditedVote,
  type AuditedForbiddenAttempt,
  type PermissionRequestOptions,
  type PermissionMediator,
  type ForbiddenReason,
  type OptionTally,
  type OptionDecisionReason,
  type CancelReason,
  type DecisionReason,
  type ConsensusProgress,
} from './types';
export type { PermissionMediatorEvent, PermissionLateVote } from './events';
