// The protection of files that run later, for one sandbox: what is bound read-only at start, the
// watch over what does not exist yet, and which protected entry a refused path falls under.
import { randomBytes } from 'node:crypto';
import { join, relative } from 'node:path';
import { isInside } from '../fs/containment';
import { PROTECTED_FILES, protectedEntryFor, type ProtectedEntry } from '../rules/protected-files';
import type { SandboxProfile } from './profile';
import {
  isGitLink,
  planProtectedMounts,
  scanProtected,
  type ProtectedMounts,
} from './protected-mounts';
import { watchProtected, type ProtectedMove, type ProtectedWatch } from './protected-watch';

export interface ProtectionOptions {
  /** The default list with what the settings and the managed policy add. */
  entries?: readonly ProtectedEntry[];
  /** A protected path that appeared and was moved into quarantine (or could not be). */
  onMove?: (move: ProtectedMove) => void;
}

/** The protected entry a path falls under, as a refusal names it. */
export interface ProtectedLabel {
  entry: string;
  runs: string;
}

export interface Protection {
  mounts: ProtectedMounts;
  /** Starts the watch: just before the agent starts. */
  watch(): ProtectedWatch;
  label(path: string): ProtectedLabel | null;
}

const GIT_LINK: ProtectedLabel = {
  entry: '.git',
  runs: 'git takes its hooks and config from where this points',
};

/**
 * Lists the profile's writable roots (the project in workspace-write, the allowWrite folders; not
 * the temp folder or the agents' state folders) and plans the mounts. A protected path that holds
 * another writable folder (an agent's state folder under an allowWrite HOME) is left to that.
 */
export async function planProtection(
  profile: Pick<SandboxProfile, 'gatehouseHome'>,
  /** Real paths: the writable roots, and every writable folder. */
  realRoots: readonly string[],
  realWritable: readonly string[],
  options: ProtectionOptions = {},
): Promise<Protection> {
  const entries = options.entries ?? PROTECTED_FILES;
  const scan = await scanProtected(realRoots, entries);
  const others = realWritable.filter((path) => !realRoots.includes(path));
  scan.found = scan.found.filter((item) => !others.some((other) => isInside(other, item.path)));
  const mounts = planProtectedMounts(scan.found, entries);
  const quarantineDir = join(
    profile.gatehouseHome,
    'quarantine',
    `${new Date().toISOString().slice(0, 10)}-${randomBytes(6).toString('hex')}`,
  );
  return {
    mounts,
    watch: () =>
      watchProtected({
        scan,
        mounts,
        entries,
        quarantineDir,
        onMove: options.onMove ?? (() => undefined),
      }),
    label: (path) => {
      for (const watched of scan.watch) {
        if (!isInside(path, watched.dir)) continue;
        const rel = [watched.rel, relative(watched.dir, path)].filter((p) => p !== '').join('/');
        const entry = protectedEntryFor(rel, entries);
        if (entry) return { entry: entry.path, runs: entry.runs };
        if (isGitLink(rel)) return GIT_LINK;
      }
      return null;
    },
  };
}
