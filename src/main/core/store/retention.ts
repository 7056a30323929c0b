// Retention: drop the oldest part of the chain and everything it covers, leaving a signed checkpoint
// (seq and hash of the last pruned entry) from which the rest still verifies.
//
// Only a prefix of the chain can go. The prefix is cut short before any request whose votes or decision
// lie beyond it (and before an undecided request that has not expired yet), so a request is always
// pruned together with all of its rows. Grants still in force are re-recorded at the head of the chain
// instead of being dropped: a grant never disappears because it is old.
import { readAnchor, writeAnchor, type ChainWriter, type CheckpointInfo } from './audit-log';
import type { Db } from './database';
import { rowContent } from './projections';

export interface RetentionPolicy {
  /** Keep this many days of history (by commit time). */
  days?: number;
  /** Keep this many requests (each with its votes and decision) and everything recorded since the oldest. */
  rows?: number;
}

export interface PruneResult {
  entries: number;
  requests: number;
  checkpoint: CheckpointInfo | null;
}

const DAY_MS = 86_400_000;
/**
 * Entries pruned per transaction. The thread that prunes also answers agents and windows between
 * two transactions: 20,000 entries held it about a second on a million-row store, 1,000 about 60 ms.
 */
export const PRUNE_CHUNK = 1_000;

interface Entry {
  seq: number;
  kind: string;
  ref: string;
  hash: string;
}

/** The highest seq the policy allows to prune (before cutting around requests), or 0. */
export function pruneTarget(db: Db, policy: RetentionPolicy, now: number): number {
  let target = 0;
  if (policy.days !== undefined && policy.days >= 0) {
    // `at` is the commit clock, so entries are (nearly) in `at` order: walk from the oldest.
    const firstKept = db
      .prepare('SELECT seq FROM audit_log WHERE at >= ? ORDER BY seq LIMIT 1')
      .pluck()
      .get(now - policy.days * DAY_MS) as number | undefined;
    const last = db.prepare('SELECT max(seq) FROM audit_log').pluck().get() as number | null;
    target = Math.max(target, firstKept !== undefined ? firstKept - 1 : (last ?? 0));
  }
  if (policy.rows !== undefined && policy.rows >= 0) {
    // The oldest request to keep; everything before it may go. Counted from the oldest end, so that
    // pruning a few of a million requests walks a few rows, not the million kept.
    const requests = db.prepare('SELECT count(*) FROM requests').pluck().get() as number;
    const oldestKept =
      policy.rows === 0
        ? null
        : requests <= policy.rows
          ? 0
          : (db
              .prepare('SELECT seq FROM requests ORDER BY seq LIMIT 1 OFFSET ?')
              .pluck()
              .get(requests - policy.rows) as number);
    const last = (db.prepare('SELECT max(seq) FROM audit_log').pluck().get() as number | null) ?? 0;
    target = Math.max(target, oldestKept === null ? last : Math.max(0, oldestKept - 1));
  }
  return target;
}

