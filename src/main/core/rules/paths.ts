/**
 * Paths as rules see them: resolved against the session folder, with `..` and symlinks resolved
 * the way the kernel will (so `src/link/../x` and `src/escape -> /etc` cannot slip out), and
 * matched against picomatch globs.
 *
 * Real paths come from fs/ (the one path model), through a probe tests replace with a fake disk.
 *
 * Glob options, chosen on purpose:
 * - deny/ask globs use `dot: true`: `secrets/**` must also catch `secrets/.env`; dot-files get no
 *   way around a deny.
 * - allow globs use `dot: false`: an allow reaches a dot-file or dot-folder only when the glob
 *   names it explicitly (`.github/**`, `**\/.eslintrc.json`), so `src/**` does not silently allow
 *   `src/.env`. Allow stays narrow, deny stays wide.
 * - deny/ask globs compare case-insensitively on macOS and Windows (case-insensitive file
 *   systems: `.ENV` is `.env`); allow is always case-sensitive.
 */
import nodePath from 'node:path';
import picomatch from 'picomatch';
import {
  type Budget,
  diskProbe,
  expandHome,
  joinAsGiven,
  pathBelow,
  realPathLoose,
  userHome,
  type FsProbe,
} from '../fs/containment';

export type { FsProbe } from '../fs/containment';

export interface PathResolverOptions {
  fs?: Partial<FsProbe>;
  homedir?: string;
  /** Compare deny/ask globs case-insensitively. Default: true on darwin and win32. */
  caseInsensitive?: boolean;
  /** node:path flavour (tests); default: the platform's. */
  path?: typeof nodePath.posix;
}

export interface ResolvedPath {
  input: string;
  /** Absolute, `..` removed textually (what the request appears to name). */
  lexical: string;
  /** Absolute, symlinks and `..` resolved like the kernel would; null when that is impossible. */
  real: string | null;
  /** Only known when a shell runs (`> $FILE`). */
  dynamic?: boolean;
}

export type GlobPurpose = 'allow' | 'block';

/**
 * What one request has asked about the disk: each real path found once (a request may name a path
 * a thousand times, and an absolute glob's base is resolved for every path it meets), and what the
 * paths it names may still ask, past which their places are unknown.
 */
export interface Lookups {
  readonly known: Map<string, string | null>;
  readonly globBases: Map<string, string | null>;
  readonly budget: Budget;
}

/**
 * Characters of path text one request may have the disk read. A thousand new files in an existing
 * folder take some 300 kB; at worst (paths of 2,000 folders that are not there, or into a folder
 * 1,900 deep) the budget is some 50 ms of the core's thread on a slow machine.
 */
export const REQUEST_LOOKUP_BUDGET = 512 * 1024;

export function newLookups(left = REQUEST_LOOKUP_BUDGET): Lookups {
  return { known: new Map(), globBases: new Map(), budget: { left } };
}

/** A `.git` file or `commondir` is one line; anything larger is not one git wrote. */
const GIT_POINTER_MAX_BYTES = 4096;

export class PathResolver {
  readonly caseInsensitive: boolean;
  readonly homedir: string;
  private readonly fs: FsProbe;
  private readonly path: typeof nodePath.posix;

  constructor(options: PathResolverOptions = {}) {
    this.fs = { ...diskProbe, ...options.fs };
    this.path = options.path ?? nodePath;
    this.homedir = options.homedir ?? userHome();
    this.caseInsensitive =
      options.caseInsensitive ?? (process.platform === 'darwin' || process.platform === 'win32');
  }

  /** Resolve a request path (absolute, or relative to `cwd`). */
  resolve(input: string, cwd: string, dynamic = false, lookups?: Lookups): ResolvedPath {
    const p = this.path;
    // Deliberately NOT path.resolve for the real path: it would apply `..` before symlinks.
    const joined = joinAsGiven(cwd, input, p);
    return {
      input,
      lexical: flat(p.resolve(cwd, input)),
      real: this.realpathLoose(joined, lookups),
      ...(dynamic ? { dynamic: true } : {}),
    };
  }

  /** The session folder, both ways. */
  root(cwd: string): ResolvedPath {
    return this.resolve(cwd, cwd);
  }

  /**
   * The real path (fs/containment.ts's realPathLoose), through this resolver's probe; within a
   * request's lookups, each asked once and within its budget.
   */
  realpathLoose(input: string, lookups?: Lookups): string | null {
    if (lookups === undefined) return realPathLoose(input, this.fs, this.path);
    return once(lookups.known, input, () =>
      realPathLoose(input, this.fs, this.path, lookups.budget),
    );
  }

  /**
   * An absolute glob's literal base, real: found once a request, outside its budget, since the
   * person wrote it and a deny rule must not stop matching when an agent has spent the budget.
   */
  private globBase(base: string, lookups?: Lookups): string | null {
    if (lookups === undefined) return this.realpathLoose(base);
    return once(lookups.globBases, base, () => this.realpathLoose(base));
  }

  /**
   * The git dirs of a session folder that lie elsewhere, real paths: where a `.git` file points
   * (`gitdir: …`, a worktree or submodule), where a `.git` link leads, and the common dir a
   * worktree's hooks and config live in. Their hooks run as the folder's own do.
   */
  linkedGitDirs(realRoot: string | null): string[] {
    if (realRoot === null) return [];
    const p = this.path;
    const dotGit = p.join(realRoot, '.git');
    const dirs: string[] = [];
    const pointer = this.fs.readSmall(dotGit, GIT_POINTER_MAX_BYTES);
    const named = pointer === null ? null : /^gitdir:[ \t]*(.+?)[ \t\r]*$/m.exec(pointer)?.[1];
    const found = named
      ? this.realpathLoose(p.resolve(realRoot, named))
      : this.realpathLoose(dotGit);
    if (found === null || found === dotGit) return dirs;
    dirs.push(found);
    const common = this.fs.readSmall(p.join(found, 'commondir'), GIT_POINTER_MAX_BYTES)?.trim();
    const commonDir = common ? this.realpathLoose(p.resolve(found, common)) : null;
    if (commonDir !== null && commonDir !== dotGit && !dirs.includes(commonDir))
      dirs.push(commonDir);
    return dirs;
  }

