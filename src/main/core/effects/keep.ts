// The contents a change is about to replace, kept in the data folder with the request so that undo
// can put them back: read as the user, outside the sandbox, so only what lies inside the session's
// writable roots is read, without following a link, and only as much as the bounds allow. The data
// folder is hidden from agents; what is kept never passes through the project.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { EFFECTS_LIMITS } from '../../../shared/effects';
import { isInside, nearestRealPath } from '../fs/containment';
import { readInPlace } from '../fs/read-in-place';
import type { BeforeState } from './manifest';

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The root of `real` among `roots` (real paths), or null when it lies outside every one. */
export function rootOf(real: string, roots: readonly string[]): string | null {
  return roots.find((root) => real !== root && isInside(real, root)) ?? null;
}

/** Bytes read in place before the thread is given back to the event loop for a turn. */
const BYTES_PER_TURN = 1024 * 1024;

/**
 * Counts what a loop over files read in place, and gives the event loop a turn once a slice of
 * bytes was read: a request's one file never waits, a build's thousand do not hold the thread.
 */
export function readSlices(): (bytes: number) => Promise<void> | undefined {
  let sinceTurn = 0;
  return (bytes) => {
    sinceTurn += bytes;
    if (sinceTurn < BYTES_PER_TURN) return undefined;
    sinceTurn = 0;
    return turn();
  };
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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const before: BeforeState[] = [];
  const seen = new Set<string>();
  const slice = readSlices();
  let bytes = 0;
  for (const asked of paths) {
    let real: string;
    try {
      // Off the thread: a path of many missing folders asks the disk at every level.
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
    const read = readInPlace(real, Math.min(EFFECTS_LIMITS.keptFileBytes, left));
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
      writeFileSync(join(dir, blob), read.data, { mode: 0o600, flag: 'wx' });
      bytes += read.data.length;
      before.push({
        path: real,
        state: 'file',
        blob,
        sha256: sha256(read.data),
        size: read.data.length,
        mode: read.mode,
      });
      await slice(read.data.length);
    }
  }
  return { before, bytes };
}
