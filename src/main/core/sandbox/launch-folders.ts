// The folders a sandboxed launch makes in Gatehouse's data folder (`run/`): the session's own /tmp,
// with whatever its agent left there, the network bridge's sockets, the shell's stderr tap, a
// launch file, a preview's control folder; and a preview's scratch folder, in a temp folder. Each
// is removed when its run ends; a core that dies (killed, crashed, the machine off) leaves them for
// good. Each name carries the core that made it (its pid and the kernel's start time of that pid),
// so a later core removes those of a core that is gone and never those of one still running. A
// sandboxed agent cannot rename a folder it is given: the folders in `run/` lie in a folder every
// sandbox hides, and its /tmp is its own, not the temp folder a scratch folder is made in.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { removeTree } from '../fs/remove-tree';
import { ownIdentity, stillRunning } from '../process-identity';

export type LaunchFolderKind = 'tmp' | 'net' | 'shell' | 'launch' | 'preview';
/** A preview's scratch folder: in a temp folder other programs share, so named for Gatehouse. */
export const SCRATCH_KIND = 'gatehouse-preview';
/** What `run/` may hold (a scratch folder too, where no temp folder could hold it). */
export const RUN_FOLDER_KINDS = ['tmp', 'net', 'shell', 'launch', 'preview', SCRATCH_KIND] as const;

// A start time in clock ticks (100 a second) stays a safe integer for two million years.
const TAG = '([0-9a-z]{1,8})\\.([0-9a-z]{1,10})-';

/** The tag a core's folders carry: its pid and start time, base 36 (short: sockets live there). */
export function coreTag(pid: number, startTime: string): string {
  return `${pid.toString(36)}.${Number(startTime).toString(36)}`;
}

/** The prefix for mkdtemp of a `kind` folder in `dir`, named for this core. */
export function launchFolderPrefix(
  dir: string,
  kind: LaunchFolderKind | typeof SCRATCH_KIND,
): string {
  const core = ownIdentity();
  return join(dir, core ? `${kind}-${coreTag(process.pid, core.startTime)}-` : `${kind}-`);
}

/**
 * Removes the folders of these kinds in `dir` whose core is no longer running; returns how many.
 * Only this user's folders, never through a link: `dir` may be a temp folder every program shares.
 * A name without a core (made where the kernel says nothing of processes) is left alone.
 */
export async function removeLeftoverLaunchFolders(
  dir: string,
  kinds: readonly string[] = RUN_FOLDER_KINDS,
): Promise<number> {
  if (!ownIdentity()) return 0;
  const tagged = new RegExp(`^(?:${kinds.join('|')})-${TAG}`);
  const names = await readdir(dir).catch(() => [] as string[]);
  const uid = process.getuid?.();
  const gone = names.filter((name) => {
    const tag = tagged.exec(name);
    if (!tag) return false;
    const pid = parseInt(tag[1]!, 36);
    return pid > 0 && !stillRunning({ pid, startTime: String(parseInt(tag[2]!, 36)) });
  });
  const removed = await Promise.all(
    gone.map(async (name) => {
      const path = join(dir, name);
      const found = await lstat(path).catch(() => null);
      if (!found?.isDirectory() || found.uid !== uid) return false;
      await removeTree(path);
      return true;
    }),
  );
  return removed.filter(Boolean).length;
}
