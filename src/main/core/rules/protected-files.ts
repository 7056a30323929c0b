// Files that other programs run or obey later, outside any sandbox: a git hook on the next commit,
// an editor task on folder open, direnv on the next `cd`, an MCP server or a CLI's hooks on its next
// start. An agent must not plant them unasked, and a write Gatehouse makes to one always asks a
// person. One list for the sandbox (what it binds read-only or watches) and for the rules and
// warnings (what always asks, and why). Pure: no file system access.
import nodePath from 'node:path';
import picomatch from 'picomatch';
import { pathBelow } from '../fs/containment';

export interface ProtectedEntry {
  /** Relative to a writable root, `/`-separated; `*` only in the last segment. */
  path: string;
  /** A folder whose whole tree is protected, or a single file. */
  tree: boolean;
  /** What runs or obeys it, for the warning a person reads. */
  runs: string;
}

export const PROTECTED_FILES: readonly ProtectedEntry[] = [
  {
    path: '.git/hooks',
    tree: true,
    runs: 'git runs these hooks on commit, checkout, merge and push',
  },
  {
    path: '.git/config',
    tree: false,
    runs: 'git obeys this file on every command (core.fsmonitor and aliases run programs)',
  },
  { path: '.git/info', tree: true, runs: 'git reads attributes and excludes from here' },
  {
    path: '.git/commondir',
    tree: false,
    runs: 'git takes its hooks and config from the folder this file names',
  },
  { path: '.gitmodules', tree: false, runs: 'git fetches and checks out submodules from here' },
  { path: '.husky', tree: true, runs: 'git runs these hooks through husky' },
  {
    path: '.vscode',
    tree: true,
    runs: 'VS Code runs its tasks (on folder open) and obeys its settings',
  },
  {
    path: '.idea',
    tree: true,
    runs: 'JetBrains IDEs run its run configurations and obey its settings',
  },
  { path: '.zed', tree: true, runs: 'Zed runs its tasks and obeys its settings' },
  { path: '.envrc', tree: false, runs: 'direnv runs this file when a shell enters the folder' },
  { path: '.npmrc', tree: false, runs: 'npm obeys it on install (registries, scripts, tokens)' },
  { path: '.yarnrc*', tree: false, runs: 'yarn obeys it on install (registries, plugins, paths)' },
  {
    path: '.mcp.json',
    tree: false,
    runs: 'Claude Code and other CLIs start the MCP servers it names',
  },
  { path: '.claude', tree: true, runs: 'Claude Code runs its hooks and obeys its permissions' },
  {
    path: '.gemini',
    tree: true,
    runs: 'Gemini CLI runs its hooks and obeys its settings and policies',
  },
  { path: '.codex', tree: true, runs: 'Codex obeys its configuration and runs what it names' },
  { path: '.qwen', tree: true, runs: 'Qwen Code runs its hooks and obeys its settings' },
  { path: '.cursor', tree: true, runs: 'Cursor runs its rules, hooks and MCP servers' },
  { path: '.opencode', tree: true, runs: 'opencode runs its plugins and obeys its configuration' },
];

/** Kinds that only look: the paths they name are not written. */
const LOOKING_KINDS: ReadonlySet<string> = new Set([
  'read',
  'search',
  'think',
  'fetch',
  'switch_mode',
]);

/** Whether a tool call of this kind may write the paths it names (an unknown kind may). */
export function writesFiles(kind: string | undefined): boolean {
  return kind === undefined || !LOOKING_KINDS.has(kind);
}

const MATCH_OPTIONS = { dot: true, nocase: true, windows: false } as const;

