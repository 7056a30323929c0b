// What a preview leaves on the host when its core was killed during a run (its own cleanup never
// ran): an empty folder the tmpfs was mounted on, in the namespace only, in a temp folder; and a
// folder of its script and sockets in the data folder, which the next core's start removes with the
// other launch folders (launch-folders.ts). The scratch folders of cores that are gone are removed
// at a core's start and, for cores killed while this one runs, before a preview makes its own.
import { tmpdir } from 'node:os';
import { removeLeftoverLaunchFolders, SCRATCH_KIND } from './launch-folders';

// A folder is swept at most once in this long: listing a temp folder of thousands of names at every
// preview cost its thread more than the run's start.
const SWEEP_EVERY_MS = 60 * 1000;
const lastSwept = new Map<string, number>();

/** The temp folders a scratch folder is made in, first choice first (scratch-layer.ts). */
export function scratchParents(): string[] {
  return [...new Set([tmpdir(), '/tmp', '/var/tmp'])];
}

/**
 * Removes the scratch folders in `parent` of cores that are gone, and says how many; at most once a
 * minute for a folder (0 when it was swept less than a minute ago).
 */
export async function sweepScratchFolders(parent: string, now = Date.now()): Promise<number> {
  const last = lastSwept.get(parent);
  if (last !== undefined && now >= last && now - last < SWEEP_EVERY_MS) return 0;
  lastSwept.set(parent, now);
  return removeLeftoverLaunchFolders(parent, [SCRATCH_KIND]).catch(() => 0);
}

/**
 * At a core's start: every temp folder's scratch folders of cores that are gone; how many. It counts
 * as each folder's sweep, so the first preview after the start does not list them again.
 */
export async function removeLeftoverScratchFolders(now = Date.now()): Promise<number> {
  const removed = await Promise.all(
    scratchParents().map((parent) => sweepScratchFolders(parent, now)),
  );
  return removed.reduce((a, b) => a + b, 0);
}