export class Pruner {
  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    private readonly chain: ChainWriter,
  ) {}

  /** Prunes at most `max` entries up to `target` in one transaction. Returns null when nothing could go. */
  chunk(
    target: number,
    now: number,
    max = PRUNE_CHUNK,
  ): { entries: number; requests: number } | null {
    return this.db
      .transaction(() => {
        const checkpoint = readAnchor(this.db, 'checkpoint');
        const first = this.db.prepare('SELECT min(seq) FROM audit_log').pluck().get() as
          number | null;
        if (first === null) return null;
        let end = Math.min(target, first + max - 1);
        if (end < first) return null;
        const entries = this.db
          .prepare(
            'SELECT seq, kind, ref, hash FROM audit_log WHERE seq BETWEEN ? AND ? ORDER BY seq',
          )
          .all(first, end) as Entry[];
        end = this.cutBeforeOpenWork(entries, end, now);
        if (end < first) return null;
        const pruned = entries.filter((e) => e.seq <= end);
        const last = pruned[pruned.length - 1];
        if (!last) return null;

        this.chain.begin(now);
        const del = {
          // The full-text row first, while its hid can still be looked up.
          text: this.db.prepare(
            'DELETE FROM history_fts WHERE rowid = (SELECT hid FROM decisions WHERE request_id = ?)',
          ),
          decision: this.db.prepare('DELETE FROM decisions WHERE request_id = ?'),
          vote: this.db.prepare('DELETE FROM votes WHERE seq = ?'),
          event: this.db.prepare('DELETE FROM events WHERE seq = ?'),
          request: this.db.prepare('DELETE FROM requests WHERE request_id = ?'),
          grant: this.db.prepare('DELETE FROM grants WHERE grant_id = ?'),
          blobsOf: this.db.prepare('SELECT hash FROM request_blobs WHERE request_id = ?').pluck(),
          blobInUse: this.db.prepare('SELECT 1 FROM request_blobs WHERE hash = ? LIMIT 1').pluck(),
          blob: this.db.prepare('DELETE FROM blobs WHERE hash = ?'),
        };
        // Children before parents (foreign keys): decisions and votes, then requests.
        for (const e of pruned) {
          if (e.kind === 'decision') {
            del.text.run(e.ref);
            del.decision.run(e.ref);
          } else if (e.kind === 'vote') del.vote.run(e.seq);
          else if (e.kind === 'event') del.event.run(e.seq);
        }
        const blobHashes = new Set<string>();
        let requests = 0;
        for (const e of pruned) {
          if (e.kind !== 'request') continue;
          for (const hash of del.blobsOf.all(e.ref) as string[]) blobHashes.add(hash);
          del.request.run(e.ref);
          requests++;
        }
        for (const hash of blobHashes) if (!del.blobInUse.get(hash)) del.blob.run(hash);
        for (const e of pruned)
          if (e.kind === 'grant') this.dropOrCarryGrant(e.ref, now, del.grant);

        this.db.prepare('DELETE FROM audit_log WHERE seq BETWEEN ? AND ?').run(first, end);
        writeAnchor(this.db, this.key, 'checkpoint', {
          seq: last.seq,
          hash: last.hash,
          at: now,
          prunedRows: (checkpoint?.prunedRows ?? 0) + pruned.length,
        });
        this.chain.finish();
        return { entries: pruned.length, requests };
      })
      .immediate();
  }

  /**
   * The largest cut at or before `end` that splits no request or grant: every entry up to the cut
   * has its later rows (votes, decision, revocation) up to the cut too, and no undecided request
   * that has not expired lies before it. Cutting before one entry can strand the rows of an earlier
   * one (a request whose decision lies past the new cut), so the cut is the last entry at which
   * everything before it is complete, not the entry before the first incomplete one.
   */
  private cutBeforeOpenWork(entries: Entry[], end: number, now: number): number {
    const decisionSeq = this.db.prepare('SELECT seq FROM decisions WHERE request_id = ?').pluck();
    const lastVoteSeq = this.db.prepare('SELECT max(seq) FROM votes WHERE request_id = ?').pluck();
    const expiresAt = this.db
      .prepare('SELECT expires_at FROM requests WHERE request_id = ?')
      .pluck();
    const revokedSeq = this.db.prepare('SELECT revoked_seq FROM grants WHERE grant_id = ?').pluck();
    let reach = 0;
    let cut = (entries[0]?.seq ?? 1) - 1;
    for (const e of entries) {
      if (e.seq > end) break;
      if (e.kind === 'request') {
        const decided = decisionSeq.get(e.ref) as number | undefined;
        const vote = lastVoteSeq.get(e.ref) as number | null;
        if (decided === undefined && (expiresAt.get(e.ref) as number) > now) return cut;
        reach = Math.max(reach, decided ?? 0, vote ?? 0);
      } else if (e.kind === 'grant') {
        const revoked = revokedSeq.get(e.ref) as number | null | undefined;
        reach = Math.max(reach, revoked ?? 0);
      }
      if (reach <= e.seq) cut = e.seq;
    }
    return cut;
  }

  /** A grant whose entry is pruned: gone if revoked or expired, otherwise re-recorded at the head. */
  private dropOrCarryGrant(
    grantId: string,
    now: number,
    drop: { run: (id: string) => unknown },
  ): void {
    const row = this.db.prepare('SELECT * FROM grants WHERE grant_id = ?').get(grantId) as
      | (Record<string, unknown> & { revoked_seq: number | null; expires_at: number | null })
      | undefined;
    if (!row) return;
    const expired = row.expires_at !== null && row.expires_at <= now;
    if (row.revoked_seq !== null || expired) {
      drop.run(grantId);
      return;
    }
    const content = rowContent('grant', row);
    const seq = this.chain.append('grant', grantId, content);
    this.db.prepare('UPDATE grants SET seq = ? WHERE grant_id = ?').run(seq, grantId);
  }
}