  /** `a/b` relative to root in forward-slash form, or null when outside. */
  relative(root: string, target: string): string | null {
    const rel = pathBelow(target, root, this.path);
    return rel === null ? null : toPosix(rel, this.path.sep);
  }

  expandHome(glob: string): string {
    return expandHome(glob, this.homedir);
  }

  isAbsoluteGlob(glob: string): boolean {
    const g = this.expandHome(glob);
    return g.startsWith('/') || /^[A-Za-z]:[\\/]/.test(g) || this.path.isAbsolute(g);
  }

  /**
   * Does `glob` match `target`? Absolute globs match absolute paths (their literal base is
   * realpath'd too, so `/tmp/**` matches `/private/tmp/x` on macOS); relative globs match paths
   * inside the session folder only. `block` looks at both the lexical and the real path (either
   * matching is enough); `allow` only at the real path.
   */
  matchGlob(
    glob: string,
    target: ResolvedPath,
    root: ResolvedPath,
    purpose: GlobPurpose,
    lookups?: Lookups,
  ): boolean {
    const nocase = purpose === 'block' && this.caseInsensitive;
    const dot = purpose === 'block';
    const candidates: Array<{ path: string; root: string | null }> = [];
    if (target.real !== null) candidates.push({ path: target.real, root: root.real });
    if (purpose === 'block') candidates.push({ path: target.lexical, root: root.lexical });
    if (candidates.length === 0) return false;

    const sep = this.path.sep;
    if (this.isAbsoluteGlob(glob)) {
      const expanded = toPosix(this.expandHome(glob), sep);
      const globs = [expanded];
      const scan = picomatch.scan(expanded);
      if (scan.base !== '') {
        const realBase = this.globBase(scan.base, lookups);
        if (realBase !== null) {
          const rb = toPosix(realBase, sep);
          if (rb !== scan.base)
            globs.push(scan.glob === '' ? rb : `${rb.replace(/\/$/, '')}/${scan.glob}`);
        }
      }
      return globs.some((g) => {
        const m = compile(g, dot, nocase);
        return candidates.some((c) => m(toPosix(c.path, sep)));
      });
    }
    const m = compile(glob, dot, nocase);
    return candidates.some((c) => {
      if (c.root === null) return false;
      const rel = this.relative(c.root, c.path);
      return rel !== null && rel !== '' && m(rel);
    });
  }
}

/** `known`'s answer for `key`, found by `find` the first time it is asked. */
function once(known: Map<string, string | null>, key: string, find: () => string | null) {
  let answer = known.get(key);
  if (answer === undefined) {
    answer = find();
    known.set(key, answer);
  }
  return answer;
}

/**
 * `s` as one piece of memory. path.resolve builds its answer a name at a time, and V8 keeps that as
 * a chain of two pieces per name until the text is read: 110 kB for a path of 2,000 names, and a
 * request may name 1,000 of them. Reading a character joins the chain.
 */
function flat(s: string): string {
  // Kept, so that the optimizing compiler does not drop the read as unused (it did: once the code
  // was hot, a request of such paths took four times as long and 110 MB more).
  _lastRead = s.charCodeAt(0);
  return s;
}
let _lastRead = 0;

function toPosix(p: string, sep: string): string {
  return sep === '\\' ? p.split('\\').join('/') : p;
}

const cache = new Map<string, (p: string) => boolean>();

function compile(glob: string, dot: boolean, nocase: boolean): (p: string) => boolean {
  const key = `${dot ? 1 : 0}${nocase ? 1 : 0}${glob}`;
  let m = cache.get(key);
  if (!m) {
    if (cache.size > 2000) cache.clear();
    m = picomatch(glob, { dot, nocase, windows: false, strictBrackets: true });
    cache.set(key, m);
  }
  return m;
}

/**
 * Why a glob can never match, or null. Invalid syntax (unbalanced brackets/braces/parens),
 * `..` segments (paths are normalised before matching), `~user/` (not supported).
 */
export function globProblem(glob: string): string | null {
  if (glob.trim() === '') return 'the path glob is empty';
  if (glob.includes('\u0000')) return 'the path glob contains a NUL character';
  if (/^~[^/]/.test(glob)) return 'only `~/…` is supported, not `~user/…`';
  if (glob.split(/[\\/]/).includes('..')) {
    return 'the path glob contains a `..` segment, but paths are matched after `..` is resolved';
  }
  try {
    picomatch.makeRe(glob, { strictBrackets: true, windows: false });
  } catch (error) {
    return `invalid glob: ${(error as Error).message}`;
  }
  return null;
}

/**
 * Escape a literal path so picomatch matches exactly it. A backslash becomes `[\\]`: picomatch
 * collapses consecutive escaped backslashes (`\\\\` matches a single one).
 */
export function escapeGlob(literal: string): string {
  return [...literal]
    .map((c) => (c === '\\' ? '[\\\\]' : '*?[]{}()!+@|'.includes(c) ? `\\${c}` : c))
    .join('');
}
