// Files that run later (git hooks and config, editor tasks, CLI settings) inside the folders an
// agent may write: found at sandbox start, then bound read-only over themselves. The folders on the
// way to them (`.git`) are bound onto themselves, so that they become mount points: a mount point
// cannot be renamed or removed (EBUSY), so `mv .git .git2` and `rm -rf .git` fail and the protected
// paths stay where git looks for them. What does not exist yet cannot be bound without leaving a
// placeholder in the person's project; protected-watch.ts watches for it instead.
import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isInside } from '../fs/containment';
import {
  isEntryAncestor,
  PROTECTED_FILES,
  protectedEntryFor,
  type ProtectedEntry,
} from '../rules/protected-files';

export type FoundKind = 'dir' | 'file' | 'link' | 'other';

/** A protected path, or a folder on the way to one, that exists at sandbox start. */
export interface FoundPath {
  path: string;
  /** What is matched against the list: `.git/hooks` also for a worktree's or submodule's gitdir. */
  rel: string;
  kind: FoundKind;
  /** The writable root it is inside: anchors stop there (the root is a mount point already). */
  root: string;
}

/** A folder whose new names the watch judges; `rel` prefixes those names (`''` for a root). */
export interface WatchedDir {
  dir: string;
  rel: string;
  root: string;
}

export interface ProtectedScan {
  found: FoundPath[];
  watch: WatchedDir[];
}

export interface ProtectedMounts {
  /** Bound onto themselves (writable, as before), so that they cannot be renamed or removed. */
  anchors: string[];
  /** Bound read-only over themselves, after the anchors. */
  readOnly: string[];
}

/** Far more than a project holds; a folder full of look-alike names cannot make a start slow. */
const MAX_FOUND = 512;
const MAX_DEPTH = 8;
/** A `.git` file is one line (`gitdir: <path>`); a larger one is not git's. */
const MAX_GIT_FILE = 4096;

/**
 * The mounts for what was found: pure, so that the plan can be checked without a file system.
 * Links are left to the watch (a bind follows a link); files and folders matched by an entry are
 * bound read-only, and so is a `.git` file (it names the folder git takes hooks and config from).
 */
export function planProtectedMounts(
  found: readonly FoundPath[],
  entries: readonly ProtectedEntry[] = PROTECTED_FILES,
): ProtectedMounts {
  const readOnly = new Set<string>();
  const anchors = new Set<string>();
  for (const item of found) {
    if (item.kind !== 'dir' && item.kind !== 'file') continue;
    const protects = protectedEntryFor(item.rel, entries) !== null;
    const gitFile = item.kind === 'file' && isGitLink(item.rel);
    if (!protects && !gitFile) {
      if (item.kind === 'dir' && isEntryAncestor(item.rel, entries)) anchors.add(item.path);
      continue;
    }
    readOnly.add(item.path);
    for (let dir = dirname(item.path); dir !== item.root && isInside(dir, item.root);) {
      anchors.add(dir);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  // A path inside one bound read-only is read-only already; binding it again changes nothing.
  const covered = (path: string): boolean =>
    [...readOnly].some((other) => other !== path && isInside(path, other));
  const byDepth = (a: string, b: string): number => depth(a) - depth(b) || a.localeCompare(b);
  return {
    anchors: [...anchors].filter((path) => !readOnly.has(path) && !covered(path)).sort(byDepth),
    readOnly: [...readOnly].filter((path) => !covered(path)).sort(byDepth),
  };
}

/**
 * Lists each writable root (real paths) for protected names and the folders on the way to them,
 * following a `.git` file's `gitdir:` and its `commondir` while they stay inside a root.
 */
export async function scanProtected(
  roots: readonly string[],
  entries: readonly ProtectedEntry[] = PROTECTED_FILES,
): Promise<ProtectedScan> {
  const scan: ProtectedScan = { found: [], watch: [] };
  const visited = new Set<string>();
  const rootOf = (path: string): string | undefined => roots.find((root) => isInside(path, root));

  const walk = async (dir: string, rel: string, root: string, level: number): Promise<void> => {
    if (visited.has(dir) || level > MAX_DEPTH) return;
    visited.add(dir);
    scan.watch.push({ dir, rel, root });
    let names: Dirent[];
    try {
      names = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of names) {
      if (scan.found.length >= MAX_FOUND) return;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const protects = protectedEntryFor(childRel, entries) !== null;
      const ancestor = !protects && isEntryAncestor(childRel, entries);
      if (!protects && !ancestor) continue;
      const path = join(dir, entry.name);
      const kind = kindOf(entry);
      scan.found.push({ path, rel: childRel, kind, root });
      if (!ancestor) continue;
      if (kind === 'dir') await walk(path, childRel, root, level + 1);
      else if (kind === 'link') await follow(await realpath(path).catch(() => null), childRel);
      else if (kind === 'file' && isGitLink(childRel)) {
        const gitdir = await gitdirOf(path);
        await follow(gitdir, childRel);
        if (gitdir) await follow(await commondirOf(gitdir), childRel);
      }
    }
  };
  // Only what stays inside a writable root: elsewhere the sandbox is read-only anyway.
  const follow = async (target: string | null, rel: string): Promise<void> => {
    const root = target ? rootOf(target) : undefined;
    if (target && root) await walk(target, rel, root, rel.split('/').length);
  };

  for (const root of roots) await walk(root, '', root, 0);
  return scan;
}

/** Whether `rel` is where git looks for its folder or a `gitdir:` file: `.git`, in any case. */
export function isGitLink(rel: string): boolean {
  return rel.toLowerCase() === '.git';
}

function kindOf(entry: Dirent): FoundKind {
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  return 'other';
}

/** The real folder a `.git` file names (`gitdir: <path>`, relative to the file's folder), or null. */
export async function gitdirOf(gitFile: string): Promise<string | null> {
  const named = await pointer(gitFile, /^gitdir:\s*(.+?)\s*$/m);
  return named === null ? null : realpath(resolve(dirname(gitFile), named)).catch(() => null);
}

/** The real common folder a gitdir's `commondir` names (relative to the gitdir), or null. */
export async function commondirOf(gitdir: string): Promise<string | null> {
  const named = await pointer(join(gitdir, 'commondir'), /^(.+?)\s*$/m);
  return named === null ? null : realpath(resolve(gitdir, named)).catch(() => null);
}

async function pointer(file: string, pattern: RegExp): Promise<string | null> {
  let text: string;
  try {
    const data = await readFile(file);
    if (data.length > MAX_GIT_FILE) return null;
    text = data.toString('utf8');
  } catch {
    return null;
  }
  const named = pattern.exec(text)?.[1];
  return named && !named.includes('\0') ? named : null;
}

function depth(path: string): number {
  return path.split('/').length;
}
