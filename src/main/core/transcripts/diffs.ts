// A transcript's diffs are the dialog's prepared diffs, bounded: one classification (new file,
// modified, deleted, moved) and one line count for both, so they never tell a change differently.
import type { PreparedDiff, ToolCallSnapshot } from '../../../shared/domain';
import { TRANSCRIPT_LIMITS as L, type TranscriptDiff } from '../../../shared/transcript';
import { isDiffItem, prepareDiffs } from '../safety/diff';
import { truncateWithMarker } from '../safety/text';

/** One prepared diff as a transcript keeps it: each side within the transcript's bound. */
export function transcriptDiff(d: PreparedDiff): TranscriptDiff {
  const oldText = d.oldText ?? null;
  const newText = d.newText ?? '';
  return {
    path: truncateWithMarker(d.path, L.path),
    change: d.change,
    oldText: oldText === null ? null : oldText.slice(0, L.diffSide),
    newText: newText.slice(0, L.diffSide),
    oldLines: d.oldLines,
    newLines: d.newLines,
    truncated:
      d.truncated ||
      d.binary ||
      (d.newText === null && d.newBytes > 0) ||
      (oldText?.length ?? 0) > L.diffSide ||
      newText.length > L.diffSide,
  };
}

/**
 * The diffs a tool call declares, prepared as the dialog prepares a request's. Only the diffs the
 * transcript keeps are prepared: an agent that sends thousands costs no more than one that sends
 * four.
 */
export function declaredDiffs(call: ToolCallSnapshot): TranscriptDiff[] {
  const kept = call.content.filter(isDiffItem).slice(0, L.diffs);
  const others = call.content.filter((item) => !isDiffItem(item));
  return prepareDiffs({ ...call, content: [...kept, ...others] }, { maxBytes: L.diffSide })
    .slice(0, L.diffs)
    .map(transcriptDiff);
}
