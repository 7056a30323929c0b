import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readlink,
  realpath,
  rename,
  rmdir,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { isInside, nearestRealPath } from '../fs/containment';
import { READ_IN_PLACE } from '../fs/read-in-place';
import { beginOwnWrite } from '../sandbox/own-writes';

/** ACP's "Resource not found"; Gemini CLI treats that message as "file does not exist". */
export const RESOURCE_NOT_FOUND = -32002;

/** Larger than any text file an agent edits; the whole answer is one JSON message in memory. */
const MAX_READ_BYTES = 32 * 1024 * 1024;

export class OutsideSessionError extends RequestError {
  constructor(path: string, root: string) {
    super(-32602, `Refused: ${path} is outside the session folder ${root}`, { path, root });
    this.name = 'OutsideSessionError';
  }
}

/**
 * Resolves an agent-supplied path against the session folder, following `..` and symlinks, and
 * refuses anything that lands outside it.
 */
async function resolveWithRoot(
  root: string,
  path: string,
): Promise<{ realRoot: string; real: string }> {
  if (!isAbsolute(path)) throw new RequestError(-32602, `Refused: path must be absolute: ${path}`);
  const realRoot = await realpath(root);
  const real = await nearestRealPath(path);
  if (!isInside(real, realRoot)) throw new OutsideSessionError(path, root);
  return { realRoot, real };
}

/**
 * Which of a session's folders (its own first, then the extra ones the person gave it) holds
 * `path`, links followed; the session's own when none does, so that the refusal names it. Only a
 * choice: the write checks containment again, against the folder chosen, as it goes.
 */
export async function rootFor(
  roots: readonly [string, ...string[]],
  path: string,
): Promise<string> {
  if (roots.length === 1 || !isAbsolute(path)) return roots[0];
  const real = await nearestRealPath(path);
  for (const root of roots) {
    const realRoot = await realpath(root).catch(() => null);
    if (realRoot !== null && isInside(real, realRoot)) return root;
  }
  return roots[0];
}

export interface FileWritten {
  /** Where the file is now: the written folder's own path (on Linux, from its descriptor). */
  path: string;
  /** Identity of the written file (decimal strings: inode numbers can exceed 2^53). */
  inode: string;
  device: string;
  bytes: number;
  sha256: string;
}

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const TEMP_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

class ChangedWhileWritingError extends RequestError {
  constructor(path: string) {
    super(
      -32602,
      `Refused: ${path} changed while it was written (a link or file replaced a folder)`,
      { path },
    );
    this.name = 'ChangedWhileWritingError';
  }
}

/**
 * Writes `content` to `path` inside the session folder. The content goes to a fresh temporary
 * file in the target's folder, is synced, then renamed over the target name: a hard link at the
 * name is replaced rather than written through, a symlink at the name is replaced rather than
 * followed, and readers never see half a file. An existing target's mode is kept.
 *
 * On Linux every folder below the session root is opened without following links, each one
 * relative to the descriptor of its parent (`/proc/self/fd/<fd>/<name>` resolves like openat), so
 * a folder swapped for a link between the check and the write is refused instead of followed.
 */
export async function writeInside(
  root: string,
  path: string,
  content: string | Uint8Array,
  options: { mode?: number; judgedAt?: string | null } = {},
): Promise<FileWritten> {
  const { realRoot, real } = await resolveWithRoot(root, path);
  // The write was allowed for where the path led when judged; a link swapped in since is refused.
  if (options.judgedAt !== undefined && real !== options.judgedAt)
    throw new ChangedWhileWritingError(path);
  // Marked as Gatehouse's, so that the watch over files that run later does not take it away.
  const done = beginOwnWrite(real);
  try {
    const written =
      process.platform === 'linux'
        ? await writeThroughDescriptors(realRoot, real, path, content, options.mode)
        : await writeByPath(real, content, options.mode);
    const { device, inode, bytes: size, sha256 } = written;
    done({ path: written.path, dev: Number(device), ino: Number(inode), size, sha256 });
    return written;
  } finally {
    done();
  }
}

async function writeThroughDescriptors(
  realRoot: string,
  target: string,
  asked: string,
  content: string | Uint8Array,
  mode?: number,
): Promise<FileWritten> {
  const names = relative(realRoot, target).split(sep);
  const name = names.pop()!;
  if (name === '') throw new RequestError(-32602, `Refused: ${asked} is the session folder itself`);
  let dir = await open(realRoot, DIRECTORY_FLAGS);
  try {
    for (const part of names) {
      const next = await openChildDirectory(dir.fd, part, asked);
      await dir.close();
      dir = next;
    }
    const at = (child: string) => `/proc/self/fd/${dir.fd}/${child}`;
    const folder = await readlink(`/proc/self/fd/${dir.fd}`);
    if (!isInside(folder, realRoot)) throw new ChangedWhileWritingError(asked);
    const written = await writeTempAndRename(at, name, content, mode);
    // A folder moved out of the session folder since it was opened still holds the descriptor:
    // take the file back out rather than leave it written outside.
    const now = await readlink(`/proc/self/fd/${dir.fd}`);
    if (!isInside(now, realRoot)) {
      await unlink(at(name)).catch(() => undefined);
      throw new ChangedWhileWritingError(asked);
    }
    return { ...written, path: join(now, name) };
  } finally {
    await dir.close();
  }
}

