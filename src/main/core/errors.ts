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

/**
 * The class of one kind of domain error: `instanceof` tells each kind apart (and all of them from
 * DomainError), and `name` is what crosses IPC and HTTP.
 */
function domainError<K extends DomainErrorKind>(name: string, kind: K) {
  return class extends DomainError {
    override readonly name = name;
    readonly kind = kind;
  };
}

/** The input is well-formed but cannot be acted on (a relative folder, a rule that never matches). */
export class BadRequestError extends domainError('BadRequestError', 'invalid') {}

/** The caller may not do this (unpaired, wrong code, a used link). */
export class ForbiddenError extends domainError('ForbiddenError', 'forbidden') {}

export class NotFoundError extends domainError('NotFoundError', 'not_found') {}

/** The thing exists but is in a state that refuses this now (a turn already running). */
export class ConflictError extends domainError('ConflictError', 'conflict') {}

/** The agent process is gone (crashed, killed, exited); its session is closed. */
export class AgentGoneError extends domainError('AgentGoneError', 'agent_gone') {}
