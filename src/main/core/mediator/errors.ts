/** Base class of every error the mediator throws, so callers can tell its misuse apart. */
export class PermissionMediatorError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'PermissionMediatorError';
    this.code = code;
  }
}

/** A vote named an option the agent did not offer (or the cancel sentinel on the wire). */
export class InvalidPermissionOptionError extends PermissionMediatorError {
  readonly optionId: unknown;
  readonly requestId: string | undefined;

  constructor(optionId: unknown, requestId?: string) {
    super(
      'invalid_permission_option',
      requestId === undefined
        ? `Invalid permission option ${describe(optionId)}`
        : `Option ${describe(optionId)} is not offered by permission request ${requestId}`,
    );
    this.name = 'InvalidPermissionOptionError';
    this.optionId = optionId;
    this.requestId = requestId;
  }
}

/** The agent offered an option spelled like the cancel sentinel, which would let it pass as a cancel. */
export class CancelSentinelCollisionError extends PermissionMediatorError {
  readonly requestId: string;

  constructor(requestId: string) {
    super(
      'cancel_sentinel_collision',
      `Permission request ${requestId} offers an option named like the cancel sentinel`,
    );
    this.name = 'CancelSentinelCollisionError';
    this.requestId = requestId;
  }
}

export class DuplicatePermissionRequestError extends PermissionMediatorError {
  readonly requestId: string;

  constructor(requestId: string) {
    super(
      'duplicate_permission_request',
      `Permission request ${requestId} is already pending or recently resolved`,
    );
    this.name = 'DuplicatePermissionRequestError';
    this.requestId = requestId;
  }
}

/** Operator misconfiguration: boot should fail loudly rather than fall back to defaults. */
export class InvalidPolicyConfigError extends PermissionMediatorError {
  readonly field: 'permissionStrategy' | 'consensusQuorum' | 'policy';

  constructor(field: InvalidPolicyConfigError['field'], message: string) {
    super('invalid_policy_config', message);
    this.name = 'InvalidPolicyConfigError';
    this.field = field;
  }
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function') return typeof value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
