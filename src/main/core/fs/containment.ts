// Whether a path lies in a folder: the one answer rules, warnings, agent file access, the agent
// environment and the audit key all give. The comparison goes through path.relative, which applies
// `..` and ignores a trailing separator, so `/a/bc` is not inside `/a/b` and `/a/b/../c` is not
// either. It does not look at the disk: where a link could lead out, compare real paths
// (nearestRealPath), as a write or the audit key must.
import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import nodePath, { basename, dirname, join, resolve } from 'node:path';

/** The parts of node:path the comparison needs; tests pass path.posix or path.win32. */
export type PathFlavour = Pick<typeof nodePath, 'relative' | 'isAbsolute' | 'sep'>;

/**
 * Is `path` the folder `folder` itself or inside it? Both absolute. With path.win32 the comparison
 * ignores case, as Windows file systems do.
 */
export function isInside(path: string, folder: string, flavour: PathFlavour = nodePath): boolean {
  const rel = flavour.relative(folder, path);
  return (
    rel === '' || (rel !== '..' && !rel.startsWith(`..${flavour.sep}`) && !flavour.isAbsolute(rel))
  );
}

/**
 * The real path of `path`: links resolved as far as the path exists, the part that does not exist
 * yet appended as written. A file about to be created gets the real folder it will land in.
 * Errors other than ENOENT (EACCES, ELOOP) are thrown: an unknown location is no answer.
 */
export async function nearestRealPath(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
  } catch (error) {
    const parent = parentToTry(absolute, error);
    return parent === null ? absolute : join(await nearestRealPath(parent), basename(absolute));
  }
}

/** nearestRealPath for code that runs before anything is asynchronous (start-up checks). */
export function nearestRealPathSync(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch (error) {
    const parent = parentToTry(absolute, error);
    return parent === null ? absolute : join(nearestRealPathSync(parent), basename(absolute));
  }
}

/** After realpath failed on `absolute`: the folder to try next, or null at the root. */
function parentToTry(absolute: string, error: unknown): string | null {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  const parent = dirname(absolute);
  return parent === absolute ? null : parent;
}
