// A protected path that did not exist when the sandbox started cannot be bound read-only without a
// placeholder in the person's project (bubblewrap 0.8 has no overlay). Each root's top level, its
// `.git` and the gitdir a `.git` file names are watched instead: a protected path that appears
// there, and that Gatehouse did not write itself, is moved at once out of the project into the
// data folder's quarantine, and reported. A folder on the way to one (`.git` made by `git init`)
// is watched in turn; a protected folder Gatehouse made for an approved write is watched whole,
// and what else appears in it is moved.
import { lstatSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { isInside } from '../fs/containment';
import { logger } from '../log/logger';
import { isEntryAncestor, protectedEntryFor, type ProtectedEntry } from '../rules/protected-files';
import { isOwnWrite, ownWriteCovers, ownWritesSettled } from './own-writes';
import {
  isGitLink,
  type ProtectedMounts,
  type ProtectedScan,
  type WatchedDir,
} from './protected-mounts';
import { quarantine } from './quarantine';

const log = logger('sandbox');

/** A protected path that appeared and was moved away (or could not be). */
export interface ProtectedMove {
  path: string;
  /** The protected entry it falls under (`.git` for a `.git` file or link made where git looks). */
  entry: string;
  runs: string;
  movedTo: string | null;
  /** Why it could not be moved; it is still there. */
  error?: string;
}

export interface ProtectedWatchOptions {
  scan: ProtectedScan;
  /** What was bound at start: the agent cannot change it; people may, and are left alone. */
  mounts: ProtectedMounts;
  entries: readonly ProtectedEntry[];
  /** This session's quarantine folder, in Gatehouse's data folder. */
  quarantineDir: string;
  onMove: (move: ProtectedMove) => void;
}

export interface ProtectedWatch {
  /** Resolves once every event seen so far has been judged (and its path moved). */
  idle(): Promise<void>;
  close(): void;
}

/** Folders made during the session and watched; past this, new ones are moved instead. */
const MAX_EXTRA_WATCHES = 64;
const GIT_RUNS = 'git takes its hooks and config from where this points';

/** Starts watching; call before the agent starts, close when its session ends. */
export function watchProtected(options: ProtectedWatchOptions): ProtectedWatch {
  const { scan, entries } = options;
  const anchors = new Set(options.mounts.anchors);
  const readOnly = new Set(options.mounts.readOnly);
  const watchers: FSWatcher[] = [];
  let extra = 0;
  let closed = false;
  let queue: Promise<void> = Promise.resolve();
  // Links found at start are the person's: only a change to one is judged.
  const startLinks = new Map<string, number>();

  /** Each event in turn: two moves of one path never run at once. */
  const enqueue = (task: () => Promise<void>): void => {
    queue = queue.then(task).catch((error: Error) => log.warn('protected watch:', error.message));
  };

  const listen = (base: WatchedDir, names: string[], recursive: boolean): boolean => {
    const dir = join(base.dir, ...names);
    try {
      const watcher = watch(dir, { persistent: false, recursive }, (_event, name) => {
        if (closed || typeof name !== 'string' || name === '') return;
        enqueue(() => judge(base, [...names, ...name.split(sep)]));
      });
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
      return true;
    } catch {
      return false;
    }
  };

  const judge = async (base: WatchedDir, names: string[]): Promise<void> => {
    if (closed) return;
    const path = join(base.dir, ...names);
    const rel = [base.rel, ...names].filter((part) => part !== '').join('/');
    const entry = protectedEntryFor(rel, entries);
    const ancestor = entry === null && isEntryAncestor(rel, entries);
    if (!entry && !ancestor) return;
    if (anchors.has(path) || [...readOnly].some((bound) => isInside(path, bound))) return;
    if (ownWriteCovers(path)) await ownWritesSettled();
    const stats = await lstat(path).catch(() => null);
    if (!stats || (stats.isSymbolicLink() && startLinks.get(path) === stats.ino)) return;
    if (entry) {
      if (!(await isOwnWrite(path, stats))) return move(base, names, entry.path, entry.runs);
      if (stats.isDirectory()) await follow(base, names, true);
      return;
    }
    // On the way to a protected path: a real folder is watched; a `.git` file or a link where
    // git looks would send git elsewhere for hooks and config.
    if (stats.isDirectory()) await follow(base, names, false);
    else if (stats.isSymbolicLink() || isGitLink(rel)) await move(base, names, rel, GIT_RUNS);
  };

  /** Watches a folder made during the session, then judges what it already holds. */
  const follow = async (base: WatchedDir, names: string[], recursive: boolean): Promise<void> => {
    const rel = [base.rel, ...names].join('/');
    if (extra >= MAX_EXTRA_WATCHES || !listen(base, names, recursive)) {
      const entry = protectedEntryFor(rel, entries);
      return move(base, names, entry?.path ?? rel, entry?.runs ?? GIT_RUNS);
    }
    extra += 1;
    const children = await readdir(join(base.dir, ...names)).catch(() => [] as string[]);
    for (const child of children) await judgeTree(base, [...names, child], recursive);
  };

  const judgeTree = async (base: WatchedDir, names: string[], deep: boolean): Promise<void> => {
    await judge(base, names);
    if (!deep) return;
    const stats: Stats | null = await lstat(join(base.dir, ...names)).catch(() => null);
    if (!stats?.isDirectory()) return;
    for (const child of await readdir(join(base.dir, ...names)).catch(() => [] as string[]))
      await judgeTree(base, [...names, child], deep);
  };

  const move = async (base: WatchedDir, names: string[], entry: string, runs: string) => {
    const path = join(base.dir, ...names);
    try {
      const movedTo = await quarantine(base.dir, names, options.quarantineDir);
      options.onMove({ path, entry, runs, movedTo });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      options.onMove({ path, entry, runs, movedTo: null, error: (error as Error).message });
    }
  };

  for (const item of scan.found) {
    if (item.kind !== 'link') continue;
    const stats = lstatSync(item.path, { throwIfNoEntry: false });
    if (stats) startLinks.set(item.path, stats.ino);
  }
  for (const dir of scan.watch) listen(dir, [], false);

  return {
    idle: async () => {
      let seen: Promise<void> | null = null;
      while (seen !== queue) {
        seen = queue;
        await seen;
      }
    },
    close: () => {
      closed = true;
      for (const watcher of watchers.splice(0)) watcher.close();
    },
  };
}