async function openChildDirectory(
  parentFd: number,
  name: string,
  asked: string,
): Promise<FileHandle> {
  const path = `/proc/self/fd/${parentFd}/${name}`;
  try {
    return await open(path, DIRECTORY_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new ChangedWhileWritingError(asked);
    if (code !== 'ENOENT') throw error;
  }
  // mkdir does not follow a link at the name: if one appeared meanwhile, it fails with EEXIST and
  // the open below refuses it.
  await mkdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  try {
    return await open(path, DIRECTORY_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT')
      throw new ChangedWhileWritingError(asked);
    throw error;
  }
}

/**
 * The residual race where there is no /proc (macOS, Windows): the path is checked with realpath
 * and then used by name, so a folder swapped for a link between the two is followed. The temp file
 * and the rename still keep hard links and a link at the final name from being written through.
 */
async function writeByPath(
  target: string,
  content: string | Uint8Array,
  mode?: number,
): Promise<FileWritten> {
  const folder = dirname(target);
  await mkdir(folder, { recursive: true });
  const written = await writeTempAndRename(
    (child) => join(folder, child),
    basename(target),
    content,
    mode,
  );
  return { ...written, path: target };
}

/**
 * Temp file (exclusive, no links followed), content, sync, the given mode or else the old one,
 * rename over `name`.
 */
async function writeTempAndRename(
  at: (child: string) => string,
  name: string,
  content: string | Uint8Array,
  mode?: number,
): Promise<Omit<FileWritten, 'path'>> {
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  const existingMode =
    mode ??
    (await lstat(at(name)).then(
      (stats) => (stats.isFile() ? stats.mode & 0o7777 : null),
      () => null,
    ));
  const temp = `.${name.slice(0, 100)}.${randomBytes(6).toString('hex')}.gatehouse-tmp`;
  const handle = await open(at(temp), TEMP_FLAGS, 0o666);
  let renamed = false;
  try {
    await handle.writeFile(data);
    if (existingMode !== null) await handle.chmod(existingMode);
    await handle.sync();
    const stats = await handle.stat({ bigint: true });
    await rename(at(temp), at(name));
    renamed = true;
    return {
      inode: stats.ino.toString(),
      device: stats.dev.toString(),
      bytes: data.length,
      sha256: sha256(data),
    };
  } finally {
    await handle.close();
    if (!renamed) await unlink(at(temp)).catch(() => undefined);
  }
}

/**
 * Removes the file (with `folder`, the empty folder) at `path` inside `root`. Its folders are walked
 * as writeInside walks them, so a folder swapped for a link is refused rather than followed, and a
 * link at the name itself is removed, never its target. False when nothing was there.
 */
export async function removeInside(
  root: string,
  path: string,
  options: { folder?: boolean } = {},
): Promise<boolean> {
  if (!isAbsolute(path)) throw new RequestError(-32602, `Refused: path must be absolute: ${path}`);
  const realRoot = await realpath(root);
  const parent = await nearestRealPath(dirname(path));
  const name = basename(path);
  if (!isInside(parent, realRoot) || name === '' || name === '..' || name === '.')
    throw new OutsideSessionError(path, root);
  const remove = (at: string) =>
    (options.folder ? rmdir(at) : unlink(at)).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
  if (process.platform !== 'linux') return remove(join(parent, name));
  let dir = await open(realRoot, DIRECTORY_FLAGS);
  try {
    for (const part of relative(realRoot, parent).split(sep).filter(Boolean)) {
      let next: FileHandle;
      try {
        next = await open(`/proc/self/fd/${dir.fd}/${part}`, DIRECTORY_FLAGS);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return false;
        if (code === 'ELOOP' || code === 'ENOTDIR') throw new ChangedWhileWritingError(path);
        throw error;
      }
      await dir.close();
      dir = next;
    }
    if (!isInside(await readlink(`/proc/self/fd/${dir.fd}`), realRoot))
      throw new ChangedWhileWritingError(path);
    return await remove(`/proc/self/fd/${dir.fd}/${name}`);
  } finally {
    await dir.close();
  }
}

/** The real path of an agent-supplied absolute path (its nearest existing ancestor's, joined). */
export async function realPathOf(path: string): Promise<string> {
  if (!isAbsolute(path)) throw new RequestError(-32602, `Refused: path must be absolute: ${path}`);
  return nearestRealPath(path);
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
    handle = await open(realPath, READ_IN_PLACE);
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
