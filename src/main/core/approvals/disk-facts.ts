// The disk's side of a request, gathered before the warnings are computed: where each path really
// leads, and the file each diff replaces. Bounded (paths, bytes per file and in all), and only
// inside the session folder for contents: a request naming ~/.ssh/id_rsa must not copy it into the
// dialog and the audit. The paths are walked off the thread; the files, within their bounds, are
// read in place (readInPlace): through the thread pool each of those calls costs ten times more.
import { join, resolve } from 'node:path';
import type { ToolCallSnapshot } from '../../../shared/domain';
import { isInside, joinAsGiven, pathBelow, realPathOrNull, realPathSync } from '../fs/containment';
import { readInPlace } from '../fs/read-in-place';
import { getDefaultResolver } from '../rules/request';
import type { DiskFile, DiskPath, DiskView } from '../safety';
import { looksBinary } from '../safety/binary';
import { isDiffItem } from '../safety/diff';
import { DIFF_SIDE_MAX_BYTES, DIFFS_TEXT_MAX_BYTES } from '../safety/limits';
import { ownField, stringField } from '../safety/text';

/** Paths of one request looked up on disk; a person cannot review more in one dialog anyway. */
export const DISK_MAX_PATHS = 64;

/** Whether the request names paths or diffs worth looking up. */
export function needsDisk(toolCall: ToolCallSnapshot): boolean {
  return toolCall.locations.length > 0 || toolCall.content.some(isDiffItem);
}

/** Never throws: what cannot be found out is left out, and the warnings say nothing of it. */
export async function gatherDiskFacts(cwd: string, toolCall: ToolCallSnapshot): Promise<DiskView> {
  const root = existingRealPath(cwd);
  const named = new Set<string>();
  const diffPaths = new Set<string>();
  for (const item of toolCall.content) {
    if (!isDiffItem(item)) continue;
    const path = stringField(item, 'path');
    if (path === undefined || path === '') continue;
    named.add(path);
    if (typeof ownField(item, 'newText') === 'string') diffPaths.add(path);
  }
  for (const l of toolCall.locations) if (l.path !== '') named.add(l.path);
  const paths = await Promise.all(
    [...named].slice(0, DISK_MAX_PATHS).map((p) => lookUp(p, cwd, root)),
  );
  const files: DiskFile[] = [];
  let budget = DIFFS_TEXT_MAX_BYTES;
  for (const p of paths) {
    if (!diffPaths.has(p.path) || p.real === null || root === null || !isInside(p.real, root))
      continue;
    const file = readBounded(p.path, p.real, Math.min(DIFF_SIDE_MAX_BYTES, budget));
    budget -= file.text === null ? 0 : Buffer.byteLength(file.text, 'utf8');
    files.push(file);
  }
  return { cwd, root, gitDirs: getDefaultResolver().linkedGitDirs(root), paths, files };
}

/** The real path of an existing place, or null. */
function existingRealPath(path: string): string | null {
  try {
    return realPathSync(path);
  } catch {
    return null;
  }
}

/**
 * Walked off the thread: an agent can name 64 paths of 40 missing folders each, and the walk of
 * one asks the disk at every level, tens of milliseconds in all that must not hold the core's
 * thread.
 */
async function lookUp(path: string, cwd: string, root: string | null): Promise<DiskPath> {
  const lexical = resolve(cwd, path);
  // `link/../x` goes where the kernel takes it, not where the text says.
  const real = await realPathOrNull(joinAsGiven(cwd, path));
  const below = root === null ? null : pathBelow(lexical, cwd);
  const expected = root !== null && below !== null ? join(root, below) : lexical;
  return { path, lexical, real, linked: real !== null && real !== expected };
}

/** A regular file's text within `max` bytes; a FIFO, a folder, a binary or a larger file is not read. */
function readBounded(path: string, real: string, max: number): DiskFile {
  const read = readInPlace(real, max);
  if (read.kind === 'absent') return { path, exists: false, text: null };
  if (read.kind === 'other' || read.data === null) return { path, exists: true, text: null };
  const text = read.data.toString('utf8');
  return { path, exists: true, text: looksBinary(text) ? null : text };
}
