// Domain schemas shared by the core, the HTTP API, the preload bridge and the renderer.
// No Node, no DOM: this file is bundled into all three worlds.
import { z } from 'zod';
import { ConfigOptions } from './session-config';
import { PreparedDiff, Warning, WarningCode } from './findings';
import { CommandPreview } from './preview';
import { PendingQuestion } from './question';

export const Id = z.string().min(1).max(200);
export const Uuid = z.uuid();

/** Tool kinds as ACP defines them; unknown kinds from newer agents are mapped to 'other'. */
export const ToolKind = z.enum([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);
export type ToolKind = z.infer<typeof ToolKind>;

export const PermissionOptionKind = z.enum([
  'allow_once',
  'allow_always',
  'reject_once',
  'reject_always',
]);
export type PermissionOptionKind = z.infer<typeof PermissionOptionKind>;

export const OPTION_ID_MAX_CHARS = 200;
export const OPTION_NAME_MAX_CHARS = 500;

export const PermissionOption = z.object({
  optionId: z.string().min(1).max(OPTION_ID_MAX_CHARS),
  name: z.string().max(OPTION_NAME_MAX_CHARS),
  kind: PermissionOptionKind,
});
export type PermissionOption = z.infer<typeof PermissionOption>;

export const PermissionPolicy = z.enum([
  'first-responder',
  'designated',
  'consensus',
  'local-only',
]);
export type PermissionPolicy = z.infer<typeof PermissionPolicy>;

export const PermissionMode = z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions']);
export type PermissionMode = z.infer<typeof PermissionMode>;

/** Where a person (or process) acted from; recorded with every vote. */
export const Surface = z.enum([
  'dialog',
  'browser',
  'notification',
  'tray',
  'api',
  'link',
  'editor',
]);
export type Surface = z.infer<typeof Surface>;

export const Location = z.object({ path: z.string(), line: z.number().int().nullish() });

/** What the agent asked to do, as the agent described it (kept verbatim for the audit). */
export const ToolCallSnapshot = z.object({
  toolCallId: z.string(),
  kind: ToolKind,
  title: z.string(),
  locations: z.array(Location),
  /**
   * Locations past what the rules judge (too many, or too long together), left out. A request
   * with any is never allowed without a person: one of them may be anything.
   */
  locationsDropped: z.number().int().positive().optional(),
  rawInput: z.unknown().optional(),
  /** ACP tool call content, passed through as received (diffs, text, terminals). */
  content: z.array(z.unknown()),
});
export type ToolCallSnapshot = z.infer<typeof ToolCallSnapshot>;

export { PreparedDiff, Warning, WarningCode } from './findings';

/** No one picks a prefix of more words than this, word by word. */
export const PREFIX_WORDS_MAX = 64;
export const PREFIX_WORD_MAX_CHARS = 1_024;

/**
 * The words of a request's one simple command, as the shell reads them, that "always" may remember
 * the first few of ("allow `npm test …`"), and how many a prefix needs at least to say what runs.
 */
export const PrefixOffer = z.object({
  words: z.array(z.string().max(PREFIX_WORD_MAX_CHARS)).min(1).max(PREFIX_WORDS_MAX),
  least: z.number().int().min(1).max(PREFIX_WORDS_MAX),
});
export type PrefixOffer = z.infer<typeof PrefixOffer>;

export const CommandView = z.object({
  command: z.string(),
  args: z.array(z.string()).nullable(),
  cwd: z.string().nullable(),
  /** Where the command was read: the agent's raw input, or its title (Gemini CLI sends no raw input). */
  source: z.enum(['rawInput', 'title']),
  /** Absent when no prefix of it can be remembered (a compound line, a bare interpreter, …). */
  prefix: PrefixOffer.optional(),
});
export type CommandView = z.infer<typeof CommandView>;

export const VoteTally = z.object({
  /** Votes one option needs to win (N of the consensus N-of-M). */
  quorum: z.number().int().nonnegative(),
  /** Votes the leading option still needs. */
  votesNeeded: z.number().int().nonnegative(),
  voters: z.number().int().nonnegative(),
  perOption: z.record(z.string(), z.number().int().nonnegative()),
});
export type VoteTally = z.infer<typeof VoteTally>;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * What stands in for a part of a request too large to keep whole: the original's size in UTF-8
 * bytes (of its JSON, for a value that is not a string), its sha-256, and `blob` (the same hash)
 * when the store keeps the original.
 */
export const Truncated = z.object({
  truncated: z.literal(true),
  bytes: z.number().int().nonnegative(),
  sha256: Sha256,
  blob: Sha256.optional(),
});
export type Truncated = z.infer<typeof Truncated>;

/** A rawInput too large to send: the marker, with the start of its JSON for display. */
export const TruncatedValue = Truncated.extend({ preview: z.string() });
export type TruncatedValue = z.infer<typeof TruncatedValue>;

/**
 * One part Gatehouse cut to fit the approval: 'title', 'rawInput', 'command', 'locations',
 * 'diffs', 'content[3]' or 'content[64…]' (the items from 64 on). Strings keep a prefix in place;
 * rawInput and content items are replaced by a marker.
 */
export const Cut = Truncated.extend({ part: z.string().max(100) });
export type Cut = z.infer<typeof Cut>;

/** A permission request waiting for a decision, as every client sees it. */
export const PendingApproval = z.object({
  requestId: Uuid,
  sessionId: Id,
  agentId: Id,
  agentName: z.string(),
  cwd: z.string(),
  toolCall: ToolCallSnapshot,
  options: z.array(PermissionOption),
  policy: PermissionPolicy,
  issuedAt: z.number(),
  expiresAt: z.number(),
  warnings: z.array(Warning),
  diffs: z.array(PreparedDiff),
  /**
   * The agent's diffs left out of `diffs`: past the number or size shown, and past those the rules
   * judge. The dialog counts them; the request's cuts and the rules' reason say the rest.
   */
  diffsDropped: z.number().int().positive().optional(),
  command: CommandView.nullable(),
  tally: VoteTally.nullable(),
  /** The parts cut to keep the approval small (absent or empty: it is whole). */
  cuts: z.array(Cut).optional(),
  /** What the command would change, seen in a scratch view (absent: not a command, or not yet asked). */
  preview: CommandPreview.optional(),
  /** Present when the agent asks a question (ACP elicitation) instead of a permission. */
  question: PendingQuestion.optional(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

/** Bounds of a queue summary: a list of hundreds of requests must stay small. */
export const SUMMARY_LIMITS = {
  agentName: 200,
  cwd: 1_024,
  title: 200,
  command: 200,
  paths: 3,
  path: 512,
  optionName: 100,
} as const;

/** A pending request as the queue lists it: enough to order, pick and batch-decide; every field bounded. */
export const PendingSummary = z.object({
  requestId: Uuid,
  sessionId: Id,
  agentId: Id,
  agentName: z.string().max(SUMMARY_LIMITS.agentName),
  cwd: z.string().max(SUMMARY_LIMITS.cwd),
  kind: ToolKind,
  title: z.string().max(SUMMARY_LIMITS.title),
  command: z.string().max(SUMMARY_LIMITS.command).nullable(),
  /** The first paths the request touches (diffs first, then locations), and how many there are. */
  paths: z.array(z.string().max(SUMMARY_LIMITS.path)).max(SUMMARY_LIMITS.paths),
  pathCount: z.number().int().nonnegative(),
  /** One entry per warning code, with its highest severity. */
  warnings: z
    .array(z.object({ code: WarningCode, severity: Warning.shape.severity }))
    .max(WarningCode.options.length),
  policy: PermissionPolicy,
  issuedAt: z.number(),
  expiresAt: z.number(),
  tally: VoteTally.nullable(),
  options: z
    .array(PermissionOption.extend({ name: z.string().max(SUMMARY_LIMITS.optionName) }))
    .max(20),
  /** True when parts of the request were too large to keep whole. */
  truncated: z.boolean(),
  /** The preview's one line ("changes 3 files, deletes 1"); absent for requests with no preview. */
  effects: z.string().max(200).optional(),
  /** An agent's question rather than a permission: a form, or a link to this host. */
  question: z
    .object({ mode: z.enum(['form', 'url']), host: z.string().max(300).nullable() })
    .optional(),
});
export type PendingSummary = z.infer<typeof PendingSummary>;

/** Who or what decided a request. Every decision in the audit names one. */
export const Decider = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('person'),
    clientId: z.string().nullable(),
    surface: Surface,
    /** False for a vote over the API from a client no person paired (it counts where anyone's does). */
    paired: z.boolean().optional(),
  }),
  z.object({ type: z.literal('consensus'), clientIds: z.array(z.string()) }),
  z.object({
    type: z.literal('rule'),
    ruleId: z.string(),
    /** 'managed': the administrator's managed policy; absent: the user's settings. */
    source: z.literal('managed').optional(),
  }),
  z.object({ type: z.literal('grant'), grantId: z.string() }),
  z.object({ type: z.literal('mode'), mode: PermissionMode }),
  z.object({ type: z.literal('timeout') }),
  z.object({ type: z.literal('split_vote') }),
  z.object({ type: z.literal('voter_cancelled'), clientId: z.string().nullable() }),
  z.object({ type: z.literal('turn_cancelled') }),
  z.object({ type: z.literal('session_closed') }),
  z.object({ type: z.literal('agent_exit') }),
  z.object({ type: z.literal('agent_unresponsive') }),
  z.object({ type: z.literal('invalid_request') }),
  /** The session already had as many requests waiting as a person can be asked to review. */
  z.object({ type: z.literal('queue_full') }),
  z.object({ type: z.literal('shutdown') }),
  /** The OS sandbox refused what the agent did without asking (a write, a read, a connection). */
  z.object({
    type: z.literal('sandbox'),
    kind: z.enum(['write', 'read', 'connect']),
    /** The path, or host:port. */
    target: z.string().max(4096),
  }),
]);
export type Decider = z.infer<typeof Decider>;
export const DeciderType = z.enum(Decider.options.map((o) => o.shape.type.value));
export type DeciderType = Decider['type'];

