// The files Gatehouse itself wrote for a decision (agents/fs-access.ts), so that the watch over
// protected paths (protected-watch.ts) and the build-script check at the end of a turn tell them
// from what an agent wrote on its own. A file is Gatehouse's while it is the very file written
// (device, inode) with the very content (hash); any later change makes it the agent's again.
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isInside } from '../fs/containment';

interface Written {
  dev: number;
  ino: number;
  size: number;
  sha256: string;
}

/** Recent writes are enough: a file is judged at the latest at the end of the turn it was written. */
const MAX_REMEMBERED = 4096;
/** Protected files and build scripts are small; a larger one is never taken for Gatehouse's. */
const MAX_HASHED = 4 * 1024 * 1024;

const written = new Map<string, Written>();
const inFlight = new Map<string, number>();
const settled: Array<() => void> = [];

/**
 * Marks a write under way to `target` (a real path): what appears on the way (its folder, the
 * temporary file beside it) is waited for, not judged. Call the returned function when done, with
 * the written file's identity when the write landed.
 */
export function beginOwnWrite(target: string): (landed?: Written & { path: string }) => void {
  inFlight.set(target, (inFlight.get(target) ?? 0) + 1);
  let ended = false;
  return (landed) => {
    if (ended) return;
    ended = true;
    if (landed) remember(landed.path, landed);
    const left = (inFlight.get(target) ?? 1) - 1;
    if (left > 0) inFlight.set(target, left);
    else inFlight.delete(target);
    if (inFlight.size === 0) for (const wake of settled.splice(0)) wake();
  };
}

function remember(path: string, identity: Written): void {
  written.delete(path);
  written.set(path, {
    dev: identity.dev,
    ino: identity.ino,
    size: identity.size,
    sha256: identity.sha256,
  });
  if (written.size > MAX_REMEMBERED) written.delete(written.keys().next().value!);
}

/** Whether a write under way may explain an event at `path`: the target, a folder on its way, a temp file beside it. */
export function ownWriteCovers(path: string): boolean {
  for (const target of inFlight.keys()) {
    if (isInside(target, path) || dirname(path) === dirname(target)) return true;
  }
  return false;
}

/** Resolves once no write of Gatehouse's is under way. */
export function ownWritesSettled(): Promise<void> {
  if (inFlight.size === 0) return Promise.resolve();
  return new Promise((resolve) => settled.push(resolve));
}

/**
 * Whether what is at `path` now (`stats` from lstat) is what Gatehouse wrote: for a file, the same
 * file with the same content; for a folder, one that holds a file Gatehouse wrote.
 */
export async function isOwnWrite(path: string, stats: Stats): Promise<boolean> {
  if (stats.isDirectory()) {
    for (const file of written.keys()) if (file !== path && isInside(file, path)) return true;
    return false;
  }
  const known = written.get(path);
  if (!known || !stats.isFile()) return false;
  if (known.dev !== stats.dev || known.ino !== stats.ino || known.size !== stats.size) return false;
  if (stats.size > MAX_HASHED) return false;
  const data = await readFile(path).catch(() => null);
  return data !== null && createHash('sha256').update(data).digest('hex') === known.sha256;
}
