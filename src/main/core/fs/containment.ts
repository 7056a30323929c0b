// The one path model every room uses: whether a path lies in a folder, `~` expanded, and a path's
// real location. The comparison goes through path.relative, which applies `..` and ignores a
// trailing separator, so `/a/bc` is not inside `/a/b` and `/a/b/../c` is not either. It does not
// look at the disk: where a link could lead out, compare real paths, as a write, a rule and the
// audit key must. A real path has one answer for a link that points nowhere yet: its target,
// since writing through the link creates the target.
import fs from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import nodePath from 'node:path';

/** The parts of node:path the comparison needs; tests pass path.posix or path.win32. */
export type PathFlavour = Pick<typeof nodePath, 'relative' | 'isAbsolute' | 'sep'>;

/**
 * Is `path` the folder `folder` itself or inside it? Both absolute. With path.win32 the comparison
 * ignores case, as Windows file systems do.
 */
export function isInside(path: string, folder: string, flavour: PathFlavour = nodePath): boolean {
  return pathBelow(path, folder, flavour) !== null;
}

/**
 * `path` relative to `folder` when it is the folder ('') or inside it, else null; separators as
 * the flavour writes them. Both absolute.
 */
export function pathBelow(
  path: string,
  folder: string,
  flavour: PathFlavour = nodePath,
): string | null {
  // Paths already in their resolved form are compared as text: path.relative resolves both again,
  // a cost in the number of names that a request of long paths pays at every check.
  if (flavour.sep === '/' && isPlainPosix(path) && isPlainPosix(folder)) {
    if (path === folder) return '';
    if (folder === '/') return path.slice(1);
    return path.startsWith(folder) && path.charCodeAt(folder.length) === SLASH
      ? path.slice(folder.length + 1)
      : null;
  }
  const rel = flavour.relative(folder, path);
  return rel === '' ||
    (rel !== '..' && !rel.startsWith(`..${flavour.sep}`) && !flavour.isAbsolute(rel))
    ? rel
    : null;
}

const SLASH = 0x2f;
/** A separator doubled or at the end, or a name `.` or `..`: what path.resolve would change. */
const UNPLAIN = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

/** Absolute, and what path.posix.resolve gives back unchanged. */
function isPlainPosix(p: string): boolean {
  return p.charCodeAt(0) === SLASH && !UNPLAIN.test(p);
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

const codeOf = (error: unknown): string => String((error as { code?: unknown }).code ?? 'EIO');

/** What the walk reads the disk with: the disk by default, a fake in tests. */
export interface FsProbe {
  /** Like fs.realpathSync.native: throws (with `code`) when the path does not exist. */
  realpath(p: string): string;
  /**
   * The link target when `p` is a symbolic link, null when it is something else; throws (with
   * `code`) when nothing is there.
   */
  readlink(p: string): string | null;
  /** A regular file's text when it is at most `max` bytes, otherwise null (also when absent). */
  readSmall(p: string, max: number): string | null;
}

// Linux's O_PATH (x64 and arm64 share the generic value): a descriptor that names a place without
// opening it, so a named pipe cannot hold the open and no read permission is needed.
const O_PATH =
  process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64')
    ? 0o10000000
    : undefined;

/** Components past which the kernel's single walk is cheaper than glibc's realpath (measured). */
const SHALLOW_COMPONENTS = 8;

/**
 * The real path of an existing `p`, following every link, as fs.realpathSync.native. glibc's
 * realpath asks the disk once per component, each time from the root: quadratic in the depth, and
 * an agent can make a folder 2,000 levels deep (136 ms a path). For a deep path the kernel walks
 * it once instead: open it as a place only, and read back where the descriptor is.
 */
export function realPathSync(p: string): string {
  if (O_PATH === undefined || !deeperThan(p, SHALLOW_COMPONENTS)) return fs.realpathSync.native(p);
  const fd = fs.openSync(p, O_PATH);
  let real: string | null = null;
  try {
    real = fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // No /proc: glibc's answer below.
  } finally {
    fs.closeSync(fd);
  }
  return real?.startsWith('/') ? real : fs.realpathSync.native(p);
}

/** realPathSync without blocking the thread: the same choice, its calls through the pool. */
async function realPathAsyncOf(p: string): Promise<string> {
  if (O_PATH === undefined || !deeperThan(p, SHALLOW_COMPONENTS)) return realpath(p);
  const handle = await open(p, O_PATH);
  const real = await readlink(`/proc/self/fd/${handle.fd}`)
    .catch(() => null)
    .finally(() => handle.close());
  return real?.startsWith('/') ? real : realpath(p);
}

function deeperThan(p: string, components: number): boolean {
  let seen = 0;
  for (let i = p.indexOf('/'); i !== -1; i = p.indexOf('/', i + 1))
    if (++seen > components) return true;
  return false;
}

/** Thrown for a path that is not there: most of the walk's questions are, and a stack is dear. */
const NOT_THERE = Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });

