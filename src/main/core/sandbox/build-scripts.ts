// Build files that people run by hand (`package.json` scripts, `Makefile`, `justfile`, `*.sh` at
// the root) stay writable: an agent is there to change them. What it changed without asking is
// listed at the end of its turn, so that a person reads it before running `make` or `npm test`.
// Hashed at the start of each turn and compared at its end; Gatehouse's own approved writes are
// left out (own-writes.ts).
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isOwnWrite } from './own-writes';

const BUILD_FILE = /^(package\.json|makefile|gnumakefile|justfile|\.justfile|[^/]*\.sh)$/i;
/** A root with more of them is not listed past this many (sorted by name). */
const MAX_FILES = 64;
/** Larger files are told apart by size and modification time instead of content. */
const MAX_HASHED = 1024 * 1024;

/** Name → digest (`sha256:<hex>`, or `size:<bytes>:<mtime>` for a large file). */
export type BuildScripts = Map<string, string>;

export interface BuildScriptChange {
  path: string;
  /** null: the file was not there. */
  before: string | null;
  after: string | null;
}

/** The build files directly in `root` (real path), each hashed; links are not followed. */
export async function hashBuildScripts(root: string): Promise<BuildScripts> {
  let names: Dirent[];
  try {
    names = await readdir(root, { withFileTypes: true });
  } catch {
    return new Map();
  }
  const files = names
    .filter((entry) => entry.isFile() && BUILD_FILE.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .slice(0, MAX_FILES);
  const hashed = await Promise.all(files.map((name) => digestOf(join(root, name))));
  return new Map(
    files.flatMap((name, i) => (hashed[i] === null ? [] : [[name, hashed[i]!] as const])),
  );
}

async function digestOf(path: string): Promise<string | null> {
  const stats = await lstat(path).catch(() => null);
  if (!stats?.isFile()) return null;
  if (stats.size > MAX_HASHED) return `size:${stats.size}:${Math.trunc(stats.mtimeMs)}`;
  const data = await readFile(path).catch(() => null);
  return data && `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** What changed between two listings, less what Gatehouse itself wrote for a decision. */
export async function changedBuildScripts(
  root: string,
  before: BuildScripts,
  after: BuildScripts,
): Promise<BuildScriptChange[]> {
  const changes: BuildScriptChange[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(name) ?? null;
    const now = after.get(name) ?? null;
    if (was === now) continue;
    const path = join(root, name);
    const stats = now === null ? null : await lstat(path).catch(() => null);
    if (stats && (await isOwnWrite(path, stats))) continue;
    changes.push({ path, before: was, after: now });
  }
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}
