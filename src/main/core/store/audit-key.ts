// The audit key signs the chain head and the retention checkpoint. Whoever holds it can re-sign a
// forged history, so it never lives in the data folder ($GATEHOUSE_HOME), which agents are pointed
// at and which tools copy around. Where it comes from, first match wins:
//
//   1. A key the shell injects. The desktop app keeps it encrypted with the OS keychain (Electron
//      safeStorage): the encrypted blob may sit in the data folder, only the keychain decrypts it.
//   2. GATEHOUSE_AUDIT_KEY: 64 hex digits. Read once at start and removed from the environment, so
//      the agents Gatehouse spawns do not inherit it.
//   3. GATEHOUSE_AUDIT_KEY_FILE: a file outside $GATEHOUSE_HOME (checked after resolving links),
//      mode 0600 or stricter. Created 0600 when missing.
//   4. The default file, outside the data folder, created 0600 in a 0700 folder:
//        Linux    $XDG_STATE_HOME/gatehouse/audit-key (~/.local/state/gatehouse/audit-key)
//        macOS    ~/Library/Application Support/Gatehouse Audit/audit-key
//        Windows  %LOCALAPPDATA%\Gatehouse\audit-key
//
// Older versions kept the key beside the database (gatehouse.db.audit-key). Such a key is moved out
// once, into the file Gatehouse creates, and the move is audited; it is never read from there again.
// A same-user process that looks for the default file can still read it: the keychain (desktop), or
// a key file owned by another account, is what keeps it from such a process.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isInside, nearestRealPathSync } from '../fs/containment';

export const KEY_ENV = 'GATEHOUSE_AUDIT_KEY';
export const KEY_FILE_ENV = 'GATEHOUSE_AUDIT_KEY_FILE';
const KEY_HEX = /^[0-9a-fA-F]{64}$/;

export class AuditKeyError extends Error {
  override name = 'AuditKeyError';
}

export interface ResolvedAuditKey {
  key: Buffer;
  /** Where it came from, for messages: 'injected', the variable's name, or a file path. */
  location: string;
  /** The old key file beside the database this key was moved from (audited by the caller). */
  movedFrom: string | null;
}

type Env = Record<string, string | undefined>;

export interface KeyContext {
  /** The data folder ($GATEHOUSE_HOME), which the key must stay out of. */
  home: string;
  /** The database file: an old key may sit beside it. */
  dbPath: string;
  env?: Env;
  platform?: NodeJS.Platform;
  userHome?: string;
}

/** Where older versions kept the key. */
export function legacyKeyPath(dbPath: string): string {
  return join(dirname(dbPath), `${basename(dbPath)}.audit-key`);
}

/** The default key file for this OS (see the list above). */
export function defaultKeyPath(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  userHome: string = homedir(),
): string {
  if (platform === 'win32') {
    return join(env.LOCALAPPDATA || join(userHome, 'AppData', 'Local'), 'Gatehouse', 'audit-key');
  }
  if (platform === 'darwin') {
    return join(userHome, 'Library', 'Application Support', 'Gatehouse Audit', 'audit-key');
  }
  return join(env.XDG_STATE_HOME || join(userHome, '.local', 'state'), 'gatehouse', 'audit-key');
}

function assertOutsideHome(file: string, home: string, what: string): void {
  if (isInside(nearestRealPathSync(file), nearestRealPathSync(home))) {
    throw new AuditKeyError(
      `${what} (${file}) is inside the data folder ${home}, where agents can reach it. Keep the audit key outside it.`,
    );
  }
}

export function parseKey(text: string, where: string): Buffer {
  const hex = text.trim();
  if (!KEY_HEX.test(hex)) throw new AuditKeyError(`${where} must hold 64 hex digits (32 bytes).`);
  return Buffer.from(hex, 'hex');
}

