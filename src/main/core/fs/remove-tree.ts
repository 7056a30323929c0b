// Removing a folder an agent could write into. The agent runs as the person, and the person is not
// root: a folder it made unwritable (chmod 0555) keeps every file in it from being removed, so
// `rm -r` stops with EACCES and the whole tree stays behind, in the data folder, for good. Each
// folder of the tree is made the owner's to change again, never through a link, and the removal
// tried once more.
import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

const RM = { recursive: true, force: true, maxRetries: 3 } as const;

/** Removes `path` and everything under it; nothing at `path` is not an error. */
export async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, RM);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    await unlock(path);
    await rm(path, RM);
  }
}

/** Gives the owner every permission on each folder under `path`, top down (a 0000 folder first). */
async function unlock(path: string): Promise<void> {
  const found = await lstat(path).catch(() => null);
  if (!found?.isDirectory()) return;
  await chmod(path, 0o700).catch(() => {});
  const names = await readdir(path).catch(() => [] as string[]);
  for (const name of names) await unlock(join(path, name));
}
