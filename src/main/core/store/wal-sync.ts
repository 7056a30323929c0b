// The fsync of a group commit, off the writer's thread. With durability 'full' the writer commits a
// batch without SQLite's own fsync and asks for one here; the batch's callers hear of it only once
// the WAL is on the disk, as before. The fsync runs in libuv's pool, so the writer meanwhile writes
// the batch's full-text rows and takes the next records, and the fsync's own kernel work is done on
// another CPU: with 100 decisions in flight on two cores, 19.9–22.2k durable decisions/s against
// 17.7–19.8k with SQLite's fsync in the commit (alternated). Commits made during one fsync share the
// next.
import { closeSync, fdatasync, openSync } from 'node:fs';
import type { Db } from './database';
import type { ErrorReporter } from './write-ops';

export type Synced = (error: Error | null) => void;

export class WalSync {
  private fd: number | null = null;
  private running = false;
  private waiting: Synced[] = [];
  private failed: Error | null = null;
  /** Whether anything was committed unsynced since the last fsync began. */
  private written = false;
  /** fsyncs asked of the kernel. */
  syncs = 0;

  constructor(
    private readonly db: Db,
    private readonly walPath: string,
    private readonly report: ErrorReporter,
    private readonly datasync: typeof fdatasync = fdatasync,
  ) {}

  /**
   * Runs `write` (transactions) without SQLite's fsync at their commits; every other write on the
   * connection keeps its own. What `write` committed is durable once an `after` asked later is told.
   */
  unsynced<T>(write: () => T): T {
    // Not prepared once: SQLite applies this pragma when it compiles it, not when it runs.
    this.db.pragma('synchronous = NORMAL');
    this.written = true;
    try {
      return write();
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }

  /**
   * A failed fsync fails its commits' callers and every later one's: the kernel may have dropped
   * the pages it could not write, so a later fsync's success would not mean they are on the disk.
   */
  get failure(): Error | null {
    return this.failed;
  }

  /** `done` once everything committed before this call is on the disk, in the order asked. */
  after(done: Synced): void {
    if (this.failed) return done(this.failed);
    // Nothing new since the last fsync, which has returned: a flush with nothing to write asks none.
    if (!this.running && !this.written) return done(null);
    this.waiting.push(done);
    if (!this.running) this.start();
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private start(): void {
    const batch = this.waiting;
    this.waiting = [];
    try {
      // Opened at the first commit, when SQLite has made the WAL; it keeps the file while open.
      this.fd ??= openSync(this.walPath, 'r+');
    } catch (err) {
      return this.fail(batch, err as Error);
    }
    this.running = true;
    this.written = false;
    this.syncs++;
    this.datasync(this.fd, (err) => {
      this.running = false;
      if (err) return this.fail(batch, err);
      for (const done of batch) done(null);
      if (this.waiting.length > 0) this.start();
    });
  }

  private fail(batch: Synced[], cause: Error): void {
    const message = `the history's log could not be written to the disk: ${cause.message}`;
    const failed = new Error(message, { cause });
    this.failed = failed;
    this.report(failed, 'history store (every later write is refused until a restart)');
    const owed = [...batch, ...this.waiting];
    this.waiting = [];
    for (const done of owed) done(failed);
  }
}
