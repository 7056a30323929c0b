// The headless server's bearer token, kept in the data folder so that a restart does not lock out
// every browser and phone that holds the address: the token changes only when the person rotates it.
// The data folder is 0700 and hidden from sandboxed agents; the file is 0600. A file another
// account could have read (wider mode, another owner, a link) is not trusted: a new token replaces it.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export const SERVER_TOKEN_FILE = 'server-token';

export class ServerTokenError extends Error {
  override name = 'ServerTokenError';
}

/** base64url, as made here or as a person may set it through GATEHOUSE_TOKEN. */
const TOKEN_TEXT = /^[A-Za-z0-9._~+/=-]{16,512}$/;

export type TokenOrigin =
  /** The file held a token this start reuses. */
  | 'kept'
  /** There was no token file (first start, or rotated while stopped): a new one was made. */
  | 'created'
  /** The file could not be trusted (its mode, owner, kind or content): a new one replaced it. */
  | 'replaced'
  /** GATEHOUSE_TOKEN named the token; it is kept in the file for the next start and for status. */
  | 'environment';

export interface ServerToken {
  token: string;
  origin: TokenOrigin;
  /** Why a file was replaced (for the audit), when it was. */
  reason?: string;
}

export const serverTokenPath = (home: string) => join(home, SERVER_TOKEN_FILE);

export const newServerToken = () => randomBytes(24).toString('base64url');

/** What the file holds; a reason string when it is there but not to be trusted; null when absent. */
export function readServerToken(home: string): string | { untrusted: string } | null {
  let fd: number;
  try {
    // O_NOFOLLOW: a link planted in place of the file is not followed to whatever it names.
    fd = openSync(serverTokenPath(home), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') return { untrusted: 'the token file is a symbolic link' };
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { untrusted: 'the token file is not a regular file' };
    if (process.platform !== 'win32') {
      if ((info.mode & 0o077) !== 0)
        return { untrusted: `the token file had mode ${(info.mode & 0o777).toString(8)}` };
      if (typeof process.getuid === 'function' && info.uid !== process.getuid())
        return { untrusted: 'the token file belongs to another user' };
    }
    const buffer = Buffer.alloc(1024);
    const size = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, size).toString('utf8').trim();
    return TOKEN_TEXT.test(text) ? text : { untrusted: 'the token file does not hold a token' };
  } finally {
    closeSync(fd);
  }
}

/** Writes the token 0600 beside the file and renames it over: a reader sees the old or the new. */
export function writeServerToken(home: string, token: string): void {
  const file = serverTokenPath(home);
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, `${token}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

/** The token this start serves with: GATEHOUSE_TOKEN if given, else the file's, else a new one. */
export function loadServerToken(home: string, fromEnv: string | undefined): ServerToken {
  if (fromEnv) {
    if (!TOKEN_TEXT.test(fromEnv))
      throw new ServerTokenError('GATEHOUSE_TOKEN must be 16 to 512 URL-safe characters');
    const stored = readServerToken(home);
    if (stored !== fromEnv) writeServerToken(home, fromEnv);
    return { token: fromEnv, origin: stored === fromEnv ? 'kept' : 'environment' };
  }
  const stored = readServerToken(home);
  if (typeof stored === 'string') return { token: stored, origin: 'kept' };
  const token = newServerToken();
  if (stored !== null) rmSync(serverTokenPath(home), { recursive: true, force: true });
  writeServerToken(home, token);
  return stored === null
    ? { token, origin: 'created' }
    : { token, origin: 'replaced', reason: stored.untrusted };
}

/** Rotation while no core runs: the next start makes (and audits) a new token. */
export function forgetServerToken(home: string): boolean {
  try {
    rmSync(serverTokenPath(home));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
