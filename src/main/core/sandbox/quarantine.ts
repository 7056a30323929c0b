// Takes a file that runs later out of the person's project, into Gatehouse's data folder: moved,
// never deleted (a person may have made it, and it is the evidence of what the agent planted).
import { constants } from 'node:fs';
import { cp, lstat, mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** What a copy across file systems may take; past it the path stays and the move is reported failed. */
const MAX_COPY_BYTES = 64 * 1024 * 1024;
const MAX_COPY_ENTRIES = 10_000;

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

let moves = 0;

/**
 * Moves `base/names…` to a fresh folder under `into`, keeping its relative path, and returns where
 * it went. `base` is a folder the agent cannot swap (a writable root or an anchored `.git`); every
 * folder below it is opened without following links, so a folder swapped for a link since the
 * event moves nothing of elsewhere.
 */
export async function quarantine(base: string, names: string[], into: string): Promise<string> {
  const last = names.at(-1);
  if (!last) throw new Error('nothing to move');
  moves += 1;
  const dest = join(into, `${Date.now()}-${moves}`, ...names);
  await mkdir(dirname(dest), { recursive: true, mode: 0o700 });
  let dir = await open(base, DIRECTORY_FLAGS);
  try {
    for (const name of names.slice(0, -1)) {
      const next: FileHandle = await open(`/proc/self/fd/${dir.fd}/${name}`, DIRECTORY_FLAGS);
      await dir.close();
      dir = next;
    }
    const source = `/proc/self/fd/${dir.fd}/${last}`;
    try {
      await rename(source, dest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // The data folder is on another file system: a bounded copy, then the original goes.
      await checkCopySize(source);
      await cp(source, dest, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
      await rm(source, { recursive: true, force: true });
    }
    return dest;
  } finally {
    await dir.close();
  }
}

async function checkCopySize(path: string): Promise<void> {
  let bytes = 0;
  let entries = 0;
  const walk = async (at: string): Promise<void> => {
    const stats = await lstat(at);
    entries += 1;
    bytes += stats.size;
    if (bytes > MAX_COPY_BYTES || entries > MAX_COPY_ENTRIES) {
      throw new Error('too large to copy into the data folder (another file system)');
    }
    if (stats.isDirectory()) for (const name of await readdir(at)) await walk(join(at, name));
  };
  await walk(path);
}
