// An agent's state folder under HOME stays writable inside its sandbox (sessions, caches, a token
// refresh), but what the agent's CLI obeys when the person runs it later, outside any sandbox
// (settings with hooks and permissions, policies, MCP servers, instructions, plugins), is mounted
// read-only on top (rules/protected-files.ts, PROTECTED_STATE_FILES). A mount covers only a path
// that exists, so a missing one is made first: an empty folder, `{}` for JSON, an empty file.
import { lstat, mkdir, realpath, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface StateGuard {
  /** Paths to mount read-only on top of the writable set. */
  readOnly: string[];
  /**
   * State folders to keep read-only whole: one of their protected entries is a link, which the
   * agent could replace (a mount lands on the link's target, not on the link).
   */
  lockedDirs: string[];
}

/**
 * Makes what is missing and resolves the rest. `entries` are absolute, each directly inside one
 * of `stateDirs`. A placeholder that cannot be made (a read-only HOME) locks its folder: fail
 * closed rather than leave the name free for the agent.
 */
export async function guardState(
  stateDirs: readonly string[],
  entries: readonly { path: string; tree: boolean }[],
): Promise<StateGuard> {
  const readOnly: string[] = [];
  const locked = new Set<string>();
  await Promise.all(
    entries.map(async (entry) => {
      const dir = dirname(entry.path);
      if (!stateDirs.includes(dir)) return;
      const kind = await lstat(entry.path).catch(() => null);
      if (kind?.isSymbolicLink()) {
        locked.add(dir);
        return;
      }
      try {
        if (!kind) await placeholder(entry.path, entry.tree);
        readOnly.push(await realpath(entry.path));
      } catch {
        locked.add(dir);
      }
    }),
  );
  // Sorted: the argument list, and so the sandbox, is the same from one start to the next.
  const lockedDirs = await Promise.all([...locked].map((dir) => realpath(dir).catch(() => dir)));
  return { readOnly: readOnly.sort(), lockedDirs: lockedDirs.sort() };
}

async function placeholder(path: string, tree: boolean): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  if (tree) {
    await mkdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    return;
  }
  // `wx`: never over a file made meanwhile (by the person, or a CLI starting beside).
  await writeFile(path, path.endsWith('.json') ? '{}\n' : '', { flag: 'wx' }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    },
  );
}
