import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readlink, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';

/** ACP's "Resource not found"; Gemini CLI treats that message as "file does not exist". */
export const RESOURCE_NOT_FOUND = -32002;

/** Larger than any text file an agent edits; the whole answer is one JSON message in memory. */
export const MAX_READ_BYTES = 32 * 1024 * 1024;

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

/** The real path of an agent-supplied absolute path (its nearest existing ancestor's, joined). */
export async function realPathOf(path: string): Promise<string> {
  if (!isAbsolute(path)) throw new RequestError(-32602, `Refused: path must be absolute: ${path}`);
  return realpathOfExisting(resolve(path));
}

export interface FileRead {
  text: string;
  bytes: number;
  sha256: string;
}

/**
 * Reads the regular file at `realPath`, a path already judged. The last component is opened
 * without following links, and on Linux the opened file's own path (/proc/self/fd) must still be
 * the judged one, so a link swapped in after the judgement is refused rather than read. Elsewhere a
 * directory swapped between judgement and open is not detected.
 */
export async function readJudged(
  realPath: string,
  asked: string,
  line?: number | null,
  limit?: number | null,
): Promise<FileRead> {
  let handle;
  try {
    handle = await open(
      realPath,
      constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new RequestError(RESOURCE_NOT_FOUND, `Resource not found: ${asked}`, { uri: asked });
    }
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new RequestError(-32602, `Refused: ${realPath} changed into a link while it was read`);
    }
    throw error;
  }
  try {
    if (process.platform === 'linux') {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`);
      if (opened !== realPath)
        throw new RequestError(-32602, `Refused: ${realPath} changed while it was read`);
    }
    const stats = await handle.stat();
    if (!stats.isFile())
      throw new RequestError(-32602, `Refused: ${realPath} is not a regular file`);
    if (stats.size > MAX_READ_BYTES) {
      throw new RequestError(-32602, `Refused: ${realPath} is larger than ${MAX_READ_BYTES} bytes`);
    }
    const buffer = await handle.readFile();
    if (buffer.length > MAX_READ_BYTES) {
      throw new RequestError(-32602, `Refused: ${realPath} is larger than ${MAX_READ_BYTES} bytes`);
    }
    const whole = buffer.toString('utf8');
    return { text: linesOf(whole, line, limit), bytes: buffer.length, sha256: sha256(buffer) };
  } finally {
    await handle.close();
  }
}

function linesOf(text: string, line?: number | null, limit?: number | null): string {
  if (line == null && limit == null) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit == null ? lines.length : start + limit;
  return lines.slice(start, end).join('\n');
}

function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