/** What the agent was told. `cancelled` is only ever sent for a cancelled turn or a dead session. */
export const AgentReply = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('selected'),
    optionId: z.string(),
    optionKind: PermissionOptionKind,
  }),
  z.object({ outcome: z.literal('cancelled') }),
]);
export type AgentReply = z.infer<typeof AgentReply>;

/** The longest reason a person may give with a reject, in characters. */
export const REJECT_MESSAGE_MAX = 2000;

/** Where a reject's words travel in an ACP reply: the selected outcome's `_meta`, under our name. */
export const REJECT_MESSAGE_META_KEY = 'gatehouse/rejectMessage';

export const Decision = z.object({
  requestId: Uuid,
  sessionId: Id,
  agentId: Id,
  reply: AgentReply,
  decider: Decider,
  decidedAt: z.number(),
  /** Mediator reason (first-responder, consensus-quorum, timeout, ...) or rule layer reason. */
  reason: z.string(),
  /** What the person told the agent with a reject, cleaned of control characters; absent: nothing. */
  message: z.string().min(1).max(REJECT_MESSAGE_MAX).optional(),
});
export type Decision = z.infer<typeof Decision>;

export const AgentInfo = z.object({
  id: Id,
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  cwd: z.string().nullable(),
  mode: PermissionMode,
  policy: PermissionPolicy,
});
export type AgentInfo = z.infer<typeof AgentInfo>;

