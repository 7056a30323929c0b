import { z } from 'zod';
import {
  commands,
  type CommandName,
  type CommandOutput,
  type Commands,
} from '../../../shared/contract';
import type { Caller } from '../approvals/clients';
import { DomainError, type DomainErrorKind } from '../errors';
import { logger } from '../log/logger';
import { InvalidPermissionOptionError } from '../mediator';
import { EncodedJson } from '../store';

const log = logger('commands');

/** A command's answer: its output, or its output already encoded as JSON (a history page). */
type Answer<T> = T | EncodedJson<T>;

export type Handlers = {
  [N in CommandName]: (
    input: z.output<Commands[N]['input']>,
    caller: Caller,
  ) => Answer<CommandOutput<N>> | Promise<Answer<CommandOutput<N>>>;
};

export interface DispatchOptions {
  /**
   * The transport sends JSON: an answer encoded where it was made is handed on as it is (an
   * `EncodedJson` result) instead of decoded and checked here; its maker answers for its shape
   * (store/read-engine.ts, historyJson). Other transports get objects, checked here like every
   * other answer.
   */
  encoded?: boolean;
}

export type Dispatched =
  | { ok: true; result: unknown; status: number }
  | { ok: false; error: { name: string; message: string; details?: unknown }; status: number };

export const isCommandName = (name: string): name is CommandName => Object.hasOwn(commands, name);

/** Why a command failed: a domain error's kind, or the dispatcher's own. */
type FailureKind = DomainErrorKind | 'unknown_command' | 'internal';

/**
 * The one place a failure becomes an HTTP status. The contract routes every command over HTTP
 * (with the status of each success), and every transport reads the same result.
 */
const HTTP_STATUS: Readonly<Record<FailureKind, number>> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  unknown_command: 404,
  conflict: 409,
  agent_gone: 502,
  internal: 500,
};

function failed(kind: FailureKind, name: string, message: string, details?: unknown): Dispatched {
  return { ok: false, status: HTTP_STATUS[kind], error: { name, message, details } };
}

function failure(error: unknown): Dispatched {
  if (error instanceof z.ZodError) {
    return failed('invalid', 'ValidationError', z.prettifyError(error), error.issues);
  }
  if (error instanceof DomainError)
    return failed(error.kind, error.name, error.message, error.details);
  // Only a wire vote can name an option the request does not offer: the caller's mistake.
  if (error instanceof InvalidPermissionOptionError)
    return failed('invalid', error.name, error.message);
  log.error('command failed:', error);
  return failed('internal', 'InternalError', 'internal error');
}

/**
 * The single entry of every command, whatever the transport: input validated against the
 * contract, handler run, output validated too — a handler that drifts from the contract fails here,
 * not in a client. The one exception is an answer encoded where it was made, sent as its bytes to a
 * transport that asked for them (`encoded`).
 */
export async function dispatch(
  handlers: Handlers,
  name: string,
  rawInput: unknown,
  caller: Caller,
  options: DispatchOptions = {},
): Promise<Dispatched> {
  if (!isCommandName(name)) {
    return failed('unknown_command', 'UnknownCommand', `unknown command ${name}`);
  }
  const spec = commands[name];
  try {
    const input = spec.input.parse(rawInput ?? {});
    const handler = handlers[name] as (input: unknown, caller: Caller) => unknown;
    const answer = await handler(input, caller);
    const statusOf =
      'status' in spec.http && spec.http.status
        ? (spec.http.status as (o: unknown) => number)
        : null;
    if (answer instanceof EncodedJson && options.encoded && !statusOf)
      return { ok: true, result: answer, status: 200 };
    const output = spec.output.parse(answer instanceof EncodedJson ? answer.decode() : answer);
    return { ok: true, result: output, status: statusOf ? statusOf(output) : 200 };
  } catch (error) {
    return failure(error);
  }
}
