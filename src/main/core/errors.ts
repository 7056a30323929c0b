// Errors the core raises on purpose when a command cannot do what was asked. They say what went
// wrong in the core's terms; each transport decides what that becomes on its wire. The name
// crosses IPC and HTTP so callers can tell them apart.

export type DomainErrorKind = 'invalid' | 'forbidden' | 'not_found' | 'conflict' | 'agent_gone';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;

  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** The input is well-formed but cannot be acted on (a relative folder, a rule that never matches). */
export class BadRequestError extends DomainError {
  override name = 'BadRequestError';
  readonly kind = 'invalid';
}

/** The caller may not do this (unpaired, wrong code, a used link). */
export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError';
  readonly kind = 'forbidden';
}

export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
  readonly kind = 'not_found';
}

/** The thing exists but is in a state that refuses this now (a turn already running). */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
  readonly kind = 'conflict';
}

/** The agent process is gone (crashed, killed, exited); its session is closed. */
export class AgentGoneError extends DomainError {
  override name = 'AgentGoneError';
  readonly kind = 'agent_gone';
}
