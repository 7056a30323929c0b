// What an allowed request really did to the files, next to what its preview said it would, and
// whether it can be undone: the record history shows and the undo command acts on. The changes
// use the preview's own model of a change (shared/preview.ts), so both lists read alike.
import { z } from 'zod';
import { PREVIEW_LIMITS, PreviewChange, PreviewCounts } from './preview';

export const EFFECTS_LIMITS = {
  /** Entries one snapshot of the project reads; past it the comparison is incomplete. */
  snapshotEntries: 50_000,
  /** Changes listed one by one in the audit; `counts` counts them all. */
  changes: PREVIEW_LIMITS.changes,
  /** Largest file whose contents are kept for undo. */
  keptFileBytes: 1024 * 1024,
  /** Contents kept for one request. */
  keptRequestBytes: 16 * 1024 * 1024,
  /** Contents kept for every request together; the oldest go first. */
  keptTotalBytes: 256 * 1024 * 1024,
  /** Largest file whose contents are hashed after the change (what undo compares against). */
  hashedFileBytes: 64 * 1024 * 1024,
  /** Contents hashed after one request's change, and read by one undo; past it, no undo. */
  hashedRequestBytes: 256 * 1024 * 1024,
  reason: 500,
} as const;

/**
 * - `observed`: the project was compared before the allow and after the tool call finished (or the
 *   turn ended); `changes` is what differs.
 * - `incomplete`: compared, but not wholly (`reason`: the project held more entries than a
 *   snapshot reads, or it could not be read).
 * - `written`: an edit Gatehouse wrote itself; `changes` are its writes.
 */
export const EffectsState = z.enum(['observed', 'incomplete', 'written']);
export type EffectsState = z.infer<typeof EffectsState>;

export const ActualEffects = z.object({
  state: EffectsState,
  reason: z.string().max(EFFECTS_LIMITS.reason).nullable(),
  /** What ended the observation: the tool call's own report, the turn's end, the session's end. */
  endedBy: z.enum(['completed', 'failed', 'turn_end', 'session_end', 'write']),
  changes: z.array(PreviewChange).max(EFFECTS_LIMITS.changes),
  counts: PreviewCounts,
  /** What the preview listed when the request was allowed; null when it had none. */
  previewed: PreviewCounts.nullable(),
  /** "previewed 2 files, changed 40": set when what happened is not what the preview showed. */
  difference: z.string().max(EFFECTS_LIMITS.reason).nullable(),
  startedAt: z.number(),
  endedAt: z.number(),
});
export type ActualEffects = z.infer<typeof ActualEffects>;

/** Whether history offers "Undo these file changes" for a request, and if not, why. */
export const UndoStatus = z.object({
  available: z.boolean(),
  reason: z.string().max(EFFECTS_LIMITS.reason).nullable(),
  /** When its changes were undone (then nothing is offered again). */
  undoneAt: z.number().nullable(),
});
export type UndoStatus = z.infer<typeof UndoStatus>;

export const UndoOutcome = z.object({
  ok: z.literal(true),
  /** Files written back with their previous contents. */
  restored: z.number().int().nonnegative(),
  /** Files the change had created, removed. */
  removed: z.number().int().nonnegative(),
});
export type UndoOutcome = z.infer<typeof UndoOutcome>;

const fileWord = (n: number): string => `${n} ${n === 1 ? 'file' : 'files'}`;

export function changedTotal(counts: PreviewCounts): number {
  return counts.created + counts.modified + counts.deleted + counts.renamed;
}

/**
 * "previewed 2 files, changed 40" when the run changed another number of files, or files the
 * preview did not name; null when both agree.
 */
export function effectsDifference(
  previewed: PreviewCounts,
  previewedPaths: ReadonlySet<string> | null,
  actual: PreviewCounts,
  actualPaths: readonly string[],
): string | null {
  const before = changedTotal(previewed);
  const after = changedTotal(actual);
  if (before !== after) return `previewed ${fileWord(before)}, changed ${after}`;
  const unnamed = previewedPaths ? actualPaths.filter((p) => !previewedPaths.has(p)).length : 0;
  return unnamed > 0 ? `changed ${fileWord(unnamed)} the preview did not list` : null;
}
