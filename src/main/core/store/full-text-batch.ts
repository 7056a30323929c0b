// The full-text rows (history_fts) of a batch's decisions, inserted together at the end of the
// batch's transaction.
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

/** Full-text rows per INSERT statement, largest first. */
const TEXT_CHUNKS = [64, 16, 4, 1] as const;
const TEXT_COLUMNS = 4;

export class FullTextBatch {
  /** rowid, title, command, paths of each row, flat. */
  private rows: (number | bigint | string)[] = [];
  private readonly inserts = new Map<number, Statement>();
  /** Absent at schema version 1 (migration tests write such databases with this writer; step 2 backfills). */
  private readonly enabled: boolean;

  constructor(private readonly db: Db) {
    this.enabled =
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'history_fts'").get() !== undefined;
  }

  /** A new batch starts: rows of a batch that failed are not carried over. */
  reset(): void {
    this.rows = [];
  }

  /** `hid` is the decision's rowid, a BigInt (it exceeds 2^53). */
  add(hid: number | bigint, title: string, command: string, paths: string): void {
    if (this.enabled) this.rows.push(hid, title, command, paths);
  }

  /**
   * The batch's rows in a few multi-row statements: FTS5 pays a fixed cost per statement
   * (measured at 100 rows a commit: ~10 µs a row this way, ~16 µs with one statement per row). An
   * error here fails the whole batch, as any error after a decision's first write does.
   */
  insert(): void {
    const rows = this.rows;
    this.rows = [];
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
}