/** The OS sandbox a session's agent runs in, as shown to a person. */
export const SessionSandbox = z.object({
  profile: z.enum(['workspace-write', 'read-only', 'off']),
  /** Where the agent may write (the session folder shown as such, HOME as `~`). */
  writable: z.array(z.string().max(4096)).max(256),
  /** `none`, `all`, or the host:port pairs it may reach. */
  network: z.string().max(20_000),
  /** Why an agent runs without a sandbox (`off` only). */
  reason: z.string().max(2000).optional(),
  /**
   * The package a launcher (npx, uvx…) would have fetched, fetched by Gatehouse outside the sandbox
   * and pinned: `name@version`, read-only to the agent.
   */
  package: z.string().max(300).optional(),
});
export type SessionSandbox = z.infer<typeof SessionSandbox>;

export const SessionEndReason = z.enum([
  'session_closed',
  'agent_exit',
  'agent_unresponsive',
  'shutdown',
]);
export type SessionEndReason = z.infer<typeof SessionEndReason>;

/** A way the agent offers to sign in (ACP `authenticate`), in the agent's own words. */
export const AuthMethod = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  description: z.string().max(2000).nullish(),
});
export type AuthMethod = z.infer<typeof AuthMethod>;
export const MAX_AUTH_METHODS = 16;

