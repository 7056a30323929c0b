// What an ACP proxy (`gatehouse acp`) may ask of the core over the control socket: open the sessions
// its agent runs, report what the agent tells the editor, submit the agent's permission requests and
// wait for their decisions, pass on the editor's answer, and ask whether a write or a terminal the
// agent wants is covered. Every id it names must be one this connection opened or submitted: nothing
// here reaches another connection's sessions, votes on another's requests, or administers.
import { z } from 'zod';
import { Id, REJECT_MESSAGE_MAX, REJECT_MESSAGE_META_KEY, SessionSandbox } from './domain';

const AcpSessionId = z.string().min(1).max(256);
/** What the agent sent as `session/request_permission` params; the pipeline validates it whole. */
const AgentRequest = z.unknown();

export const PermissionResponse = z
  .object({
    outcome: z.discriminatedUnion('outcome', [
      z.object({ outcome: z.literal('cancelled') }).strict(),
      z.object({ outcome: z.literal('selected'), optionId: z.string().min(1).max(256) }).strict(),
    ]),
  })
  .strict();
export type PermissionResponse = z.infer<typeof PermissionResponse>;

/**
 * What the core decided, for the proxy to hand the agent: a reject may carry the person's words in
 * the outcome's `_meta`, and nothing else may ride there.
 */
export const DecidedResponse = z
  .object({
    outcome: z.discriminatedUnion('outcome', [
      z.object({ outcome: z.literal('cancelled') }).strict(),
      z
        .object({
          outcome: z.literal('selected'),
          optionId: z.string().min(1).max(256),
          _meta: z
            .object({ [REJECT_MESSAGE_META_KEY]: z.string().min(1).max(REJECT_MESSAGE_MAX) })
            .strict()
            .optional(),
        })
        .strict(),
    ]),
  })
  .strict();
export type DecidedResponse = z.infer<typeof DecidedResponse>;

export const ProxyAgent = z
  .object({
    id: Id,
    name: z.string().min(1).max(100),
    /** Given on the command line, not an agent of the settings: its settings are the defaults. */
    adHoc: z.boolean(),
  })
  .strict();

export const SessionOpenParams = z
  .object({
    agent: ProxyAgent,
    /** The editor's name from its `initialize` clientInfo. */
    editor: z.string().min(1).max(200),
    cwd: z.string().min(1).max(4096),
    acpSessionId: AcpSessionId,
    sandbox: SessionSandbox,
    /** Why its agent cannot be guarded (it accepts approvals from other local programs). */
    unguarded: z.string().max(2000).optional(),
    /** What the agent said of itself in `initialize`, and of the session's modes in its answer. */
    agentInfoName: z.string().max(200).optional(),
    modes: z.unknown().optional(),
    configOptions: z.unknown().optional(),
  })
  .strict();

const SessionRef = z.object({ sessionId: Id }).strict();
const Ok = z.object({ ok: z.literal(true) }).strict();

/** What the proxy could not pass to the core (over the socket's bound): told so it is audited. */
export const SessionDroppedParams = z
  .object({
    sessionId: Id,
    what: z.enum(['permission_request', 'update']),
    bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

export const SessionUpdateParams = z
  .object({ sessionId: Id, update: z.looseObject({ sessionUpdate: z.string().max(64) }) })
  .strict();

export const SessionTurnParams = z
  .object({
    sessionId: Id,
    turn: z.enum(['started', 'ended']),
    /** The prompt's text, for the transcript (a turn's start only). */
    text: z
      .string()
      .max(256 * 1024)
      .optional(),
  })
  .strict();

export const PermissionSubmitResult = z.discriminatedUnion('status', [
  /** Rules, a grant, a mode or the queue decided; nobody is asked. */
  z.object({ status: z.literal('decided'), response: PermissionResponse }).strict(),
  /** A person is asked; forward it to the editor too, then await the decision. */
  z.object({ status: z.literal('asking'), requestId: Id, askEditor: z.boolean() }).strict(),
]);
export type PermissionSubmitResult = z.infer<typeof PermissionSubmitResult>;

export const PermissionAnswerResult = z
  .object({
    /** Whether the editor's answer decided (or, under consensus, was counted). */
    counted: z.boolean(),
    detail: z.string().max(300),
  })
  .strict();

export const ActionCheckParams = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('write'),
      sessionId: Id,
      path: z.string().min(1).max(4096),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      bytes: z.number().int().nonnegative(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('terminal'),
      sessionId: Id,
      command: z
        .string()
        .min(1)
        .max(64 * 1024),
      args: z.array(z.string().max(64 * 1024)).max(1024),
      cwd: z.string().max(4096).nullable(),
    })
    .strict(),
]);
export type ActionCheckParams = z.infer<typeof ActionCheckParams>;

export const ActionCheckResult = z.discriminatedUnion('allowed', [
  z.object({ allowed: z.literal(true) }).strict(),
  /** The agent is answered this JSON-RPC error; the editor never sees the call. */
  z.object({ allowed: z.literal(false), message: z.string().max(8192) }).strict(),
]);
export type ActionCheckResult = z.infer<typeof ActionCheckResult>;

/** The proxy's part of the control method table. */
export const proxyMethods = {
  /** A session the agent created (or loaded) for the editor; listed, judged and audited as any. */
  'session.open': { params: SessionOpenParams, result: z.object({ sessionId: Id }).strict() },
  // Notices: sent without an id and never answered, so the agent's stream of updates costs one
  // message one way each, not a round trip.
  /** A `session/update` the agent sent the editor (tool calls are tracked from these). */
  'session.update': { params: SessionUpdateParams, result: Ok, notice: true },
  /** The editor started a prompt turn, or the agent ended one. */
  'session.turn': { params: SessionTurnParams, result: Ok, notice: true },
  /** The editor cancelled the turn: its waiting requests end `cancelled`. */
  'session.cancel': { params: SessionRef, result: Ok, notice: true },
  'session.close': { params: SessionRef, result: Ok, notice: true },
  'session.dropped': { params: SessionDroppedParams, result: Ok, notice: true },
  'permission.submit': {
    params: z.object({ sessionId: Id, request: AgentRequest }).strict(),
    result: PermissionSubmitResult,
  },
  /** Resolves once the request is decided and audited. */
  'permission.await': {
    params: z.object({ requestId: Id }).strict(),
    result: z.object({ response: DecidedResponse }).strict(),
  },
  /** The editor's answer to a request it was shown: a vote of surface `editor`. */
  'permission.answer': {
    params: z.object({ requestId: Id, response: PermissionResponse }).strict(),
    result: PermissionAnswerResult,
  },
  'action.check': { params: ActionCheckParams, result: ActionCheckResult },
} as const;
