// Two snapshots of the project, before and after, as the list of changes the preview's model
// speaks of: created, modified, deleted, renamed (the same file, by inode, under a new name).
import { NO_COUNTS, type PreviewChange, type PreviewCounts } from '../../../shared/preview';
import { protectedEntryFor, type ProtectedEntry } from '../rules/protected-files';
import { relativeSlash, type EntryStamp, type Snapshot } from './snapshot';

export interface Comparison {
  /** Every change, in path order. */
  changes: PreviewChange[];
  counts: PreviewCounts;
}

const sameFile = (a: EntryStamp, b: EntryStamp): boolean =>
  a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** What differs between `before` and `after` (one root). Folders count when made or removed. */
export function compareSnapshots(
  before: Snapshot,
  after: Snapshot,
  protectedEntries?: readonly ProtectedEntry[],
): Comparison {
  const placeOf = (path: string): PreviewChange['place'] =>
    protectedEntryFor(relativeSlash(before.root, path), protectedEntries, true)
      ? 'protected'
      : 'root';
  const change = (
    path: string,
    kind: PreviewChange['change'],
    stamp: EntryStamp,
    oldPath: string | null = null,
  ): PreviewChange => ({
    path,
    oldPath,
    change: kind,
    entry: stamp.entry,
    size: kind === 'deleted' || stamp.entry !== 'file' ? null : stamp.size,
    place: oldPath && placeOf(oldPath) === 'protected' ? 'protected' : placeOf(path),
  });

  const created: [string, EntryStamp][] = [];
  const deleted = new Map<string, EntryStamp>();
  const changes: PreviewChange[] = [];
  for (const [path, was] of before.entries) {
    const now = after.entries.get(path);
    if (!now) deleted.set(path, was);
    else if (now.entry !== was.entry) changes.push(change(path, 'modified', now));
    else if (now.entry !== 'folder' && !sameFile(was, now))
      changes.push(change(path, 'modified', now));
  }
  for (const [path, now] of after.entries) if (!before.entries.has(path)) created.push([path, now]);

  // A file that left one name and appeared under another, unchanged, was renamed.
  const goneByInode = new Map<string, string>();
  for (const [path, was] of deleted) {
    if (was.entry === 'file') goneByInode.set(`${was.dev}:${was.ino}`, path);
  }
  for (const [path, now] of created) {
    const from = now.entry === 'file' ? goneByInode.get(`${now.dev}:${now.ino}`) : undefined;
    if (from !== undefined && sameFile(deleted.get(from)!, now)) {
      deleted.delete(from);
      goneByInode.delete(`${now.dev}:${now.ino}`);
      changes.push(change(path, 'renamed', now, from));
    } else {
      changes.push(change(path, 'created', now));
    }
  }
  for (const [path, was] of deleted) changes.push(change(path, 'deleted', was));
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, counts: countChanges(changes) };
}

export function countChanges(changes: readonly PreviewChange[]): PreviewCounts {
  const counts = { ...NO_COUNTS };
  for (const c of changes) {
    counts[c.change] += 1;
    if (c.place === 'protected') counts.protected += 1;
    if (c.place === 'outside') counts.outside += 1;
  }
  return counts;
}
