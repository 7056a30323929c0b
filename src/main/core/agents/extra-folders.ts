// The folders a session works in besides its own (ACP `additionalDirectories`). They come only from
// the person who starts the session, never from the agent: each one becomes a writable root of the
// sandbox, a root the agent's reads and writes through Gatehouse may reach, and the agent is told of
// them at `session/new`. So each passes the session folder's own checks and more: a root the
// sandbox makes writable must not be a system folder, HOME or one of its ancestors, and roots do not
// nest (a root inside another is no root of its own; one around the session folder would widen the
// project without saying so).
import { homedir } from 'node:os';
import { sep } from 'node:path';
import type { Store } from '../store';
import { BadRequestError } from '../errors';
import { isInside, nearestRealPath } from '../fs/containment';
import { checkFolder } from './session-folder';

/** Folders whose contents the system runs or serves: never a writable root. */
const SYSTEM_FOLDERS = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/sys',
  '/usr',
  '/var',
];

export interface ExtraFoldersDeps {
  home: string;
  store: Pick<Store, 'recordEvent'>;
  now: () => number;
  /** The person's HOME (the real one, not an agent's). */
  userHome?: string;
}

/** Why `path` (a real path) cannot be an extra root beside `sessionDir`, or null. */
async function rootProblem(
  path: string,
  sessionDir: string,
  userHome: string,
  gatehouseHome: string,
): Promise<string | null> {
  const home = await nearestRealPath(userHome);
  if (path === sep || isInside(home, path)) return 'it is your home folder or holds it';
  const system = SYSTEM_FOLDERS.find((folder) => isInside(path, folder));
  if (system && !isInside(home, system)) return `it is in the system folder ${system}`;
  if (path === sessionDir) return 'it is the session folder itself';
  if (isInside(path, sessionDir))
    return 'it is inside the session folder, the agent has it already';
  if (isInside(sessionDir, path))
    return 'it holds the session folder: start the session there instead';
  if (isInside(await nearestRealPath(gatehouseHome), path))
    return "it holds Gatehouse's own data folder";
  return null;
}

/**
 * The real paths of the extra folders the person asked for, each checked; refused whole (and
 * audited) if any one fails: an agent started with fewer folders than asked would work elsewhere
 * than the person thinks.
 */
export async function extraFolders(
  inputs: readonly string[],
  session: { agentId: string; cwd: string },
  deps: ExtraFoldersDeps,
): Promise<string[]> {
  const userHome = deps.userHome ?? homedir();
  const out: string[] = [];
  for (const input of inputs) {
    const checked = await checkFolder(input, deps.home);
    const problem = checked.ok
      ? ((await rootProblem(checked.path, session.cwd, userHome, deps.home)) ??
        nestingProblem(checked.path, out))
      : checked.problem;
    if (problem !== null || !checked.ok) {
      const message = `additional folder ${input}: ${problem}`;
      refused(session, inputs, message, deps);
      throw new BadRequestError(message);
    }
    out.push(checked.path);
  }
  return out;
}

function nestingProblem(path: string, earlier: readonly string[]): string | null {
  const other = earlier.find((folder) => isInside(path, folder) || isInside(folder, path));
  if (other === undefined) return null;
  return other === path ? 'it is asked twice' : `it overlaps the additional folder ${other}`;
}

/**
 * Throws (audited) unless the agent's `initialize` answer advertises `additionalDirectories` on
 * session/new: an agent that does not know the field would ignore it, and work in one folder while
 * the person thinks it has several.
 */
export function takesExtraFolders(
  initialized: {
    agentCapabilities?: { sessionCapabilities?: { additionalDirectories?: unknown } | null } | null;
  },
  session: { agentId: string; cwd: string; additionalDirectories: readonly string[] },
  deps: Pick<ExtraFoldersDeps, 'store' | 'now'>,
): void {
  const offered = initialized.agentCapabilities?.sessionCapabilities?.additionalDirectories;
  if (typeof offered === 'object' && offered !== null) return;
  const message =
    'it does not take additional folders (its sessionCapabilities.additionalDirectories is not ' +
    'advertised): start it without them';
  refused(session, session.additionalDirectories, message, deps);
  throw new BadRequestError(message);
}

/** A start refused for its extra folders, audited with what was asked and why. */
export function refused(
  session: { agentId: string; cwd: string },
  folders: readonly string[],
  problem: string,
  deps: Pick<ExtraFoldersDeps, 'store' | 'now'>,
): void {
  deps.store.recordEvent({
    type: 'session_folders_refused',
    agentId: session.agentId,
    at: deps.now(),
    payload: { cwd: session.cwd, additionalDirectories: [...folders], problem },
  });
}
