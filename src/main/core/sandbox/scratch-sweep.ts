// What a scratch layer leaves on the host when the core was killed during a run (its own cleanup
// never ran): an empty folder the tmpfs was mounted on, in the namespace only, and a folder of its
// script and sockets in the data folder. Removed at a later run once certainly unused: a folder
// still in use by another core's run (a mount point there) must not be taken away under it, and no
// run lasts this long.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

const STALE_MS = 15 * 60 * 1000;
// A folder is swept at most once in this long: a run's leftovers wait STALE_MS anyway, and listing
// a temp folder of thousands of names at every preview cost its thread more than the run's start.
const SWEEP_EVERY_MS = 60 * 1000;
const lastSwept = new Map<string, number>();

/**
 * Removes `prefix`* folders in `parent` that are this user's and older than any run can be; at most
 * once a minute for the same folder and prefix.
 */
export async function sweepStale(parent: string, prefix: string, now = Date.now()): Promise<void> {
  const key = `${parent}\u0000${prefix}`;
  const last = lastSwept.get(key);
  if (last !== undefined && now >= last && now - last < SWEEP_EVERY_MS) return;
  lastSwept.set(key, now);
  const names = await readdir(parent).catch(() => [] as string[]);
  const uid = process.getuid?.();
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix))
      .map(async (name) => {
        const path = join(parent, name);
        const found = await stat(path).catch(() => null);
        if (!found?.isDirectory() || found.uid !== uid || now - found.mtimeMs < STALE_MS) return;
        await rm(path, { recursive: true, force: true }).catch(() => {});
      }),
  );
}
