// What the project holds at one moment, cheaply: each entry's kind, size, modification time and
// inode, read without following links and without reading any file. Two of them, taken when a
// command is allowed and when it finished, say what it changed.
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { EFFECTS_LIMITS } from '../../../shared/effects';

export interface EntryStamp {
  entry: 'file' | 'folder' | 'link' | 'other';
  size: number;
  /** Nanoseconds, as a decimal string: two writes in one millisecond still differ. */
  mtimeNs: string;
  /** Decimal strings: inode numbers can exceed 2^53. */
  ino: string;
  dev: string;
}

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

/** Entries stat'ed at once: enough to keep the disk busy, few enough not to starve the thread. */
const BATCH = 64;

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
  while (folders.length > 0) {
    const folder = folders.shift()!;
    let names: Dirent[];
    try {
      names = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      // Gone since it was listed: what it held shows up as deleted, which it is.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      stop(`${relative(root, folder) || '.'} could not be read`);
      continue;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (let i = 0; i < names.length; i += BATCH) {
      const batch = names.slice(i, i + BATCH);
      const stamps = await Promise.all(
        batch.map((d) =>
          lstat(join(folder, d.name), { bigint: true }).then(
            (s) => s,
            () => null,
          ),
        ),
      );
      for (let j = 0; j < batch.length; j += 1) {
        const s = stamps[j];
        if (!s) continue;
        if (entries.size >= maxEntries) {
          return stop(`the project holds more than ${maxEntries.toLocaleString('en')} entries`);
        }
        const path = join(folder, batch[j]!.name);
        const entry = kindOf(s);
        entries.set(path, {
          entry,
          size: Number(s.size),
          mtimeNs: s.mtimeNs.toString(),
          ino: s.ino.toString(),
          dev: s.dev.toString(),
        });
        if (entry === 'folder' && !SKIPPED.includes(relative(root, path))) folders.push(path);
      }
    }
  }
  return snapshot;
}

/** `path` relative to `root`, `/`-separated (as the protected list reads paths). */
export function relativeSlash(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
