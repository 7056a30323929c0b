// Text diffs of what a preview changed, for the dialog's diff view: the before from the real file,
// the after from the layer, prepared by the one diff preparation (binary detection, bounds). Neither
// side is read through a link: a link the command made, or one the project holds, could otherwise
// put a secret of the person's into the dialog.
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PREVIEW_LIMITS, type PreviewChange } from '../../../shared/preview';
import type { PreparedDiff, ToolCallSnapshot } from '../../../shared/domain';
import { READ_IN_PLACE } from '../fs/read-in-place';
import { prepareDiffs } from '../safety';

/** Per side: larger files are shown by size only. */
export const DIFF_SIDE_MAX_BYTES = 256 * 1024;
const DIFFS_TOTAL_BYTES = 2 * 1024 * 1024;

/**
 * A file opened for reading, never through a link and without waiting (a named pipe the project
 * holds would otherwise hold the preview forever); null when it cannot be opened.
 */
export function openInPlace(path: string): Promise<FileHandle | null> {
  return open(path, READ_IN_PLACE).catch(() => null);
}

/**
 * A file's text, not through a link and not past the bound; null when it cannot be shown. Opened
 * without waiting: a named pipe the project holds would otherwise hold the preview forever.
 */
export async function readSide(path: string): Promise<string | null> {
  const handle = await openInPlace(path);
  if (!handle) return null;
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > DIFF_SIDE_MAX_BYTES) return null;
    const buffer = Buffer.alloc(stat.size);
    const { bytesRead } = await handle.read(buffer, 0, stat.size, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The real file's text, only where no folder on its way is a link. */
async function readBefore(path: string): Promise<string | null> {
  const folder = dirname(path);
  if ((await realpath(folder).catch(() => null)) !== folder) return null;
  return readSide(path);
}

/**
 * Diffs of the first PREVIEW_LIMITS.diffs files shown, in the order shown. `after` reads a changed
 * file's new content from the layer (null: not there, or not shown).
 */
export async function previewDiffs(
  changes: readonly PreviewChange[],
  after: (change: PreviewChange) => Promise<string | null>,
): Promise<PreparedDiff[]> {
  const out: PreparedDiff[] = [];
  let left = DIFFS_TOTAL_BYTES;
  for (const change of changes) {
    if (out.length >= PREVIEW_LIMITS.diffs || left <= 0) break;
    if (change.entry !== 'file') continue;
    const oldPath = change.change === 'renamed' ? change.oldPath : change.path;
    const oldText = change.change === 'created' || !oldPath ? null : await readBefore(oldPath);
    const newText = change.change === 'deleted' ? '' : await after(change);
    if (change.change !== 'created' && oldText === null) continue;
    if (newText === null) continue;
    const kind =
      change.change === 'deleted' ? 'delete' : change.change === 'renamed' ? 'move' : 'edit';
    const call: ToolCallSnapshot = {
      toolCallId: 'preview',
      kind,
      title: '',
      locations: [],
      rawInput: kind === 'move' ? { source: oldPath, destination: change.path } : undefined,
      content: [{ type: 'diff', path: change.path, oldText, newText }],
    };
    const [diff] = prepareDiffs(call, { maxBytes: DIFF_SIDE_MAX_BYTES, totalBytes: left });
    if (!diff) continue;
    left -= Buffer.byteLength(diff.oldText ?? '') + Buffer.byteLength(diff.newText ?? '');
    out.push(diff);
  }
  return out;
}
