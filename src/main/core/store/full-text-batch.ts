// The full-text rows (history_fts) of committed decisions, inserted a little after their commit: a
// batch of a few rows in its own transaction, once 64 are waiting or the oldest has waited 100 ms,
// and before any flush resolves. FTS5 pays a fixed cost per transaction that holds an insert (a new
// segment, its structure record, merges): written inside each decision's commit it was a third of
// the writer's time for a request decided alone. The rows are derived from the decision and its
// request, both durable before anyone hears the decision; what a crash loses of them, a window of
// recent decisions without their row, is written again when the store next opens.
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

/** Full-text rows per INSERT statement, largest first. */
const TEXT_CHUNKS = [64, 16, 4, 1] as const;
const TEXT_COLUMNS = 4;
/** Rows waiting that make an insert due at once. */
export const TEXT_ROWS_DUE = 64;
/** How long a decision may wait for its full-text row (text search does not find it until then). */
export const TEXT_DELAY_MS = 100;
/**
 * At open, decisions this close below the newest full-text row are checked for a missing row
 * (history ids are the decision's millisecond shifted by 21 bits; decisions of one batch may be
 * stamped slightly out of order).
 */
const RECOVER_WINDOW = BigInt(10 * 60 * 1000) << 21n;

export class FullTextBatch {
  /** rowid, title, command, paths of each committed decision waiting for its row, flat. */
  private waiting: (number | bigint | string)[] = [];
  /** This batch's rows, until its transaction commits. */
  private batch: (number | bigint | string)[] = [];
  private oldestAt = 0;
  private readonly inserts = new Map<number, Statement>();
  /** Absent at schema version 1 (migration tests write such databases with this writer; step 2 backfills). */
  private readonly enabled: boolean;
  private readonly insertWaiting: () => void;

  constructor(private readonly db: Db) {
    this.enabled =
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'history_fts'").get() !== undefined;
    this.insertWaiting = db.transaction(() => this.insert()).immediate;
    if (this.enabled && !db.readonly) this.recover();
  }

  /** A new batch starts: rows of a batch that failed are not carried over. */
  reset(): void {
    this.batch = [];
  }

  /** `hid` is the decision's rowid, a BigInt (it exceeds 2^53). */
  add(hid: number | bigint, title: string, command: string, paths: string): void {
    if (this.enabled) this.batch.push(hid, title, command, paths);
  }

  /** The batch committed: its rows wait for their insert. */
  committed(now: number): void {
    if (this.batch.length === 0) return;
    if (this.waiting.length === 0) this.oldestAt = now;
    for (const value of this.batch) this.waiting.push(value);
    this.batch = [];
  }

  get pending(): boolean {
    return this.waiting.length > 0;
  }

  due(now: number): boolean {
    return (
      this.waiting.length >= TEXT_ROWS_DUE * TEXT_COLUMNS ||
      (this.waiting.length > 0 && now - this.oldestAt >= TEXT_DELAY_MS)
    );
  }

  /**
   * Inserts every waiting row in one transaction. Throws when it fails; the rows are dropped then
   * (the decisions stand; the next open writes their rows again).
   */
  flush(): void {
    if (this.waiting.length > 0) this.insertWaiting();
  }

  /** The waiting rows in a few multi-row statements (FTS5 also pays a fixed cost per statement). */
  private insert(): void {
    const rows = this.waiting;
    this.waiting = [];
    let offset = 0;
    while (offset < rows.length) {
      const left = (rows.length - offset) / TEXT_COLUMNS;
      const size = TEXT_CHUNKS.find((n) => n <= left)!;
      let stmt = this.inserts.get(size);
      if (!stmt) {
        const values = Array.from({ length: size }, () => '(?, ?, ?, ?)').join(', ');
        stmt = this.db.prepare(
          `INSERT INTO history_fts (rowid, title, command, paths) VALUES ${values}`,
        );
        this.inserts.set(size, stmt);
      }
      stmt.run(rows.slice(offset, offset + size * TEXT_COLUMNS));
      offset += size * TEXT_COLUMNS;
    }
  }

  /** Rows a crash kept from being written: recent decisions without one get it now. */
  private recover(): void {
    const newest = this.db
      .prepare('SELECT rowid FROM history_fts ORDER BY rowid DESC LIMIT 1')
      .safeIntegers(true)
      .pluck()
      .get() as bigint | undefined;
    const from = newest === undefined ? -1n : newest - RECOVER_WINDOW;
    this.db
      .prepare(
        `INSERT INTO history_fts (rowid, title, command, paths)
           SELECT d.hid, r.title, coalesce(r.command_text, ''),
                  (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(r.paths_json))
           FROM decisions d JOIN requests r ON r.seq = d.request_seq
           WHERE d.hid > ? AND NOT EXISTS (SELECT 1 FROM history_fts f WHERE f.rowid = d.hid)`,
      )
      .safeIntegers(true)
      .run(from);
  }
}
