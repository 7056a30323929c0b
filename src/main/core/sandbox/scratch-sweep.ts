// What a scratch layer leaves on the host when the core was killed during a run (its own cleanup
// never ran): an empty folder the tmpfs was mounted on, in the namespace only, and a folder of its
// script and sockets in the data folder. Removed at a later run once certainly unused: a folder
// still in use by another core's run (a mount point there) must not be taken away under it, and no
// run lasts this long.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

const STALE_MS = 15 * 60 * 1000;

/** Removes `prefix`* folders in `parent` that are this user's and older than any run can be. */
export async function sweepStale(parent: string, prefix: string, now = Date.now()): Promise<void> {
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
