// Opening the SQLite file with the pragmas the store depends on.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/**
 * 'normal' (default): WAL with synchronous=NORMAL. A commit is a write() of the WAL frames without fsync.
 * Once write() returns the frames are in the kernel's page cache, so a process that is killed (SIGKILL,
 * crash, OOM) after a commit keeps it: every decision an agent was told survives, which is the promise
 * (test/integration/store-crash.test.ts). What it does not survive is power loss or a kernel crash; the
 * database then stays consistent but may lose the last commits (the agent, on the same machine, loses its
 * unsynced writes too). 'full' fsyncs the WAL at each group commit for that case, at the cost of one
 * fsync per batch (measured in bench/history.ts).
 */
export type Durability = 'full' | 'normal';

export interface DatabaseOptions {
  durability?: Durability;
  /** How long a write waits for another connection's lock before the batch fails (ms). */
  busyTimeoutMs?: number;
  readonly?: boolean;
  /**
   * Who copies the WAL back into the database file. 'self' (default): SQLite, inside the commit that
   * fills the WAL past 1,000 pages. 'elsewhere': another connection does (walCheckpoints, on the
   * reader's thread), and this one only when the WAL passes WAL_BACKSTOP_PAGES, as a backstop.
   */
  walCheckpoints?: 'self' | 'elsewhere';
}

/** The WAL size (pages) past which a writer whose checkpoints run elsewhere runs one itself. */
export const WAL_BACKSTOP_PAGES = 16_384;

/**
 * The history is for its user only: the folder is created 0700 and the database with its -wal and
 * -shm files is 0600. SQLite gives the -wal and -shm files the mode of the database file, so the
 * database is created 0600 before SQLite opens it; files an older version left 0644 are tightened.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  if (process.platform === 'win32') return;
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

export function openDatabase(path: string, options: DatabaseOptions = {}): Db {
  const memory = path === ':memory:';
  if (!memory && !options.readonly) createPrivately(path);
  const db = new Database(path, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
  });
  try {
    if (!options.readonly) db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.durability === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    // The page cache is process memory that fills as the database grows, up to this size: at 64 MB
    // it was most of the core's RSS growth over 100k requests. 8 MB holds the write path's pages (the
    // B-trees' upper levels and growing edges) and the newest history pages; older pages come from
    // the OS's file cache, one read each.
    db.pragma('cache_size = -8192');
    db.pragma('temp_store = MEMORY');
    // After a checkpoint, truncate the WAL instead of leaving a large file behind.
    if (!options.readonly) db.pragma('journal_size_limit = 67108864');
    // A checkpoint inside a commit was a third of the writer's time at full load (bench/history.ts).
    if (options.walCheckpoints === 'elsewhere')
      db.pragma(`wal_autocheckpoint = ${WAL_BACKSTOP_PAGES}`);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
