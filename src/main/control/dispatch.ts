// One control message in, one JSON-RPC response out. Everything a peer sends is checked before
// anything recursive looks at it: the shape (depth, values, text) without recursion, then the
// envelope, the method's name against the fixed table, and its params against their schema.
import {
  CONTROL_MAX_MESSAGE_BYTES,
  CONTROL_PROTOCOL,
  controlMethods,
  isControlMethod,
  isControlNotice,
  RPC_ERRORS,
  RpcId,
  RpcNotice,
  RpcRequest,
  type ControlNotice,
  type HelloParams,
  type RpcErrorCode,
  type RpcResponse,
} from '../../shared/control-protocol';
import { checkJsonShape, describeJsonProblem, type JsonLimits, DomainError } from '../core';
import type { z } from 'zod';
import type { ControlConnection, ControlHandlers } from './connection';

/** A control message is small: a few levels of params, never a file's worth of values. */
export const CONTROL_JSON_LIMITS: JsonLimits = {
  maxDepth: 64,
  maxNodes: 100_000,
  maxStringBytes: CONTROL_MAX_MESSAGE_BYTES,
};

export function rpcError(id: RpcId | null, code: RpcErrorCode, message: string): RpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The id of a message that failed validation, when it has a usable one (read at the top level only). */
function idOf(value: unknown): RpcId | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const parsed = RpcId.safeParse((value as Record<string, unknown>).id);
  return parsed.success ? parsed.data : null;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${path}${issue.message}`.slice(0, 300);
}

/** A message without an id that names a notice method: run, never answered. */
function isNotice(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { method } = value as Record<string, unknown>;
  return !Object.hasOwn(value, 'id') && typeof method === 'string' && isControlNotice(method);
}

/**
 * A notice runs as its method would, and nothing is sent back: a notice that fails (malformed, no
 * hello yet, a session this connection does not own) is reported and has no effect.
 */
async function runNotice(
  value: unknown,
  connection: ControlConnection,
  handlers: ControlHandlers,
  report: (error: unknown) => void,
): Promise<null> {
  const notice = RpcNotice.safeParse(value);
  const method = notice.data?.method as ControlNotice;
  const params = notice.success
    ? controlMethods[method].params.safeParse(notice.data.params)
    : null;
  try {
    if (!notice.success) throw new Error(`a malformed notice: ${firstIssue(notice.error)}`);
    if (!connection.client) throw new Error(`${method} before hello`);
    if (!params?.success)
      throw new Error(`${method}: invalid params: ${firstIssue(params!.error)}`);
    const handler = handlers[method] as (p: unknown, c: ControlConnection) => unknown;
    await handler(params.data, connection);
  } catch (error) {
    report(error);
  }
  return null;
}

/** The response to one line, or null for a blank line or a notice. */
export async function dispatchControlLine(
  line: string,
  connection: ControlConnection,
  handlers: ControlHandlers,
  report: (error: unknown) => void = () => undefined,
): Promise<RpcResponse | null> {
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return rpcError(null, RPC_ERRORS.parseError, 'parse error: not JSON');
  }
  const problem = checkJsonShape(value, CONTROL_JSON_LIMITS);
  if (problem) {
    return rpcError(
      idOf(value),
      RPC_ERRORS.invalidRequest,
      `invalid request: ${describeJsonProblem(problem)}`,
    );
  }
  if (isNotice(value)) return runNotice(value, connection, handlers, report);
  const request = RpcRequest.safeParse(value);
  if (!request.success) {
    return rpcError(
      idOf(value),
      RPC_ERRORS.invalidRequest,
      `invalid request: ${firstIssue(request.error)}`,
    );
  }
  const { id, method } = request.data;
  if (!isControlMethod(method)) {
    return rpcError(id, RPC_ERRORS.methodNotFound, `method not found: ${method}`);
  }
  if (method === 'hello' && connection.client) {
    return rpcError(id, RPC_ERRORS.invalidRequest, 'hello was already said on this connection');
  }
  if (method !== 'hello' && !connection.client) {
    return rpcError(id, RPC_ERRORS.helloFirst, 'say hello first');
  }
  const params = controlMethods[method].params.safeParse(request.data.params);
  if (!params.success) {
    return rpcError(id, RPC_ERRORS.invalidParams, `invalid params: ${firstIssue(params.error)}`);
  }
  if (method === 'hello' && (params.data as HelloParams).protocol !== CONTROL_PROTOCOL) {
    return rpcError(
      id,
      RPC_ERRORS.invalidParams,
      `protocol ${(params.data as HelloParams).protocol} is not spoken here (this core speaks ${CONTROL_PROTOCOL})`,
    );
  }
  try {
    const handler = handlers[method] as (p: unknown, c: ControlConnection) => unknown;
    const result = controlMethods[method].result.parse(await handler(params.data, connection));
    if (method === 'hello') connection.client = params.data as HelloParams;
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    // Refusals the core meant (an unknown session, a malformed agent request) are said as they are.
    if (error instanceof DomainError)
      return rpcError(id, RPC_ERRORS.invalidParams, error.message.slice(0, 2000));
    const code = (error as { code?: unknown }).code;
    if (error instanceof Error && typeof code === 'number' && code >= -32768 && code <= -32000) {
      return rpcError(id, code as RpcErrorCode, error.message.slice(0, 2000));
    }
    report(error);
    return rpcError(id, RPC_ERRORS.internalError, `internal error in ${method}`);
  }
}