/** An extra entry from the settings or the managed policy: a `/`-separated path, `/` at the end for a tree. */
export function extraEntry(pattern: string): ProtectedEntry {
  const tree = pattern.endsWith('/');
  return {
    path: pattern.replace(/^\.\//, '').replace(/\/+$/, ''),
    tree,
    runs: 'protected in the settings: another program runs or obeys it',
  };
}

interface CompiledEntry {
  entry: ProtectedEntry;
  /** Its place in the list: of two entries that match, the earlier one is named. */
  index: number;
  /** How many names the entry's own path has; a path matches by that many of its names. */
  depth: number;
  /** Whether names below those may follow (a tree, or a last name of `**`). */
  below: boolean;
  /**
   * The length of its names joined, when none is a glob: a case-blind match pairs letter with
   * letter, so names of another length are passed by without being joined and tested.
   */
  length: number | null;
  test: (path: string) => boolean;
}

/** The entries by their first name (upper case, as a case-blind match sees it), and those whose first name is a glob. */
interface CompiledEntries {
  byFirst: Map<string, CompiledEntry[]>;
  /** The lengths of those first names, so most names need no upper-casing to be passed by. */
  firstLengths: Set<number>;
  anyFirst: CompiledEntry[];
}

const compiled = new WeakMap<readonly ProtectedEntry[], CompiledEntries>();
function compile(entries: readonly ProtectedEntry[]): CompiledEntries {
  let found = compiled.get(entries);
  if (!found) {
    found = { byFirst: new Map(), firstLengths: new Set(), anyFirst: [] };
    for (const [index, entry] of entries.entries()) {
      const names = entry.path.split('/');
      // `tools/**` is the tree `tools`; `*` matches within one name, so the rest have a depth.
      const globstar = names.at(-1) === '**';
      const own = globstar ? names.slice(0, -1) : names;
      const first = own[0];
      const compiledEntry: CompiledEntry = {
        entry,
        index,
        depth: own.length,
        below: entry.tree || globstar,
        length:
          own.length === 0 || own.some((name) => picomatch.scan(name).isGlob)
            ? null
            : own.join('/').length,
        test: own.length === 0 ? () => true : picomatch(own.join('/'), MATCH_OPTIONS),
      };
      if (first === undefined || picomatch.scan(first).isGlob) found.anyFirst.push(compiledEntry);
      else {
        const key = first.toUpperCase();
        found.byFirst.set(key, [...(found.byFirst.get(key) ?? []), compiledEntry]);
        found.firstLengths.add(first.length);
      }
    }
    compiled.set(entries, found);
  }
  return found;
}

/**
 * The protected entry a path falls under, or null. `relative` is `/`-separated, relative to a
 * writable root (the project), without `..`. With `anyDepth`, a protected name deeper in the tree
 * counts as well (`packages/a/.vscode/tasks.json`): a folder opened there later obeys it too.
 * Matched without regard to case, as macOS and Windows file systems do.
 *
 * An agent may name a path of 2,000 names, so at each depth only the entries whose first name is
 * that name (or a glob) are tried, each on as many names as it has.
 */
export function protectedEntryFor(
  relative: string,
  entries: readonly ProtectedEntry[] = PROTECTED_FILES,
  anyDepth = false,
): ProtectedEntry | null {
  const names = new Names(relative);
  const { byFirst, firstLengths, anyFirst } = compile(entries);
  const starts = anyDepth ? names.count : Math.min(1, names.count);
  for (let start = 0; start < starts; start += 1) {
    // A case-blind match pairs letter with letter, so a name of another length is passed by.
    const named = firstLengths.has(names.lengthOf(start))
      ? byFirst.get(names.join(start, 1).toUpperCase())
      : undefined;
    const found = matchAt(anyFirst, names, start, matchAt(named, names, start, null));
    if (found !== null) return found.entry;
  }
  return null;
}

/**
 * The names of a `/`-separated path, `''` and `.` left out, as offsets into its text: a path of
 * 2,000 names is looked through without making 2,000 strings.
 */
class Names {
  /** Start and end of each name, in turn. */
  private readonly bounds: number[] = [];

  constructor(private readonly path: string) {
    let start = 0;
    for (let i = 0; i <= path.length; i++) {
      if (i < path.length && path.charCodeAt(i) !== SLASH) continue;
      const length = i - start;
      if (length > 0 && !(length === 1 && path.charCodeAt(start) === DOT))
        this.bounds.push(start, i);
      start = i + 1;
    }
  }

  get count(): number {
    return this.bounds.length / 2;
  }

  lengthOf(index: number): number {
    return this.bounds[2 * index + 1]! - this.bounds[2 * index]!;
  }

  /** The length of `count` names from `index` on, joined by `/`. */
  joinedLength(index: number, count: number): number {
    let length = count - 1;
    for (let i = index; i < index + count; i++) length += this.lengthOf(i);
    return length;
  }

  /** `count` names from `index` on, joined by `/`. */
  join(index: number, count: number): string {
    const start = this.bounds[2 * index]!;
    const end = this.bounds[2 * (index + count) - 1]!;
    // Nothing left out between them: the names are that stretch of the text.
    if (end - start === this.joinedLength(index, count)) return this.path.slice(start, end);
    const parts: string[] = [];
    for (let i = index; i < index + count; i++)
      parts.push(this.path.slice(this.bounds[2 * i], this.bounds[2 * i + 1]));
    return parts.join('/');
  }
}

const SLASH = 0x2f;
const DOT = 0x2e;

/** The earliest of `candidates` that matches the names from `start` on, if earlier than `found`. */
function matchAt(
  candidates: readonly CompiledEntry[] | undefined,
  names: Names,
  start: number,
  found: CompiledEntry | null,
): CompiledEntry | null {
  if (candidates === undefined) return found;
  const left = names.count - start;
  for (const c of candidates) {
    if (found !== null && found.index < c.index) break;
    if (left < c.depth || (left > c.depth && !c.below)) continue;
    if (c.length !== null && names.joinedLength(start, c.depth) !== c.length) continue;
    if (c.test(names.join(start, c.depth))) found = c;
  }
  return found;
}

/** Whether `name` (one segment) is what the first segment of `entry` names, without regard to case. */
export function firstSegmentMatches(entry: ProtectedEntry, name: string): boolean {
  const first = entry.path.split('/')[0] ?? '';
  return picomatch.isMatch(name, first, MATCH_OPTIONS);
}

/**
 * Whether `relative` names a folder on the way to a protected entry (`.git` for `.git/hooks`):
 * each of its segments matches the entry's segment at that depth, without regard to case, and the
 * entry goes deeper. Such a folder is not protected itself, but what appears in it may be.
 */
export function isEntryAncestor(
  relative: string,
  entries: readonly ProtectedEntry[] = PROTECTED_FILES,
): boolean {
  const segments = relative.split('/').filter((part) => part !== '' && part !== '.');
  if (segments.length === 0) return false;
  return entries.some((entry) => {
    const parts = entry.path.split('/');
    return (
      parts.length > segments.length &&
      segments.every((name, i) => picomatch.isMatch(name, parts[i]!, MATCH_OPTIONS))
    );
  });
}

/** Where a resolved path is judged from: the session folder's real path, and linked git dirs. */
export interface ProtectedScope {
  /** The session folder, real path; null when it cannot be resolved (then nothing is inside). */
  root: string | null;
  /** Real paths of git dirs a `.git` file in the session folder points to (worktree, submodule). */
  gitDirs?: readonly string[];
  entries?: readonly ProtectedEntry[];
}

/**
 * The protected entry a resolved (real, absolute) path falls under, or null. Inside the session
 * folder a protected name counts at any depth; inside a linked git dir the path counts as if under
 * `.git/`; anywhere else on the disk a protected name in the path counts (another project's
 * `.git/hooks`, the user's `~/.claude`). Judging the resolved path is what keeps `g -> .git` from
 * making `g/hooks/pre-commit` an ordinary edit.
 */
export function protectedEntryForReal(real: string, scope: ProtectedScope): ProtectedEntry | null {
  const entries = scope.entries ?? PROTECTED_FILES;
  const path = posix(real);
  for (const gitDir of scope.gitDirs ?? []) {
    const rel = below(path, posix(gitDir));
    if (rel !== null && rel !== '') return protectedEntryFor(`.git/${rel}`, entries);
  }
  const rel = scope.root === null ? null : below(path, posix(scope.root));
  return protectedEntryFor(rel ?? path, entries, true);
}

function posix(path: string): string {
  return path.replaceAll('\\', '/');
}

/** `path` relative to `folder` (both absolute, `/`-separated), or null when outside. */
function below(path: string, folder: string): string | null {
  return pathBelow(path, folder, nodePath.posix);
}

/**
 * What an agent's own state folder under HOME holds that the agent's CLI, run later by the person
 * outside any sandbox, obeys or runs: hooks, MCP servers, permissions, policies, memory, plugins,
 * variables. Keyed by the folder (relative to HOME), each entry relative to it. The folder stays
 * writable for the agent (sessions, caches, a token refresh); these stay read-only, and one that
 * does not exist yet is made (an empty folder, `{}` or an empty file) so that it can be.
 *
 * Only direct children: a read-only mount deeper down could be moved away with the folder above it
 * (rename(2) refuses a mount point, not its parent).
 */
export const PROTECTED_STATE_FILES: Readonly<Record<string, readonly ProtectedEntry[]>> = {
  '.gemini': [
    {
      path: 'settings.json',
      tree: false,
      runs: 'Gemini CLI runs its hooks and obeys its settings',
    },
    { path: '.env', tree: false, runs: 'Gemini CLI loads its variables at start' },
    {
      path: 'GEMINI.md',
      tree: false,
      runs: 'Gemini CLI reads it as instructions in every session',
    },
    { path: 'trustedFolders.json', tree: false, runs: 'Gemini CLI trusts the folders it lists' },
    { path: 'policies', tree: true, runs: 'Gemini CLI obeys these policies' },
    { path: 'hooks', tree: true, runs: 'Gemini CLI runs these hooks' },
    { path: 'commands', tree: true, runs: 'Gemini CLI runs these commands' },
    { path: 'agents', tree: true, runs: 'Gemini CLI runs these subagents' },
    {
      path: 'extensions',
      tree: true,
      runs: 'Gemini CLI loads these extensions and their MCP servers',
    },
    { path: 'skills', tree: true, runs: 'Gemini CLI loads these skills' },
  ],
  '.claude': [
    {
      path: 'settings.json',
      tree: false,
      runs: 'Claude Code runs its hooks and obeys its permissions',
    },
    { path: 'settings.local.json', tree: false, runs: 'Claude Code obeys these settings' },
    {
      path: 'CLAUDE.md',
      tree: false,
      runs: 'Claude Code reads it as instructions in every session',
    },
    { path: 'commands', tree: true, runs: 'Claude Code runs these commands' },
    { path: 'agents', tree: true, runs: 'Claude Code runs these subagents' },
    {
      path: 'plugins',
      tree: true,
      runs: 'Claude Code loads these plugins, their hooks and MCP servers',
    },
    { path: 'hooks', tree: true, runs: 'Claude Code runs these hooks' },
    { path: 'skills', tree: true, runs: 'Claude Code loads these skills' },
    { path: 'output-styles', tree: true, runs: 'Claude Code follows these styles' },
  ],
  '.codex': [
    {
      path: 'config.toml',
      tree: false,
      runs: 'Codex obeys it: approvals, sandbox, MCP servers, hooks',
    },
    { path: 'AGENTS.md', tree: false, runs: 'Codex reads it as instructions in every session' },
    { path: 'AGENTS.override.md', tree: false, runs: 'Codex reads it as instructions' },
    { path: '.env', tree: false, runs: 'Codex loads its variables at start' },
    { path: 'rules', tree: true, runs: 'Codex lets the commands these rules allow run unasked' },
    { path: 'prompts', tree: true, runs: 'Codex runs these prompts as commands' },
    { path: 'skills', tree: true, runs: 'Codex loads these skills' },
    { path: 'hooks.json', tree: false, runs: 'Codex (0.166 and later) runs these hooks' },
    {
      path: 'plugins',
      tree: true,
      runs: 'Codex loads the plugins enabled in its config from here, their hooks and skills',
    },
  ],
  '.qwen': [
    { path: 'settings.json', tree: false, runs: 'Qwen Code runs its hooks and obeys its settings' },
    { path: '.env', tree: false, runs: 'Qwen Code loads its variables at start' },
    { path: 'QWEN.md', tree: false, runs: 'Qwen Code reads it as instructions in every session' },
    { path: 'commands', tree: true, runs: 'Qwen Code runs these commands' },
    { path: 'agents', tree: true, runs: 'Qwen Code runs these subagents' },
    { path: 'extensions', tree: true, runs: 'Qwen Code loads these extensions' },
  ],
  '.config/opencode': [
    {
      path: 'opencode.json',
      tree: false,
      runs: 'opencode obeys it: permissions, MCP servers, plugins',
    },
    { path: 'opencode.jsonc', tree: false, runs: 'opencode obeys it' },
    { path: 'config.json', tree: false, runs: 'opencode obeys it' },
    { path: 'AGENTS.md', tree: false, runs: 'opencode reads it as instructions in every session' },
    { path: 'package.json', tree: false, runs: 'opencode installs the plugins it names' },
    { path: 'node_modules', tree: true, runs: 'opencode runs the plugins installed here' },
    { path: 'plugin', tree: true, runs: 'opencode runs these plugins' },
    { path: 'agent', tree: true, runs: 'opencode runs these agents' },
    { path: 'command', tree: true, runs: 'opencode runs these commands' },
    { path: 'mode', tree: true, runs: 'opencode obeys these modes' },
    { path: 'tool', tree: true, runs: 'opencode runs these tools' },
  ],
  '.cache/opencode': [
    {
      path: 'node_modules',
      tree: true,
      runs: 'opencode runs the provider packages installed here',
    },
    { path: 'package.json', tree: false, runs: 'opencode installs the packages it names' },
  ],
};
