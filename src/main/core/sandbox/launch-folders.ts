// The folders a sandboxed launch makes in Gatehouse's data folder (`run/`): the session's own /tmp,
// with whatever its agent left there, the network bridge's sockets, the shell's stderr tap, a
// launch file. Each is removed when its session ends; a core that dies (killed, crashed, the
// machine off) leaves them for good. Each name carries the core that made it (its pid and the
// kernel's start time of that pid), so a later core removes those of a core that is gone and never
// those of one still running. An agent cannot rename a folder it is given: the folders themselves
// lie in a folder every sandbox hides.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { removeTree } from '../fs/remove-tree';
import { ownIdentity, stillRunning } from '../process-identity';

export type LaunchFolderKind = 'tmp' | 'net' | 'shell' | 'launch';

// A start time in clock ticks (100 a second) stays a safe integer for two million years.
const TAGGED = /^(?:tmp|net|shell|launch)-([0-9a-z]{1,8})\.([0-9a-z]{1,10})-/;

/** The prefix for mkdtemp of a `kind` folder in `runDir`, named for this core (short: sockets live there). */
export function launchFolderPrefix(runDir: string, kind: LaunchFolderKind): string {
  const core = ownIdentity();
  const tag = core ? `${process.pid.toString(36)}.${Number(core.startTime).toString(36)}-` : '';
  return join(runDir, `${kind}-${tag}`);
}

/**
 * Removes the launch folders in `runDir` whose core is no longer running; returns how many. A name
 * without a core (made where the kernel says nothing of processes) is left alone.
 */
export async function removeLeftoverLaunchFolders(runDir: string): Promise<number> {
  if (!ownIdentity()) return 0;
  const names = await readdir(runDir).catch(() => [] as string[]);
  const gone = names.filter((name) => {
    const tag = TAGGED.exec(name);
    if (!tag) return false;
    const pid = parseInt(tag[1]!, 36);
    return pid > 0 && !stillRunning({ pid, startTime: String(parseInt(tag[2]!, 36)) });
  });
  await Promise.all(gone.map((name) => removeTree(join(runDir, name))));
  return gone.length;
}
