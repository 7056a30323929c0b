// The control socket's protocol: what a local process (the `gatehouse` command, an ACP proxy, later
// a hook) may ask the one core that owns $GATEHOUSE_HOME. JSON-RPC 2.0, one message per line (UTF-8
// JSON, no newline inside, "\n" after it). The method table is deliberately narrow: nothing here
// administers or reads what another connection's session asked, and the only vote is an editor's
// answer on a request its own proxy submitted — an agent that reaches the socket can open sessions
// of its own and nothing more.
import { z } from 'zod';
import { version } from '../../package.json';
import { hookMethods } from './control-hook';
import { proxyMethods } from './control-proxy';
import { Id, SessionInfo } from './domain';

export const GATEHOUSE_VERSION: string = version;
/** Raised when a message or a method changes meaning; a client that speaks another one is refused. */
export const CONTROL_PROTOCOL = 3;
/** One message, newline excluded. A longer line is answered `message_too_large` and the connection closed. */
export const CONTROL_MAX_MESSAGE_BYTES = 1024 * 1024;
/** Connections open at once; the next one is answered `busy` and closed. */
export const CONTROL_MAX_CONNECTIONS = 64;

export const CoreKind = z.enum(['desktop', 'headless']);
export type CoreKind = z.infer<typeof CoreKind>;

export const ControlClientKind = z.enum(['proxy', 'hook', 'cli']);
export type ControlClientKind = z.infer<typeof ControlClientKind>;

/** The running core, as it writes it to $GATEHOUSE_HOME/core.json and tells control clients. */
export const CoreInfo = z
  .object({
    kind: CoreKind,
    pid: z.number().int().positive(),
    version: z.string().max(64),
    home: z.string(),
    startedAt: z.number(),
    /** The control socket (or Windows pipe) once it listens. */
    socket: z.string().nullable(),
    /** The HTTP server's origin (headless), without its token. */
    url: z.string().nullable(),
  })
  .strict();
export type CoreInfo = z.infer<typeof CoreInfo>;

export const RpcId = z.union([z.string().max(128), z.number().int()]);
export type RpcId = z.infer<typeof RpcId>;

/** A message is a request with an id, or a notice (no id, never answered); batches are refused. */
export const RpcRequest = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: RpcId,
    method: z.string().max(128),
    params: z.unknown().optional(),
  })
  .strict();
export type RpcRequest = z.infer<typeof RpcRequest>;

/** A notice: only the methods the table marks `notice`. */
export const RpcNotice = RpcRequest.omit({ id: true }).strict();
export type RpcNotice = z.infer<typeof RpcNotice>;

export const RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Gatehouse's own, in JSON-RPC's server range. */
  messageTooLarge: -32001,
  busy: -32002,
  helloFirst: -32003,
} as const;
export type RpcErrorCode = (typeof RPC_ERRORS)[keyof typeof RPC_ERRORS];

export const RpcError = z.object({ code: z.number().int(), message: z.string() }).strict();
export type RpcError = z.infer<typeof RpcError>;

export const RpcResponse = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: RpcId, result: z.unknown() }).strict(),
  z.object({ jsonrpc: z.literal('2.0'), id: RpcId.nullable(), error: RpcError }).strict(),
]);
export type RpcResponse = z.infer<typeof RpcResponse>;

export const HelloParams = z
  .object({
    client: ControlClientKind,
    version: z.string().min(1).max(64),
    protocol: z.number().int().positive(),
  })
  .strict();
export type HelloParams = z.infer<typeof HelloParams>;

export const HelloResult = CoreInfo.pick({ kind: true, pid: true, version: true })
  .extend({ server: z.literal('gatehouse'), protocol: z.number().int() })
  .strict();
export type HelloResult = z.infer<typeof HelloResult>;

/** A running session as any local process may see it: no ids to act on, no request contents. */
export const SessionSummary = z
  .object({
    agentId: Id,
    cwd: z.string(),
    state: SessionInfo.shape.state,
    startedAt: z.number(),
    /** How many of its permission requests wait for a decision. */
    pending: z.number().int().nonnegative(),
  })
  .strict();
export type SessionSummary = z.infer<typeof SessionSummary>;

export const StatusResult = CoreInfo.extend({ sessions: z.array(SessionSummary) }).strict();
export type StatusResult = z.infer<typeof StatusResult>;

const NoParams = z.object({}).strict().optional();

/** The HTTP server now serves with a new bearer token (kept in the data folder, not sent here). */
export const RotateTokenResult = z.object({ rotated: z.literal(true) }).strict();

/** The whole method table. Any other name, HTTP command names included, is "method not found". */
export const controlMethods = {
  /** The first message of every connection. */
  hello: { params: HelloParams, result: HelloResult },
  /** Which core runs on this home and its sessions. */
  status: { params: NoParams, result: StatusResult },
  /** A new bearer token for the HTTP server; pages holding the old one are refused from now on. */
  rotateToken: { params: NoParams, result: RotateTokenResult },
  ...proxyMethods,
  ...hookMethods,
} as const;
export type ControlMethods = typeof controlMethods;
export type ControlMethod = keyof ControlMethods;
export type ControlParams<M extends ControlMethod> = z.input<ControlMethods[M]['params']>;
export type ControlResult<M extends ControlMethod> = z.output<ControlMethods[M]['result']>;

export function isControlMethod(name: string): name is ControlMethod {
  return Object.hasOwn(controlMethods, name);
}

/** The methods sent as notices: without an id, never answered. */
export type ControlNotice = {
  [M in ControlMethod]: ControlMethods[M] extends { notice: true } ? M : never;
}[ControlMethod];

export function isControlNotice(name: string): name is ControlNotice {
  return isControlMethod(name) && 'notice' in controlMethods[name];
}
