import { describe, InvalidPolicyConfigError } from './errors';
import { SUPPORTED_POLICIES, type PermissionPolicy } from './types';
import { logger } from '../log/logger';

const log = logger('policy');

export const DEFAULT_PERMISSION_POLICY: PermissionPolicy = 'first-responder';

/** The `policy` block of settings as read from JSON: nothing is trusted yet. */
export interface PolicyConfigInput {
  readonly permissionStrategy?: unknown;
  readonly consensusQuorum?: unknown;
}

export interface PolicyConfig {
  readonly policy: PermissionPolicy;
  readonly consensusQuorum?: number;
}

export function isPermissionPolicy(value: unknown): value is PermissionPolicy {
  return typeof value === 'string' && (SUPPORTED_POLICIES as readonly string[]).includes(value);
}

export function isValidConsensusQuorum(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

export function assertPermissionPolicy(value: unknown): asserts value is PermissionPolicy {
  if (!isPermissionPolicy(value)) {
    throw new InvalidPolicyConfigError(
      'permissionStrategy',
      `Unknown policy.permissionStrategy ${describe(value)}; supported: ${SUPPORTED_POLICIES.join(', ')}`,
    );
  }
}

export function assertConsensusQuorum(value: unknown): asserts value is number {
  if (!isValidConsensusQuorum(value)) {
    throw new InvalidPolicyConfigError(
      'consensusQuorum',
      `policy.consensusQuorum must be a positive integer, got ${describe(value)}`,
    );
  }
}

/**
 * Boot-time check of `settings.policy`. Throws `InvalidPolicyConfigError` for
 * operator mistakes; `null` counts as unset because JSON has no `undefined`.
 * A quorum under a non-consensus strategy is kept (per-agent consensus
 * overrides still use it) but warned about, since it is usually a mistake.
 */
export function validatePolicyConfig(
  config: PolicyConfigInput | null | undefined,
  warn: (message: string) => void = (message) => log.warn(message),
): PolicyConfig {
  if (config === null || config === undefined) return { policy: DEFAULT_PERMISSION_POLICY };
  if (typeof config !== 'object' || Array.isArray(config)) {
    throw new InvalidPolicyConfigError(
      'policy',
      `settings.policy must be an object, got ${describe(config)}`,
    );
  }
  const strategy = config.permissionStrategy ?? DEFAULT_PERMISSION_POLICY;
  assertPermissionPolicy(strategy);
  const quorum = config.consensusQuorum ?? undefined;
  if (quorum === undefined) return { policy: strategy };
  assertConsensusQuorum(quorum);
  if (strategy !== 'consensus') {
    warn(
      `policy.consensusQuorum (${quorum}) is set but policy.permissionStrategy is '${strategy}'; ` +
        'the quorum only applies to requests running under the consensus policy',
    );
  }
  return { policy: strategy, consensusQuorum: quorum };
}
