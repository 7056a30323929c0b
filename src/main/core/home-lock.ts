// One core per home. Exactly one process may write the store and its hash chain, so the process
// that owns $GATEHOUSE_HOME holds an OS-level exclusive lock on it for its whole life: SQLite's
// exclusive locking mode on a small `core.lock` database (fcntl on Unix, LockFileEx on Windows). The
// kernel drops the lock when the process dies, however it dies, so there is no stale pid to guess
// about. Who holds it is written to `core.json` once the lock is held, for the refusal message and
// for people; the lock, not that file, decides.
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CoreInfo, GATEHOUSE_VERSION, type CoreKind } from '../../shared/control-protocol';

export const LOCK_FILE = 'core.lock';
export const CORE_INFO_FILE = 'core.json';

export class HomeLockedError extends Error {
  constructor(
    readonly home: string,
    readonly holder: CoreInfo | null,
  ) {
    super(
      holder
        ? `Gatehouse is already running on ${home}: ${holder.kind}, pid ${holder.pid}`
        : `Gatehouse is already running on ${home} (another process holds ${join(home, LOCK_FILE)})`,
    );
    this.name = 'HomeLockedError';
  }
}

export interface HomeLock {
  readonly home: string;
  /** What core.json says now. */
  readonly info: CoreInfo;
  /** Records where the core can be reached, as each listener starts. */
  update(change: Partial<Pick<CoreInfo, 'socket' | 'url'>>): void;
  /** Removes core.json and lets the lock go. Also runs at process exit; idempotent. */
  release(): void;
}

/** The data folder is the user's only: created 0700, and tightened if it is wider. */
export function ensurePrivateHome(home: string): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(home, 0o700);
}

/** core.json as the holder wrote it, or null (absent, unreadable, or not ours). */
export function readCoreInfo(home: string): CoreInfo | null {
  try {
    const parsed = CoreInfo.safeParse(JSON.parse(readFileSync(join(home, CORE_INFO_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function writeCoreInfo(home: string, info: CoreInfo): void {
  const file = join(home, CORE_INFO_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/**
 * Takes the home for this process, or throws HomeLockedError naming the core that has it. Call it
 * before the store is opened.
 */
export function acquireHomeLock(
  home: string,
  kind: CoreKind,
  now: () => number = Date.now,
): HomeLock {
  ensurePrivateHome(home);
  const path = join(home, LOCK_FILE);
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  const db = new Database(path, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // No journal file beside the lock (OFF is refused in SQLite's defensive mode).
    db.pragma('journal_mode = MEMORY');
    // The first write takes the exclusive lock; in this locking mode SQLite never lets it go.
    db.exec(
      'CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL)',
    );
    db.prepare('INSERT OR REPLACE INTO holder (id, pid) VALUES (1, ?)').run(process.pid);
  } catch (error) {
    db.close();
    if (String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) {
      throw new HomeLockedError(home, readCoreInfo(home));
    }
    throw error;
  }

  let info: CoreInfo = {
    kind,
    pid: process.pid,
    version: GATEHOUSE_VERSION,
    home,
    startedAt: now(),
    socket: null,
    url: null,
  };
  writeCoreInfo(home, info);
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    rmSync(join(home, CORE_INFO_FILE), { force: true });
    db.close();
  };
  // The connection is the lock: this closure keeps it reachable (a collected connection closes).
  process.on('exit', release);
  return {
    home,
    get info() {
      return info;
    },
    update(change) {
      if (!held) return;
      info = { ...info, ...change };
      writeCoreInfo(home, info);
    },
    release,
  };
}
