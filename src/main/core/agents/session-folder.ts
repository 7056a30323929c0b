import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { BadRequestError } from '../errors';

/** The real path of a session's folder, checked before its agent is spawned. */
export async function sessionFolder(cwdInput: string): Promise<string> {
  if (!isAbsolute(cwdInput))
    throw new BadRequestError(`folder must be an absolute path: ${cwdInput}`);
  const cwd = await realpath(cwdInput).catch(() => {
    throw new BadRequestError(`folder does not exist: ${cwdInput}`);
  });
  if (!(await stat(cwd)).isDirectory()) throw new BadRequestError(`not a folder: ${cwdInput}`);
  // An agent in a folder it cannot list only fails later.
  await access(cwd, constants.R_OK | constants.X_OK).catch(() => {
    throw new BadRequestError(`folder is not readable: ${cwdInput}`);
  });
  return cwd;
}