export const diskProbe: FsProbe = {
  realpath: (p) => {
    // lstat, not stat: stat takes a folder that is a file (ENOTDIR) for nothing there.
    if (fs.lstatSync(p, { throwIfNoEntry: false }) === undefined) throw NOT_THERE;
    return realPathSync(p);
  },
  readlink: (p) => {
    const stats = fs.lstatSync(p, { throwIfNoEntry: false });
    if (stats === undefined) throw NOT_THERE;
    return stats.isSymbolicLink() ? fs.readlinkSync(p) : null;
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
 * What a caller may still spend asking the disk, in characters of path text: a question costs its
 * path's length (the kernel reads and walks it) and a fixed part. Past it, places are unknown.
 */
export interface Budget {
  left: number;
}

/**
 * A question's fixed part, in characters. A question costs 4–10 µs here, and a character of path
 * up to 0.1 µs (the kernel walks a folder 1,900 deep in 0.35 ms).
 */
const QUESTION_COST = 64;
/**
 * A path written by hand needs a few questions (a new file: three); a path that needs more than
 * this was written to make the walk slow, and its place is not known.
 */
const MAX_QUESTIONS = 64;

type Flavour = Pick<typeof nodePath, 'dirname' | 'isAbsolute' | 'parse' | 'sep'>;

/** What the walk asks the disk, and what it is told: a path, or why there is none. */
type Question = { realpath: string } | { readlink: string };
type Told = { path: string } | { code: string };

/** Where each name of `input` after its root starts and ends; empty names (`a//b`) left out. */
function namesOf(input: string, from: number, sep: string): { starts: number[]; ends: number[] } {
  const isSep = sep === '\\' ? (c: number) => c === 0x5c || c === 0x2f : (c: number) => c === 0x2f;
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = from; i <= input.length; i++) {
    if (i < input.length && !isSep(input.charCodeAt(i))) continue;
    if (i > from) {
      starts.push(from);
      ends.push(i);
    }
    from = i + 1;
  }
  return { starts, ends };
}

const child = (parent: string, name: string, sep: string): string =>
  parent.endsWith(sep) ? parent + name : parent + sep + name;

/**
 * The real path of an absolute `input` as the kernel would take it, asked one question at a time so
 * that a blocking and a non-blocking reader share one algorithm. `..` is applied to the real parent,
 * after the links before it, as the kernel does: `link/../x` is beside link's target, not beside
 * link. Never path.join on text that still holds links, since join applies `..` first. A place
 * below a file, or beside it through `file/..`, cannot be known.
 *
 * An agent writes the paths, so the questions are few and bounded: the deepest part of the path
 * that exists is searched for (a part resolves only if every shorter one does), and below a name
 * that is not there nothing is asked until a `..` climbs back. Names are kept as offsets into the
 * text: a path may hold 2,000 of them, a request 1,000 paths.
 */
function* walk(
  input: string,
  flavour: Flavour,
  budget: Budget | undefined,
  hops = 0,
  asked = { count: 0 },
): Generator<Question, Told, Told> {
  const tooMany: Told = { code: 'ELOOP' };
  /** Whether `question` may still be asked. Plain code, not a generator: one is made per call. */
  const mayAsk = (question: Question): boolean => {
    asked.count += 1;
    if (asked.count > MAX_QUESTIONS) return false;
    if (budget === undefined) return true;
    budget.left -=
      QUESTION_COST + ('realpath' in question ? question.realpath : question.readlink).length;
    return budget.left >= 0;
  };
  if (!flavour.isAbsolute(input)) return { code: 'EINVAL' };
  const first: Question = { realpath: input };
  if (!mayAsk(first)) return tooMany;
  const whole = yield first;
  // ENOTDIR (a file used as a folder), ELOOP, EACCES: no such place can be known.
  if ('path' in whole || whole.code !== 'ENOENT') return whole;

  const sep = flavour.sep;
  const root = flavour.parse(input).root;
  const { starts, ends } = namesOf(input, root.length, sep);
  const count = starts.length;
  const name = (k: number): string => input.slice(starts[k], ends[k]);
  /** 1 for `.`, 2 for `..`, 0 for any other name. */
  const dots = (k: number): number => {
    const length = ends[k]! - starts[k]!;
    if (length > 2 || input.charCodeAt(starts[k]!) !== 0x2e) return 0;
    return length === 1 ? 1 : input.charCodeAt(starts[k]! + 1) === 0x2e ? 2 : 0;
  };

  // The deepest part that resolves (its first `resolves` names), with its real path `base`: from
  // the end, doubling the step (most paths are a new file in a folder that exists), then halving.
  let resolves = -1;
  let missing = count;
  let base = root;
  for (let step = 1; resolves < 0 || missing - resolves > 1; step *= 2) {
    const k = resolves < 0 ? Math.max(0, count - step) : (resolves + missing) >> 1;
    const question: Question = { realpath: k === 0 ? root : input.slice(0, ends[k - 1]) };
    if (!mayAsk(question)) return tooMany;
    const told = yield question;
    if ('path' in told) [resolves, base] = [k, told.path];
    else if (told.code !== 'ENOENT') return told;
    else if (k === 0)
      resolves = 0; // a root a fake disk does not know is itself
    else missing = k;
  }

  // Down from there, name by name. `tail` holds the names below `base` (by index); the last
  // `absent` of them are not on the disk, so nothing below them can be a link.
  const tail: number[] = [];
  let absent = 0;
  // The last name is there and not a link, and may not be a folder.
  let unsure = false;
  const here = (): string =>
    tail.length === 0 ? base : child(base, tail.map(name).join(sep), sep);
  for (let i = resolves; i < count; i++) {
    const dot = dots(i);
    if (dot > 0) {
      if (unsure) {
        const question: Question = { realpath: child(here(), '.', sep) };
        if (!mayAsk(question)) return tooMany;
        const folder = yield question;
        if ('code' in folder) return folder;
        unsure = false;
      }
      if (dot === 1) continue;
      if (tail.length === 0) base = flavour.dirname(base);
      else if (tail.pop() !== undefined && absent > 0) absent -= 1;
      continue;
    }
    if (absent > 0) {
      tail.push(i);
      absent += 1;
      continue;
    }
    const parent = here();
    const question: Question = { readlink: child(parent, name(i), sep) };
    if (!mayAsk(question)) return tooMany;
    const link = yield question;
    if ('path' in link) {
      if (hops >= MAX_LINK_HOPS) return { code: 'ELOOP' };
      const target = flavour.isAbsolute(link.path) ? link.path : child(parent, link.path, sep);
      const rest = i + 1 < count ? child(target, input.slice(starts[i + 1]), sep) : target;
      return yield* walk(rest, flavour, budget, hops + 1, asked);
    }
    // EINVAL: there, and not a link. ENOENT: not there. Anything else (a file used as a folder, a
    // folder that cannot be read): no such place can be known.
    if (link.code !== 'EINVAL' && link.code !== 'ENOENT') return link;
    tail.push(i);
    if (link.code === 'ENOENT') absent = 1;
    unsure = link.code === 'EINVAL';
  }
  return { path: here() };
}

/** The walk, its questions answered by a blocking probe. */
function walkSync(input: string, probe: FsProbe, flavour: Flavour, budget?: Budget): Told {
  const steps = walk(input, flavour, budget);
  let step = steps.next();
  while (!step.done) {
    const question = step.value;
    let told: Told;
    try {
      if ('realpath' in question) told = { path: probe.realpath(question.realpath) };
      else {
        const link = probe.readlink(question.readlink);
        told = link === null ? { code: 'EINVAL' } : { path: link };
      }
    } catch (error) {
      told = { code: codeOf(error) };
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
 * to its target. Null when it cannot be known: a loop, a folder that cannot be read, a file used
 * as a folder; or when finding out takes more questions than a path written by hand needs, or more
 * than `budget` has left.
 */
export function realPathLoose(
  input: string,
  probe: FsProbe = diskProbe,
  flavour: Flavour = nodePath,
  budget?: Budget,
): string | null {
  const answer = walkSync(input, probe, flavour, budget);
  return 'path' in answer ? answer.path : null;
}

/** realPathLoose without blocking the thread; what cannot be known is thrown with the disk's code. */
async function realPathAsync(input: string): Promise<string> {
  const steps = walk(input, nodePath, undefined);
  let step = steps.next();
  while (!step.done) {
    const question = step.value;
    const told: Told = await (
      'realpath' in question ? realPathAsyncOf(question.realpath) : readlink(question.readlink)
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
