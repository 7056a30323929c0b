/**
 * Writes to protected files (rules/protected-files.ts): git hooks and config, editor tasks, CLI
 * settings. Another program runs or obeys them later, outside any sandbox, so no mode, grant,
 * allow rule or remembered "always" decides a write to one; only the managed policy's allow rules
 * may. Judged by the resolved path, and by the path as written when it cannot be resolved.
 */
import { protectedEntryForReal, writesFiles, type ProtectedEntry } from './protected-files';
import type { ResolvedPath } from './paths';
import type { PreparedRequest } from './request';

export interface ProtectedWrite {
  path: ResolvedPath;
  entry: ProtectedEntry;
}

/** The protected files a request would write: its paths (unless it only looks) and redirects. */
export function protectedWrites(
  prep: PreparedRequest,
  entries?: readonly ProtectedEntry[],
  knownGitDirs?: readonly string[],
): ProtectedWrite[] {
  const written = [
    // A kind that only looks writes nothing at its paths; a command's redirects still write.
    ...(writesFiles(prep.kind) ? prep.paths : []),
    ...prep.writes.filter((w) => w.dynamic !== true),
  ];
  if (written.length === 0) return [];
  const gitDirs = knownGitDirs ?? prep.resolver.linkedGitDirs(prep.root.real);
  const found: ProtectedWrite[] = [];
  for (const path of written) {
    // Where no link is in the way, the path as written is the same question asked again.
    const seen = (path.real === path.lexical ? [path.real] : [path.real, path.lexical]).flatMap(
      (p) => (p === null ? [] : [p]),
    );
    let entry: ProtectedEntry | null = null;
    for (const at of seen) {
      const root = at === path.real ? prep.root.real : prep.root.lexical;
      entry = protectedEntryForReal(at, { root, gitDirs, ...(entries ? { entries } : {}) });
      if (entry) break;
    }
    if (entry ?? path.real === null) found.push({ path, entry: entry ?? UNKNOWN_PLACE });
  }
  return found;
}

/** A write whose place is not known may be to any protected file. */
const UNKNOWN_PLACE: ProtectedEntry = {
  path: '',
  tree: false,
  runs: 'where it leads could not be worked out, so it may be one',
};

/** The reason a person is asked, naming the file and what runs it. */
export function protectedReason(writes: readonly ProtectedWrite[]): string {
  const listed = writes
    .slice(0, 3)
    .map(({ path, entry }) => `${path.input} (${entry.runs})`)
    .join('; ');
  const more = writes.length > 3 ? ` and ${writes.length - 3} more` : '';
  return `Protected file: ${listed}${more}. A person decides every write to it, whatever the mode, grant or allow rule`;
}
