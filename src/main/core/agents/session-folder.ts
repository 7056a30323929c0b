import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { BadRequestError } from '../errors';
import { isInside, nearestRealPath } from '../fs/containment';

/** A folder a session may start in (its real path), or why not in words a person can act on. */
export type FolderCheck = { ok: true; path: string } | { ok: false; problem: string };

/**
 * Checks a session's folder before its agent is spawned: absolute, there, a folder, listable, and
 * not Gatehouse's own folder (an agent working there would write its settings and its audit).
 */
export async function checkFolder(input: string, gatehouseHome: string): Promise<FolderCheck> {
  const no = (problem: string): FolderCheck => ({ ok: false, problem });
  if (!isAbsolute(input)) return no(`folder must be an absolute path: ${input}`);
  const path = await realpath(input).catch(() => null);
  if (path === null) return no(`folder does not exist: ${input}`);
  if (!(await stat(path)).isDirectory()) return no(`not a folder: ${input}`);
  // An agent in a folder it cannot list only fails later.
  const listable = await access(path, constants.R_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!listable) return no(`folder is not readable: ${input}`);
  if (isInside(path, await nearestRealPath(gatehouseHome)))
    return no(`folder is inside Gatehouse's own data folder: ${input}`);
  return { ok: true, path };
}

/** The real path of a session's folder, checked before its agent is spawned. */
export async function sessionFolder(input: string, gatehouseHome: string): Promise<string> {
  const checked = await checkFolder(input, gatehouseHome);
  if (!checked.ok) throw new BadRequestError(checked.problem);
  return checked.path;
}
