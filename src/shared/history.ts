// History: what was asked, who or what decided it, and how. Queries are cursor-paginated.
import { z } from 'zod';
import {
  AgentReply,
  CommandView,
  Decider,
  DeciderType,
  Id,
  PermissionOption,
  PermissionPolicy,
  PreparedDiff,
  REJECT_MESSAGE_MAX,
  Surface,
  ToolCallSnapshot,
  ToolKind,
  Uuid,
  Warning,
  WarningCode,
} from './domain';
import { ActualEffects, UndoStatus } from './effects';

export const QueryBool = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean(),
);

export const HistoryFilter = z
  .object({
    agentId: Id.optional(),
    sessionId: Id.optional(),
    toolKind: ToolKind.optional(),
    /** allow = an allow_* option was selected; deny = a reject_* option; cancelled = no option. */
    decision: z.enum(['allow', 'deny', 'cancelled']).optional(),
    decider: DeciderType.optional(),
    from: z.coerce.number().int().optional(),
    to: z.coerce.number().int().optional(),
    hasWarnings: QueryBool.optional(),
    /** Full-text search over titles, commands and paths. */
    q: z.string().max(500).optional(),
  })
  .strict();
export type HistoryFilter = z.infer<typeof HistoryFilter>;

export const HistoryQuery = HistoryFilter.extend({
  /** Opaque cursor from the previous page. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
}).strict();
export type HistoryQuery = z.input<typeof HistoryQuery>;

export const HistoryItem = z.object({
  requestId: Uuid,
  sessionId: Id,
  agentId: Id,
  toolKind: ToolKind,
  title: z.string(),
  commandText: z.string().nullable(),
  paths: z.array(z.string()),
  warningCodes: z.array(WarningCode),
  issuedAt: z.number(),
  decidedAt: z.number(),
  reply: AgentReply,
  optionName: z.string().nullable(),
  decider: Decider,
  reason: z.string(),
  /** What the person told the agent with a reject, as the agent was given it. */
  message: z.string().max(REJECT_MESSAGE_MAX).optional(),
});
export type HistoryItem = z.infer<typeof HistoryItem>;

export const HistoryPage = z.object({
  items: z.array(HistoryItem),
  nextCursor: z.string().nullable(),
});
export type HistoryPage = z.infer<typeof HistoryPage>;

export const VoteRecord = z.object({
  clientId: z.string().nullable(),
  surface: Surface.nullable(),
  identityProven: z.boolean(),
  /** null for a cancel vote. */
  optionId: z.string().nullable(),
  outcome: z.string(),
  at: z.number(),
});
export type VoteRecord = z.infer<typeof VoteRecord>;

/**
 * A write the agent asked Gatehouse to perform on the strength of this request: written when it
 * was the approved content, refused when it was not (both hashes kept).
 */
export const FollowingWrite = z.object({
  at: z.number(),
  path: z.string(),
  outcome: z.enum(['written', 'refused']),
  /** sha256 of the content the agent sent. */
  sha256: z.string().nullable(),
  /** sha256 of the content the request showed, when the write was refused for differing. */
  approvedSha256: z.string().nullable(),
  reason: z.string().nullable(),
});
export type FollowingWrite = z.infer<typeof FollowingWrite>;

export const HistoryDetail = HistoryItem.extend({
  cwd: z.string(),
  policy: PermissionPolicy,
  toolCall: ToolCallSnapshot,
  options: z.array(PermissionOption),
  warnings: z.array(Warning),
  diffs: z.array(PreparedDiff),
  command: CommandView.nullable(),
  votes: z.array(VoteRecord),
  displayed: z.boolean(),
  expiresAt: z.number(),
  writes: z.array(FollowingWrite),
  /** What an allowed command really changed, observed in Gatehouse's sandbox; absent when not. */
  effects: ActualEffects.optional(),
  /** Whether its file changes can be undone; absent when nothing was kept for it. */
  undo: UndoStatus.optional(),
});
export type HistoryDetail = z.infer<typeof HistoryDetail>;

/** What `npm run audit:verify` and the history window's check report. */
export const AuditVerdict = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    rows: z.number().int(),
    /** Where verification started after retention pruned the head of the chain. */
    checkpoint: z
      .object({
        seq: z.number().int(),
        hash: z.string(),
        at: z.number(),
        prunedRows: z.number().int(),
      })
      .optional(),
  }),
  z.object({
    ok: z.literal(false),
    firstBrokenSeq: z.number().int(),
    requestId: z.string().optional(),
    reason: z.string(),
  }),
]);
export type AuditVerdict = z.infer<typeof AuditVerdict>;
