// The one path model every room uses: whether a path lies in a folder, `~` expanded, and a path's
// real location. The comparison goes through path.relative, which applies `..` and ignores a
// trailing separator, so `/a/bc` is not inside `/a/b` and `/a/b/../c` is not either. It does not
// look at the disk: where a link could lead out, compare real paths, as a write, a rule and the
// audit key must. A real path has one answer for a link that points nowhere yet: its target,
// since writing through the link creates the target.
import fs from 'node:fs';
import { readlink, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import nodePath from 'node:path';

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

type Flavour = Pick<typeof nodePath, 'dirname' | 'basename' | 'join' | 'isAbsolute' | 'sep'>;

/** What the walk asks the disk, and what it is told: a path, or why there is none. */
type Question = { realpath: string } | { readlink: string };
type Told = { path: string } | { code: string };

/**
 * The real path of an absolute `input` as the kernel would take it, asked one question at a time so
 * that a blocking and a non-blocking reader share one algorithm. `..` is applied to the real parent,
 * after the links before it, as the kernel does: `link/../x` is beside link's target, not beside
 * link. Never path.join on text that still holds links, since join applies `..` first.
 */
function* walk(input: string, flavour: Flavour, hops: number): Generator<Question, Told, Told> {
  const found = yield { realpath: input };
  // ENOTDIR (a file used as a folder), ELOOP, EACCES: no such place can be known.
  if ('path' in found || found.code !== 'ENOENT') return found;
  const parent = flavour.dirname(input);
  if (parent === input) return { path: input };
  const realParent = yield* walk(parent, flavour, hops);
  if (!('path' in realParent)) return realParent;
  const base = flavour.basename(input);
  const candidate = flavour.join(realParent.path, base);
  if (base === '..' || base === '.') return { path: candidate };
  const link = yield { readlink: candidate };
  if (!('path' in link)) return { path: candidate };
  if (hops >= MAX_LINK_HOPS) return { code: 'ELOOP' };
  const target = flavour.isAbsolute(link.path)
    ? link.path
    : `${realParent.path}${flavour.sep}${link.path}`;
  return yield* walk(target, flavour, hops + 1);
}

const codeOf = (error: unknown): string => String((error as { code?: unknown }).code ?? 'EIO');

/** The walk, its questions answered by a blocking probe. */
function walkSync(input: string, probe: FsProbe, flavour: Flavour): Told {
  const steps = walk(input, flavour, 0);
  let step = steps.next();
  while (!step.done) {
    const question = step.value;
    let told: Told;
    if ('realpath' in question) {
      try {
        told = { path: probe.realpath(question.realpath) };
      } catch (error) {
        told = { code: codeOf(error) };
      }
    } else {
      const link = probe.readlink(question.readlink);
      told = link === null ? { code: 'EINVAL' } : { path: link };
    }
    step = steps.next(told);
  }
  return step.value;
}

/** The walk's answer, or the error (with the disk's code) of a place that cannot be known. */
function knownOrThrow(input: string, answer: Told): string {
  if ('path' in answer) return answer.path;
  throw Object.assign(new Error(`${answer.code}: where ${input} leads cannot be known`), {
    code: answer.code,
  });
}

/**
 * The real path of an absolute `input`, also for a path that does not exist yet: the deepest
 * existing folder resolved, the rest appended, and a link on the way that points nowhere followed
 * to its target. Null when it cannot be known (a loop, a folder that cannot be read).
 */
export function realPathLoose(
  input: string,
  probe: FsProbe = diskProbe,
  flavour: Flavour = nodePath,
): string | null {
  const answer = walkSync(input, probe, flavour);
  return 'path' in answer ? answer.path : null;
}

/** realPathLoose without blocking the thread; what cannot be known is thrown with the disk's code. */
async function realPathAsync(input: string): Promise<string> {
  const steps = walk(input, nodePath, 0);
  let step = steps.next();
  while (!step.done) {
    const question = step.value;
    const told: Told = await (
      'realpath' in question ? realpath(question.realpath) : readlink(question.readlink)
    ).then(
      (path) => ({ path }),
      (error: unknown) => ({ code: codeOf(error) }),
    );
    step = steps.next(told);
  }
  return knownOrThrow(input, step.value);
}

/**
 * `path` made absolute against `cwd` as text, without applying `..`: the kernel applies it after
 * the links before it (path.join and path.resolve would apply it first).
 */
export function joinAsGiven(
  cwd: string,
  path: string,
  flavour: Pick<typeof nodePath, 'isAbsolute' | 'sep'> = nodePath,
): string {
  return flavour.isAbsolute(path) ? path : `${cwd}${flavour.sep}${path}`;
}

/**
 * The real path of `path` (realPathLoose's answer), read without blocking the thread. A location
 * that cannot be known (EACCES, ELOOP, ENOTDIR) is thrown: an unknown location is no answer.
 */
export function nearestRealPath(path: string): Promise<string> {
  return realPathAsync(joinAsGiven(process.cwd(), path));
}

/** nearestRealPath's answer or null, for what only reports where a path leads. */
export function realPathOrNull(path: string): Promise<string | null> {
  return nearestRealPath(path).catch(() => null);
}

/** nearestRealPath for code that runs before anything is asynchronous (start-up checks). */
export function nearestRealPathSync(path: string): string {
  const absolute = joinAsGiven(process.cwd(), path);
  return knownOrThrow(absolute, walkSync(absolute, diskProbe, nodePath));
}