/** Reads a key file; null when it does not exist. Refuses a file others may read or write. */
function readKeyFile(file: string, platform: NodeJS.Platform): Buffer | null {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  // Windows has no such mode bits; its ACLs keep a profile folder to its user.
  if (platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new AuditKeyError(
      `the audit key file ${file} has mode ${(mode & 0o777).toString(8)}; it must be 0600 or stricter (chmod 600 "${file}").`,
    );
  }
  return parseKey(readFileSync(file, 'utf8'), `the audit key file ${file}`);
}

/**
 * Creates the key file (0600, fsynced); when another process created it first, theirs is used. The
 * key is written whole under a name of this process's own and then linked into place, so a process
 * that finds the file never reads it half written.
 */
function createKeyFile(file: string, key: Buffer, platform: NodeJS.Platform): Buffer {
  const own = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeKey(own, key);
    try {
      linkSync(own, file);
    } catch (err) {
      // A file system without hard links: made in place, as it was before.
      if (!NO_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
      writeKey(file, key);
    }
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      const theirs = readKeyFile(file, platform);
      if (theirs) return theirs;
    }
    throw err;
  } finally {
    rmSync(own, { force: true });
  }
}

const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** A new file at `path` (never one that exists), 0600, the key in it and on the disk. */
function writeKey(path: string, key: Buffer): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, key.toString('hex') + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The key beside the database, if an older version left one there. */
export function readLegacyKey(dbPath: string): Buffer | null {
  try {
    return parseKey(readFileSync(legacyKeyPath(dbPath), 'utf8'), legacyKeyPath(dbPath));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Reads the key from a file, creating it when missing: with the old key beside the database when
 * there is one (then removed from there), otherwise a new random key.
 */
function fromFile(file: string, ctx: KeyContext, platform: NodeJS.Platform): ResolvedAuditKey {
  const existing = readKeyFile(file, platform);
  if (existing) return { key: existing, location: file, movedFrom: null };
  const old = readLegacyKey(ctx.dbPath);
  const key = createKeyFile(file, old ?? randomBytes(32), platform);
  if (!old || !key.equals(old)) return { key, location: file, movedFrom: null };
  unlinkSync(legacyKeyPath(ctx.dbPath));
  return { key, location: file, movedFrom: legacyKeyPath(ctx.dbPath) };
}

/**
 * The audit key of a headless Gatehouse (sources 2 to 4 above). Removes GATEHOUSE_AUDIT_KEY from
 * `env`. Throws AuditKeyError with a message a person can act on.
 */
export function resolveAuditKey(ctx: KeyContext): ResolvedAuditKey {
  const env = ctx.env ?? process.env;
  const platform = ctx.platform ?? process.platform;
  const fromEnv = env[KEY_ENV];
  delete env[KEY_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    return { key: parseKey(fromEnv, KEY_ENV), location: KEY_ENV, movedFrom: null };
  }
  const explicit = env[KEY_FILE_ENV]?.trim();
  if (explicit) {
    assertOutsideHome(explicit, ctx.home, KEY_FILE_ENV);
    return fromFile(resolve(explicit), ctx, platform);
  }
  const file = defaultKeyPath(env, platform, ctx.userHome ?? homedir());
  assertOutsideHome(file, ctx.home, `the default audit key file`);
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (platform !== 'win32') chmodSync(dir, 0o700);
  return fromFile(file, ctx, platform);
}

/**
 * The key for checking the chain without changing anything (npm run audit:verify): the same
 * sources in the same order, but nothing is created or moved. Null when no key is found.
 */
export function findAuditKey(ctx: KeyContext): ResolvedAuditKey | null {
  const env = ctx.env ?? process.env;
  const platform = ctx.platform ?? process.platform;
  const fromEnv = env[KEY_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    return { key: parseKey(fromEnv, KEY_ENV), location: KEY_ENV, movedFrom: null };
  }
  const explicit = env[KEY_FILE_ENV]?.trim();
  const file = explicit
    ? resolve(explicit)
    : defaultKeyPath(env, platform, ctx.userHome ?? homedir());
  assertOutsideHome(file, ctx.home, explicit ? KEY_FILE_ENV : 'the default audit key file');
  const key = readKeyFile(file, platform);
  return key ? { key, location: file, movedFrom: null } : null;
}
