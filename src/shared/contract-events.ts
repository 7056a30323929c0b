// Every event the core sends to every surface (HTTP + SSE, IPC).
import { z } from 'zod';
import { HookChange, HookCli, HookScope, HookWatch } from './hooked-clis';
import {
  AgentReply,
  Decider,
  Id,
  PendingApproval,
  REJECT_MESSAGE_MAX,
  SessionInfo,
  StopReason,
  Uuid,
  VoteTally,
} from './domain';

export const Event = z.discriminatedUnion('type', [
  z.object({ type: z.literal('permission_requested'), approval: PendingApproval }),
  z.object({
    type: z.literal('permission_partial_vote'),
    requestId: Uuid,
    sessionId: Id,
    tally: VoteTally,
  }),
  z.object({
    type: z.literal('permission_forbidden'),
    requestId: Uuid,
    sessionId: Id,
    clientId: z.string().nullable(),
    reason: z.string(),
  }),
  z.object({
    type: z.literal('permission_resolved'),
    requestId: Uuid,
    sessionId: Id,
    reply: AgentReply,
    decider: Decider,
    reason: z.string(),
    /** The person's words with a reject, as the agent was given them. */
    message: z.string().max(REJECT_MESSAGE_MAX).optional(),
  }),
  z.object({ type: z.literal('permission_extended'), requestId: Uuid, expiresAt: z.number() }),
  /** A waiting request's preview started or finished: the approval as it is shown now. */
  z.object({ type: z.literal('permission_previewed'), approval: PendingApproval }),
  z.object({
    type: z.literal('session_update'),
    sessionId: Id,
    /** ACP session/update payload, forwarded as the agent sent it (already schema-checked by the SDK). */
    update: z.looseObject({ sessionUpdate: z.string() }),
  }),
  z.object({ type: z.literal('session_state'), session: SessionInfo }),
  /** The session's transcript changed: `getTranscript` with `since` reads what changed. */
  z.object({
    type: z.literal('transcript_changed'),
    sessionId: Id,
    rev: z.number().int().nonnegative(),
  }),
  /**
   * The settings changed (from a command, or settings.json edited on disk), or the file on disk
   * stopped or started reading as valid settings: `getSettings` reads what is in force now.
   */
  z.object({ type: z.literal('settings_changed'), from: z.enum(['file', 'command']) }),
  /** A grant was created, revoked, used up or ended with its session. */
  z.object({ type: z.literal('grants_changed') }),
  z.object({ type: z.literal('turn_ended'), sessionId: Id, stopReason: StopReason }),
  z.object({
    type: z.literal('agent_exited'),
    agentId: Id,
    sessionIds: z.array(Id),
    code: z.number().nullable(),
    signal: z.string().nullable(),
  }),
  /** Gatehouse refused a write the agent asked of it: no decision covered it (audited too). */
  z.object({
    type: z.literal('write_refused'),
    sessionId: Id,
    agentId: Id,
    path: z.string().max(4096),
    reason: z.string().max(2000),
  }),
  /**
   * A build file people run by hand (`package.json`, `Makefile`, `justfile`, `*.sh` at the root)
   * changed during the agent's turn, not by a write Gatehouse made for a decision (audited too).
   */
  z.object({
    type: z.literal('build_script_changed'),
    sessionId: Id,
    agentId: Id,
    path: z.string().max(4096),
    /** `sha256:<hex>` (or `size:<bytes>:<mtime>` for a large file); null: not there. */
    before: z.string().max(200).nullable(),
    after: z.string().max(200).nullable(),
  }),
  /**
   * A launcher's package (npx, uvx…) fetched outside the sandbox at an agent's start: while npm or
   * uv runs, then what the name was pinned to.
   */
  z.object({
    type: z.literal('launcher_fetch'),
    agentId: Id,
    /** As the agent's command wrote it. */
    package: z.string().max(300),
    state: z.enum(['fetching', 'fetched']),
    /** `name@version`, once fetched. */
    pinned: z.string().max(300).optional(),
  }),
  /** The sandbox refused something the agent did without asking (rate-limited per target). */
  z.object({
    type: z.literal('sandbox_violation'),
    sessionId: Id,
    agentId: Id,
    kind: z.enum(['file', 'network']),
    /** What was stopped: a write (read-only mount), another refused file access, a connection. */
    blocked: z.enum(['write', 'read', 'connect']),
    /** The path, or host:port. */
    target: z.string().max(4096),
    /** The agent keeps failing on it (a few refusals): a person may be offered to allow it. */
    repeated: z.literal(true).optional(),
    /**
     * A file that runs later (git hooks, editor tasks, CLI settings): which protected entry, what
     * runs it, and, for one that appeared and was moved out of the project, where it went.
     */
    protectedBy: z
      .object({
        entry: z.string().max(1024),
        runs: z.string().max(500),
        movedTo: z.string().max(4096).nullable().optional(),
      })
      .optional(),
  }),
  /**
   * A hook `gatehouse hook install` wrote changed: lost, weakened, put back, installed or
   * uninstalled (audited as `hook_changed`). `watch` is null once it is no longer watched.
   */
  z.object({
    type: z.literal('hook_changed'),
    cli: HookCli,
    scope: HookScope,
    file: z.string().max(4096),
    change: HookChange,
    watch: HookWatch.nullable(),
  }),
]);
export type GatehouseEvent = z.infer<typeof Event>;
