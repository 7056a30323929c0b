// A session's transcript as the core rebuilds it from the agent's session/update notifications,
// the prompts sent and the decisions taken: every surface reads the same one.
import { z } from 'zod';
import type { AgentReply } from './domain';
import {
  Decider,
  REJECT_MESSAGE_MAX,
  Id,
  Location,
  PermissionOptionKind,
  PreparedDiff,
  ToolKind,
  Uuid,
} from './domain';

/** Bounds of one transcript: what an agent streams can never grow the core or a client without end. */
export const TRANSCRIPT_LIMITS = {
  /** Entries kept per session; the oldest go first. */
  entries: 2_000,
  /** Characters kept per session across its entries (texts, diffs); the oldest entries go first. */
  chars: 4_000_000,
  /** A message or thought longer than this continues in a new entry. */
  text: 32_000,
  /** Text a tool call reports (its non-diff content), kept from the start. */
  toolText: 8_000,
  /** Diffs kept per tool call, and characters kept per side of each. */
  diffs: 4,
  diffSide: 32_000,
  title: 500,
  command: 2_000,
  path: 4_096,
  locations: 32,
  planItems: 100,
  planItem: 1_000,
  reason: 2_000,
} as const;
const L = TRANSCRIPT_LIMITS;

export const TranscriptDiff = z.object({
  path: z.string().max(L.path),
  /**
   * What happens to the file, as the core classified it for the dialog (an agent's '' before is a
   * new file there too): the transcript and the dialog never disagree on new or modified.
   */
  change: PreparedDiff.shape.change,
  /** null: no text before (a new file, or a side not kept). */
  oldText: z.string().max(L.diffSide).nullable(),
  newText: z.string().max(L.diffSide),
  /** Lines of the whole sides, counted as the dialog counts them (before any cut). */
  oldLines: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
  /** A side was cut to fit: the view says so instead of showing a false diff. */
  truncated: z.boolean(),
});
export type TranscriptDiff = z.infer<typeof TranscriptDiff>;

/** What a permission request showed a person about a tool call: the diff and command they decided on. */
export const AskedView = z.object({
  requestId: Uuid,
  diffs: z.array(TranscriptDiff).max(L.diffs),
  command: z.string().max(L.command).nullable(),
});
export type AskedView = z.infer<typeof AskedView>;

export const PlanItem = z.object({
  content: z.string().max(L.planItem),
  status: z.enum(['pending', 'in_progress', 'completed']),
  priority: z.enum(['high', 'medium', 'low']),
});
export type PlanItem = z.infer<typeof PlanItem>;

export const ToolStatus = z.enum(['pending', 'in_progress', 'completed', 'failed']);
export const DecisionOutcome = z.enum(['allowed', 'rejected', 'cancelled']);
export type DecisionOutcome = z.infer<typeof DecisionOutcome>;

/** What every entry carries: its place (id), its last change (rev), when it began (at). */
const Base = {
  id: z.number().int().nonnegative(),
  rev: z.number().int().nonnegative(),
  at: z.number(),
};

export const TranscriptEntry = z.discriminatedUnion('kind', [
  z.object({ ...Base, kind: z.literal('user'), text: z.string().max(L.text) }),
  z.object({ ...Base, kind: z.literal('agent'), text: z.string().max(L.text) }),
  z.object({ ...Base, kind: z.literal('thought'), text: z.string().max(L.text) }),
  z.object({ ...Base, kind: z.literal('plan'), items: z.array(PlanItem).max(L.planItems) }),
  z.object({
    ...Base,
    kind: z.literal('tool'),
    toolCallId: z.string().max(200),
    toolKind: ToolKind,
    title: z.string().max(L.title),
    status: ToolStatus,
    locations: z.array(Location).max(L.locations),
    diffs: z.array(TranscriptDiff).max(L.diffs),
    /** The command line an execute call runs, as the agent declared it. */
    command: z.string().max(L.command).nullable(),
    text: z.string().max(L.toolText),
    /** What a person was asked about this call, when a request was shown (absent: none was). */
    asked: AskedView.optional(),
    /** After the decision the agent changed the call's diff or command: it is not what was asked. */
    changedAfterDecision: z.boolean().optional(),
    /**
     * How its permission request was decided (absent: none was asked, or not yet). An agent need not
     * report a refused call as failed (Gemini CLI leaves it pending): the decision is the truth.
     */
    decided: DecisionOutcome.optional(),
  }),
  /**
   * Updates the agent sent faster than they could be shown, dropped where they stood so that a
   * request did not wait behind them; the count grows while the flood lasts.
   */
  z.object({ ...Base, kind: z.literal('dropped'), updates: z.number().int().positive() }),
  /** One update too large to pass on (an editor's agent behind `gatehouse acp`): its size, audited. */
  z.object({ ...Base, kind: z.literal('too_large'), bytes: z.number().int().positive() }),
  z.object({
    ...Base,
    kind: z.literal('decision'),
    requestId: Uuid,
    /** The tool call it answered, when the request was shown to someone. */
    toolCallId: z.string().max(200).nullable(),
    title: z.string().max(L.title).nullable(),
    outcome: DecisionOutcome,
    optionKind: PermissionOptionKind.nullable(),
    decider: Decider,
    reason: z.string().max(L.reason),
    /** The person's words with a reject, as the agent was given them (already cleaned). */
    message: z.string().max(REJECT_MESSAGE_MAX).optional(),
  }),
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

export const Transcript = z.object({
  sessionId: Id,
  /** The transcript's latest change; ask again with `since` set to it for what changed after. */
  rev: z.number().int().nonnegative(),
  /** Entries before this id were dropped to keep the transcript bounded. */
  firstId: z.number().int().nonnegative(),
  dropped: z.number().int().nonnegative(),
  entries: z.array(TranscriptEntry).max(L.entries),
});
export type Transcript = z.infer<typeof Transcript>;

/** How a reply reads in a transcript. */
export function outcomeOf(reply: AgentReply): DecisionOutcome {
  if (reply.outcome === 'cancelled') return 'cancelled';
  return reply.optionKind.startsWith('allow') ? 'allowed' : 'rejected';
}