/**
 * Folders a session works in besides its own (ACP `additionalDirectories`), as the person gave
 * them: absolute, each one a writable root of the sandbox. Few: each is a mount and a scope.
 */
export const MAX_ADDITIONAL_DIRECTORIES = 8;
export const AdditionalDirectories = z
  .array(z.string().min(1).max(4096))
  .max(MAX_ADDITIONAL_DIRECTORIES);

export const SessionInfo = z.object({
  sessionId: Id,
  agentId: Id,
  cwd: z.string(),
  /** The extra folders it was started with (real paths); absent when none. */
  additionalDirectories: AdditionalDirectories.optional(),
  createdAt: z.number(),
  state: z.enum(['starting', 'idle', 'prompting', 'closed']),
  mode: PermissionMode,
  sandbox: SessionSandbox,
  /**
   * Why the agent is in a mode where it approves by itself and could not be set back: Gatehouse
   * sees none of its requests. Absent while the agent asks.
   */
  unguarded: z.string().max(2000).optional(),
  /**
   * Where the session runs when Gatehouse did not start it from its own window: an editor whose
   * agent is launched through `gatehouse acp` (named from the editor's `initialize`), or a terminal
   * CLI whose hook asks Gatehouse (`gatehouse hook`). Absent for sessions started here.
   */
  via: z.object({ kind: z.enum(['editor', 'terminal']), name: z.string().max(200) }).optional(),
  /**
   * While the agent waits for a sign-in: the variable its API key is kept in (null when Gatehouse
   * does not know the agent: the person names it), and whether the agent's settings set it. Never
   * the value.
   */
  apiKey: z.object({ variable: z.string().max(64).nullable(), set: z.boolean() }).optional(),
  /**
   * The agent refused to open its session until it is signed in: the methods it offered. The
   * session stays starting until a person chooses one (authenticateSession).
   */
  authMethods: z.array(AuthMethod).max(MAX_AUTH_METHODS).optional(),
  /** The agent's session options beyond its mode (a model, a reasoning level, …). */
  configOptions: ConfigOptions.optional(),
  /** Why an ended session ended, and when (listed for the rest of the day). */
  endReason: SessionEndReason.optional(),
  endedAt: z.number().optional(),
  /** Its permission requests waiting for a decision (in lists; absent in events). */
  pendingCount: z.number().int().nonnegative().optional(),
  /**
   * It ended with Gatehouse and its agent can take it up again: `resume` (ACP session/resume, no
   * replay) or `load` (session/load, which replays it). Absent otherwise.
   */
  resumable: z.enum(['resume', 'load']).optional(),
  /**
   * It was taken up again after Gatehouse restarted: how, when, and what runs differently from
   * before (today's settings apply, not those it ran with).
   */
  resumed: z
    .object({
      how: z.enum(['resume', 'load']),
      at: z.number(),
      changes: z.array(z.string().max(2000)).max(16),
    })
    .optional(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const StopReason = z.enum([
  'end_turn',
  'max_tokens',
  'max_turn_requests',
  'refusal',
  'cancelled',
]);
export type StopReason = z.infer<typeof StopReason>;
