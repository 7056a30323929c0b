// Errors a command may raise on purpose. Each carries the HTTP status it maps to; the name is
// what crosses IPC and HTTP so callers can tell them apart.
export class CommandError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export class BadRequestError extends CommandError {
  override name = 'BadRequestError';
  constructor(message: string, details?: unknown) {
    super(message, 400, details);
  }
}

export class ForbiddenError extends CommandError {
  override name = 'ForbiddenError';
  constructor(message: string) {
    super(message, 403);
  }
}

export class NotFoundError extends CommandError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(message, 404);
  }
}

export class ConflictError extends CommandError {
  override name = 'ConflictError';
  constructor(message: string) {
    super(message, 409);
  }
}

/** The agent process is gone (crashed, killed, exited); its session is closed. */
export class AgentGoneError extends CommandError {
  override name = 'AgentGoneError';
  constructor(message: string) {
    super(message, 502);
  }
}
