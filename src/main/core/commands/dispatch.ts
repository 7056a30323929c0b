import { z } from 'zod';
import { commands, type CommandName, type CommandOutput, type Commands } from '../../../shared/contract';
import type { Caller } from '../approvals/clients';
import { InvalidPermissionOptionError, PermissionForbiddenError } from '../mediator';
import { CommandError } from './errors';
import { logger } from '../log/logger';

const log = logger('commands');

export type Handlers = {
  [N in CommandName]: (
    input: z.output<Commands[N]['input']>,
    caller: Caller,
  ) => CommandOutput<N> | Promise<CommandOutput<N>>;
};

export type Dispatched =
  | { ok: true; result: unknown; status: number }
  | { ok: false; error: { name: string; message: string; details?: unknown }; status: number };

export const isCommandName = (name: string): name is CommandName => Object.hasOwn(commands, name);

function failure(error: unknown): Dispatched {
  if (error instanceof z.ZodError) {
    return {
      ok: false,
      status: 400,
      error: { name: 'ValidationError', message: z.prettifyError(error), details: error.issues },
    };
  }
  if (error instanceof CommandError) {
    return { ok: false, status: error.status, error: { name: error.name, message: error.message, details: error.details } };
  }
  if (error instanceof InvalidPermissionOptionError) {
    return { ok: false, status: 400, error: { name: error.name, message: error.message } };
  }
  if (error instanceof PermissionForbiddenError) {
    return { ok: false, status: 403, error: { name: error.name, message: error.message } };
  }
  log.error('command failed:', error);
  return { ok: false, status: 500, error: { name: 'InternalError', message: 'internal error' } };
}

/**
 * The single entry of every command, whatever the transport: input validated against the
 * contract, handler run, output validated too — a handler that drifts from the contract fails here,
 * not in a client.
 */
export async function dispatch(
  handlers: Handlers,
  name: string,
  rawInput: unknown,
  caller: Caller,
): Promise<Dispatched> {
  if (!isCommandName(name)) {
    return { ok: false, status: 404, error: { name: 'UnknownCommand', message: `unknown command ${name}` } };
  }
  const spec = commands[name];
  try {
    const input = spec.input.parse(rawInput ?? {});
    const handler = handlers[name] as (input: unknown, caller: Caller) => unknown;
    const output = spec.output.parse(await handler(input, caller));
    const status = 'status' in spec.http && spec.http.status ? (spec.http.status as (o: unknown) => number)(output) : 200;
    return { ok: true, result: output, status };
  } catch (error) {
    return failure(error);
  }
}
