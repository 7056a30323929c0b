// The contents a change is about to replace, kept in the data folder with the request so that undo
// can put them back: read as the user, outside the sandbox, so only what lies inside the session's
// writable roots is read, without following a link, and only as much as the bounds allow. The data
// folder is hidden from agents; what is kept never passes through the project.
import { createHash } from 'node:crypto';
import { mkdir, open, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EFFECTS_LIMITS } from '../../../shared/effects';
import { isInside, nearestRealPath } from '../fs/containment';
import { READ_IN_PLACE } from '../fs/read-in-place';
import type { BeforeState } from './manifest';

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The root of `real` among `roots` (real paths), or null when it lies outside every one. */
export function rootOf(real: string, roots: readonly string[]): string | null {
  return roots.find((root) => real !== root && isInside(real, root)) ?? null;
}

/**
 * Reads the regular file at `real` (a real path): the last component is opened without following
 * a link and, on Linux, the opened file must still be at `real`. Null when nothing is there.
 * Files over `max` bytes are not read: their size comes back alone.
 */
export async function readNoFollow(
  real: string,
  max: number,
): Promise<
  | { kind: 'absent' }
  | { kind: 'other'; what: string }
  | { kind: 'file'; data: Buffer | null; size: number; mode: number }
> {
  let handle;
  try {
    handle = await open(real, READ_IN_PLACE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent' };
    if (code === 'ELOOP') return { kind: 'other', what: 'a link' };
    return { kind: 'other', what: `unreadable (${code ?? 'error'})` };
  }
  try {
    if (process.platform === 'linux') {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`);
      if (opened !== real) return { kind: 'other', what: 'moved while it was read' };
    }
    const stats = await handle.stat();
    if (stats.isDirectory()) return { kind: 'other', what: 'a folder' };
    if (!stats.isFile()) return { kind: 'other', what: 'not a regular file' };
    const mode = stats.mode & 0o7777;
    if (stats.size > max) return { kind: 'file', data: null, size: stats.size, mode };
    const data = await handle.readFile();
    if (data.length > max) return { kind: 'file', data: null, size: data.length, mode };
    return { kind: 'file', data, size: data.length, mode };
  } finally {
    await handle.close();
  }
}

/**
 * Keeps the current contents of `paths` (absolute) in `dir`, one file per path, bounded per file
 * and per request. Each path comes back with what was there: a kept file, nothing, or why it was
 * not kept. `roots` are the writable roots (real paths) the paths must lie in.
 */
export async function keepBefore(
  dir: string,
  paths: readonly string[],
  roots: readonly string[],
): Promise<{ before: BeforeState[]; bytes: number }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const before: BeforeState[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  for (const asked of paths) {
    let real: string;
    try {
      real = await nearestRealPath(asked);
    } catch {
      before.push({ path: asked, state: 'not_kept', why: 'its place cannot be known' });
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    if (rootOf(real, roots) === null) {
      before.push({ path: real, state: 'not_kept', why: 'outside the writable roots' });
      continue;
    }
    const left = EFFECTS_LIMITS.keptRequestBytes - bytes;
    const read = await readNoFollow(real, Math.min(EFFECTS_LIMITS.keptFileBytes, left));
    if (read.kind === 'absent') {
      before.push({ path: real, state: 'absent' });
    } else if (read.kind === 'other') {
      before.push({ path: real, state: 'not_kept', why: read.what });
    } else if (read.data === null) {
      const why =
        read.size > EFFECTS_LIMITS.keptFileBytes
          ? `larger than ${megabytes(EFFECTS_LIMITS.keptFileBytes)} (${megabytes(read.size)})`
          : `past the ${megabytes(EFFECTS_LIMITS.keptRequestBytes)} kept for one request`;
      before.push({ path: real, state: 'not_kept', why });
    } else {
      const blob = String(before.length);
      await writeFile(join(dir, blob), read.data, { mode: 0o600, flag: 'wx' });
      bytes += read.data.length;
      before.push({
        path: real,
        state: 'file',
        blob,
        sha256: sha256(read.data),
        size: read.data.length,
        mode: read.mode,
      });
    }
  }
  return { before, bytes };
}
