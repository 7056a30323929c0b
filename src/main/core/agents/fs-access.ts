import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';

/** ACP's "Resource not found"; Gemini CLI treats that message as "file does not exist". */
const RESOURCE_NOT_FOUND = -32002;

export class OutsideSessionError extends RequestError {
  constructor(path: string, root: string) {
    super(-32602, `Refused: ${path} is outside the session folder ${root}`, { path, root });
    this.name = 'OutsideSessionError';
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
async function realpathOfExisting(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(await realpathOfExisting(parent), relative(parent, path));
  }
}

/**
 * Resolves an agent-supplied path against the session folder, following `..` and symlinks, and
 * refuses anything that lands outside it.
 */
export async function resolveInside(root: string, path: string): Promise<string> {
  if (!isAbsolute(path)) throw new RequestError(-32602, `Refused: path must be absolute: ${path}`);
  const realRoot = await realpath(root);
  const real = await realpathOfExisting(resolve(path));
  if (!isInside(realRoot, real)) throw new OutsideSessionError(path, root);
  return real;
}

export async function writeInside(root: string, path: string, content: string): Promise<string> {
  const target = await resolveInside(root, path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, content, 'utf8');
  return target;
}

export async function readInside(
  root: string,
  path: string,
  line?: number | null,
  limit?: number | null,
): Promise<string> {
  const target = await resolveInside(root, path);
  let text: string;
  try {
    text = await readFile(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new RequestError(RESOURCE_NOT_FOUND, `Resource not found: ${path}`, { uri: path });
    }
    throw error;
  }
  if (line == null && limit == null) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit == null ? lines.length : start + limit;
  return lines.slice(start, end).join('\n');
}
