// Each sandbox's own temp folder. Without it every session saw, and could write, the same /tmp: the
// files another session's agent left there, and those Gatehouse or the person keep there.
import { mkdtemp } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { isInside } from '../fs/containment';
import { removeTree } from '../fs/remove-tree';
import { launchFolderPrefix } from './launch-folders';

export interface PrivateTmp {
  /** The folder on the host, in Gatehouse's data folder (which every sandbox hides). */
  path: string;
  /** Removes it and what the agent left there. Idempotent. */
  remove(): Promise<void>;
}

/** A new, empty folder only the user may enter, under `runDir`. */
export async function createPrivateTmp(runDir: string): Promise<PrivateTmp> {
  const path = await mkdtemp(launchFolderPrefix(runDir, 'tmp'));
  let removed: Promise<void> | null = null;
  return {
    path,
    remove: () => (removed ??= removeTree(path)),
  };
}

/**
 * What lies under a replaced temp folder and must still be seen inside, read-only (anything
 * writable, the project first, is bound again later on top): the agent's HOME, its working
 * directory and its program's folder when they live in a temp folder (as in tests and one-off
 * setups). A folder rather than the program itself: a program reached through a link must stay a
 * link, or Node would look for its modules beside the link.
 */
export function seenUnderTmp(
  tmpDirs: readonly string[],
  candidates: readonly (string | undefined)[],
): string[] {
  const under = (path: string): boolean =>
    tmpDirs.some((dir) => path !== dir && isInside(path, dir));
  const seen = candidates.filter(
    (path): path is string => path !== undefined && isAbsolute(path) && under(path),
  );
  return [...new Set(seen)];
}
