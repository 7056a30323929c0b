// The one path model every room uses: whether a path lies in a folder, `~` expanded, and a path's
// real location. The comparison goes through path.relative, which applies `..` and ignores a
// trailing separator, so `/a/bc` is not inside `/a/b` and `/a/b/../c` is not either. It does not
// look at the disk: where a link could lead out, compare real paths, as a write, a rule and the
// audit key must. A real path has one answer for a link that points nowhere yet: its target,
// since writing through the link creates the target.
import fs from 'node:fs';
import { readlink, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import nodePath, { basename, dirname, isAbsolute, join, resolve } from 'node:path';

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

const HOME_FORMS = /^(?:~|\$HOME|\$\{HOME\})(?=$|[/\\])/;

/** `~`, `~/x`, `$HOME/x`, `${HOME}/x` with the home folder put in; anything else unchanged. */
export function expandHome(p: string, homeDir: string): string {
  return HOME_FORMS.test(p) ? p.replace(HOME_FORMS, () => homeDir) : p;
}

/** The user's home folder, for whoever has not been told another. */
export function userHome(): string {
  return homedir();
}

/** What real paths are read with: the disk by default, a fake in tests. */
export interface FsProbe {
  /** Like fs.realpathSync.native: throws (with `code`) when the path does not exist. */
  realpath(p: string): string;
  /** The link target when `p` is a symbolic link, otherwise null (also when it does not exist). */
  readlink(p: string): string | null;
  /** A regular file's text when it is at most `max` bytes, otherwise null (also when absent). */
  readSmall(p: string, max: number): string | null;
}

export const diskProbe: FsProbe = {
  realpath: (p) => fs.realpathSync.native(p),
  readlink: (p) => {
    try {
      return fs.readlinkSync(p);
    } catch {
      return null;
    }
  },
  readSmall: (p, max) => {
    try {
      const stats = fs.statSync(p);
      return stats.isFile() && stats.size <= max ? fs.readFileSync(p, 'utf8') : null;
    } catch {
      return null;
    }
  },
};

const MAX_LINK_HOPS = 40;

/**
 * The real path of an absolute `input`, also for a path that does not exist yet: the deepest
 * existing folder resolved, the rest appended, and a link on the way that points nowhere followed
 * to its target. Null when it cannot be known (a loop, a folder that cannot be read).
 */
export function realPathLoose(
  input: string,
  probe: FsProbe = diskProbe,
  flavour: Pick<typeof nodePath, 'dirname' | 'basename' | 'join' | 'isAbsolute' | 'sep'> = nodePath,
  hops = 0,
): string | null {
  try {
    return probe.realpath(input);
  } catch (error) {
    // ENOTDIR (a file used as a folder), ELOOP, EACCES: no such place can be known.
    if ((error as { code?: unknown }).code !== 'ENOENT') return null;
  }
  const parent = flavour.dirname(input);
  if (parent === input) return input;
  const realParent = realPathLoose(parent, probe, flavour, hops);
  if (realParent === null) return null;
  const base = flavour.basename(input);
  const candidate = flavour.join(realParent, base);
  if (base === '..' || base === '.') return candidate;
  const link = probe.readlink(candidate);
  if (link === null) return candidate;
  if (hops >= MAX_LINK_HOPS) return null;
  const target = flavour.isAbsolute(link) ? link : `${realParent}${flavour.sep}${link}`;
  return realPathLoose(target, probe, flavour, hops + 1);
}

/**
 * The real path of `path` (realPathLoose's answer), read without blocking the thread. A location
 * that cannot be known (EACCES, ELOOP) is thrown: an unknown location is no answer.
 */
export async function nearestRealPath(path: string, hops = 0): Promise<string> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const parent = dirname(absolute);
  if (parent === absolute) return absolute;
  const realParent = await nearestRealPath(parent, hops);
  const candidate = join(realParent, basename(absolute));
  const link = await readlink(candidate).catch(() => null);
  if (link === null) return candidate;
  if (hops >= MAX_LINK_HOPS)
    throw Object.assign(new Error(`too many links: ${path}`), { code: 'ELOOP' });
  return nearestRealPath(isAbsolute(link) ? link : join(realParent, link), hops + 1);
}

/** nearestRealPath for code that runs before anything is asynchronous (start-up checks). */
export function nearestRealPathSync(path: string): string {
  const absolute = resolve(path);
  const real = realPathLoose(absolute);
  if (real !== null) return real;
  // Why it cannot be known, as the disk says it.
  fs.realpathSync.native(absolute);
  throw Object.assign(new Error(`cannot resolve ${path}`), { code: 'ELOOP' });
}
