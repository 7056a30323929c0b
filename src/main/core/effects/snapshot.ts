// What the project holds at one moment, cheaply: each entry's kind, size, modification time and
// inode, read without following links and without reading any file. Two of them, taken when a
// command is allowed and when it finished, say what it changed.
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EFFECTS_LIMITS } from '../../../shared/effects';

export interface EntryStamp {
  entry: 'file' | 'folder' | 'link' | 'other';
  size: number;
  /** With its fraction: two writes in one millisecond still differ. */
  mtimeMs: number;
  ino: number;
  dev: number;
}

/** A folder is listed by its name alone: what counts is whether it is there. */
const FOLDER: EntryStamp = { entry: 'folder', size: 0, mtimeMs: 0, ino: 0, dev: 0 };

export interface Snapshot {
  root: string;
  /** Absolute path → stamp; the root itself is not listed. */
  entries: Map<string, EntryStamp>;
  /** False when the walk stopped at the bound or a folder could not be read. */
  complete: boolean;
  /** Why it is not complete. */
  reason: string | null;
}

/** Git's object store: large, written only by git, and never what a person undoes by hand. */
const SKIPPED = [join('.git', 'objects')];

/**
 * Entries read between two turns of the event loop. Read synchronously: one stat through the
 * thread pool costs ten times one made in place, and a snapshot holds the agent's allow; a slice
 * this size takes a millisecond or two, so nothing else waits long.
 */
const SLICE = 500;

function kindOf(d: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }) {
  if (d.isSymbolicLink()) return 'link';
  if (d.isDirectory()) return 'folder';
  return d.isFile() ? 'file' : 'other';
}

/**
 * Walks `root` (a real path) breadth first, in name order, up to `maxEntries` entries. Links are
 * listed, never followed; a folder that cannot be read makes the snapshot incomplete.
 */
export async function snapshotTree(
  root: string,
  maxEntries: number = EFFECTS_LIMITS.snapshotEntries,
): Promise<Snapshot> {
  const entries = new Map<string, EntryStamp>();
  const snapshot: Snapshot = { root, entries, complete: true, reason: null };
  const stop = (reason: string): Snapshot => {
    snapshot.complete = false;
    snapshot.reason ??= reason;
    return snapshot;
  };
  const folders = [root];
  let sinceTurn = 0;
  while (folders.length > 0) {
    const folder = folders.shift()!;
    let names: Dirent[];
    try {
      names = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      // Gone since it was listed: what it held shows up as deleted, which it is.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      stop(`${relative(root, folder) || '.'} could not be read`);
      continue;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      if (entries.size >= maxEntries) {
        return stop(`the project holds more than ${maxEntries.toLocaleString('en')} entries`);
      }
      if (++sinceTurn >= SLICE) {
        sinceTurn = 0;
        await nextTurn();
      }
      const path = join(folder, d.name);
      if (d.isDirectory()) {
        entries.set(path, FOLDER);
        if (!SKIPPED.includes(relative(root, path))) folders.push(path);
        continue;
      }
      const s = lstatSync(path, { throwIfNoEntry: false });
      if (!s) continue;
      const entry = kindOf(s);
      entries.set(path, { entry, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, dev: s.dev });
      if (entry === 'folder' && !SKIPPED.includes(relative(root, path))) folders.push(path);
    }
  }
  return snapshot;
}

/** `path` relative to `root`, `/`-separated (as the protected list reads paths). */
export function relativeSlash(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
