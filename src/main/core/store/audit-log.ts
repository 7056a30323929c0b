// The tamper-evident chain: append (inside the writer's transaction) and verify.
import { createHash, hash, timingSafeEqual } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { blobRefs, decodeBlob, textHash } from './blobs';
import { canonicalJson } from './canonical';
import type { Db } from './database';
import {
  COUNT_SQL,
  LOOKUP_SQL,
  TABLE_OF,
  canonicalEntry,
  hidMs,
  rowContent,
  type AuditKind,
} from './projections';
import { sign } from './signing';

export const GENESIS_HASH = '0'.repeat(64);
export const AUDIT_KINDS: readonly AuditKind[] = [
  'request',
  'vote',
  'decision',
  'event',
  'grant',
  'grant_revoke',
];

export interface AuditEntry {
  seq: number;
  kind: AuditKind;
  /** Request id for requests, votes, decisions and request events; grant id for grant changes; else ''. */
  ref: string;
  /** Store clock at commit. */
  at: number;
  row: object;
}

/** The definition: sha256(prev_hash "\n" canonical JSON of { seq, kind, ref, at, row }). */
export function entryHashReference(prevHash: string, entry: AuditEntry): string {
  return createHash('sha256')
    .update(prevHash)
    .update('\n')
    .update(canonicalJson({ ...entry, row: rowContent(entry.kind, entry.row) }))
    .digest('hex');
}

/** Same value as entryHashReference, faster (see canonicalEntry; one-shot hash, no Hash object). */
export function entryHash(prevHash: string, entry: AuditEntry): string {
  return hash(
    'sha256',
    prevHash + '\n' + canonicalEntry(entry.seq, entry.kind, entry.ref, entry.at, entry.row),
    'hex',
  );
}

export interface Anchor {
  seq: number;
  hash: string;
  at: number;
  prunedRows: number;
  mac: string;
}

export function anchorPayload(name: 'head' | 'checkpoint', a: Omit<Anchor, 'mac'>): object {
  return name === 'head'
    ? { name, seq: a.seq, hash: a.hash }
    : { name, seq: a.seq, hash: a.hash, at: a.at, prunedRows: a.prunedRows };
}

export function readAnchor(db: Db, name: 'head' | 'checkpoint'): Anchor | null {
  const row = db
    .prepare(
      'SELECT seq, hash, at, pruned_rows AS prunedRows, mac FROM chain_anchor WHERE name = ?',
    )
    .get(name) as Anchor | undefined;
  return row ?? null;
}

export function writeAnchor(
  db: Db,
  key: Buffer,
  name: 'head' | 'checkpoint',
  a: Omit<Anchor, 'mac'>,
): void {
  db.prepare(
    `INSERT INTO chain_anchor (name, seq, hash, at, pruned_rows, mac) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, at = excluded.at,
       pruned_rows = excluded.pruned_rows, mac = excluded.mac`,
  ).run(name, a.seq, a.hash, a.at, a.prunedRows, sign(key, anchorPayload(name, a)));
}

function macMatches(key: Buffer, name: 'head' | 'checkpoint', a: Anchor): boolean {
  const expected = Buffer.from(sign(key, anchorPayload(name, a)), 'hex');
  const actual = Buffer.from(a.mac, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** audit_log rows per INSERT statement, largest first: a commit inserts its entries in a few statements. */
const INSERT_CHUNKS = [64, 16, 4, 1] as const;
const ENTRY_COLUMNS = 6;

/**
 * Appends entries inside a write transaction; begin() re-reads the head so other writers are
 * respected. Entries are hashed as they are appended and inserted together by finish(), a few
 * multi-row statements per commit instead of one statement per entry: nothing reads audit_log
 * between append() and finish() inside the transaction.
 */
export class ChainWriter {
  private seq = 0;
  private hash = GENESIS_HASH;
  private at = 0;
  /** seq, kind, ref, at, prev_hash, hash of each entry appended since begin(), flat. */
  private rows: (string | number)[] = [];
  private readonly lastEntry: Statement;
  private readonly checkpoint: Statement;
  private readonly inserts = new Map<number, Statement>();
  private readonly upsertHead: Statement;

  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
  ) {
    this.lastEntry = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
    this.checkpoint = db.prepare("SELECT seq, hash FROM chain_anchor WHERE name = 'checkpoint'");
    this.upsertHead = db.prepare(
      `INSERT INTO chain_anchor (name, seq, hash, at, pruned_rows, mac) VALUES ('head', ?, ?, ?, 0, ?)
       ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, at = excluded.at, mac = excluded.mac`,
    );
  }

  begin(at: number): void {
    const last = (this.lastEntry.get() ?? this.checkpoint.get()) as
      { seq: number; hash: string } | undefined;
    this.seq = last?.seq ?? 0;
    this.hash = last?.hash ?? GENESIS_HASH;
    this.at = at;
    this.rows = [];
  }

  get nextSeq(): number {
    return this.seq + 1;
  }

  append(kind: AuditKind, ref: string, row: object): number {
    const seq = this.seq + 1;
    const hash = entryHash(this.hash, { seq, kind, ref, at: this.at, row });
    this.rows.push(seq, kind, ref, this.at, this.hash, hash);
    this.seq = seq;
    this.hash = hash;
    return seq;
  }

  /** Inserts the entries and signs the new head, in the same transaction as the rows they cover. */
  finish(): void {
    const rows = this.rows;
    if (rows.length === 0) return;
    this.rows = [];
    let offset = 0;
    while (offset < rows.length) {
      const left = (rows.length - offset) / ENTRY_COLUMNS;
      const size = INSERT_CHUNKS.find((n) => n <= left)!;
      this.insertStatement(size).run(rows.slice(offset, offset + size * ENTRY_COLUMNS));
      offset += size * ENTRY_COLUMNS;
    }
    const payload = anchorPayload('head', {
      seq: this.seq,
      hash: this.hash,
      at: this.at,
      prunedRows: 0,
    });
    this.upsertHead.run(this.seq, this.hash, this.at, sign(this.key, payload));
  }

  private insertStatement(size: number): Statement {
    let stmt = this.inserts.get(size);
    if (!stmt) {
      const values = Array.from({ length: size }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
      stmt = this.db.prepare(
        `INSERT INTO audit_log (seq, kind, ref, at, prev_hash, hash) VALUES ${values}`,
      );
      this.inserts.set(size, stmt);
    }
    return stmt;
  }
}

export interface CheckpointInfo {
  seq: number;
  hash: string;
  at: number;
  prunedRows: number;
}

export type VerifyResult =
  | { ok: true; rows: number; checkpoint?: CheckpointInfo }
  | { ok: false; firstBrokenSeq: number; requestId?: string; reason: string };

interface EntryRow {
  seq: number;
  kind: string;
  ref: string;
  at: number;
  prev_hash: string;
  hash: string;
}

function broken(seq: number, reason: string, requestId?: string | null): VerifyResult {
  return requestId
    ? { ok: false, firstBrokenSeq: seq, requestId, reason }
    : { ok: false, firstBrokenSeq: seq, reason };
}

const REQUEST_KINDS = new Set<string>(['request', 'vote', 'decision']);

/**
 * Walks the chain from the checkpoint (or genesis) and checks, for every entry: no gap in seq, prev_hash
 * links to the previous entry, its projection row exists, carries the entry's seq, and hashes to the
 * entry's hash. Then: no table has rows without entries, the signed head is the last entry (nothing cut
 * from the end), and every blob a request refers to exists and matches its hash. `key` null means the
 * signatures cannot be checked, which is reported as a failure when there is a signature to check.
 */
export function verifyChain(db: Db, key: Buffer | null): VerifyResult {
  // One read transaction: a snapshot, so a concurrent writer cannot cause a false alarm.
  return db.transaction(() => {
    const steps = verifySteps(db, key);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  })();
}

/** Entries checked between two pauses of verifySteps. */
export const VERIFY_CHUNK = 2000;

/**
 * The check of verifyChain, pausing after every `chunk` entries so that a caller can let other work
 * run; it must run inside one read transaction of its own (a snapshot).
 */
export function* verifySteps(
  db: Db,
  key: Buffer | null,
  chunk = VERIFY_CHUNK,
): Generator<void, VerifyResult, void> {
  const checkpoint = readAnchor(db, 'checkpoint');
  const head = readAnchor(db, 'head');
  if (checkpoint) {
    if (!key)
      return broken(
        checkpoint.seq,
        'The retention checkpoint is signed but the audit key is missing.',
      );
    if (!macMatches(key, 'checkpoint', checkpoint)) {
      return broken(
        checkpoint.seq,
        `The retention checkpoint (entry ${checkpoint.seq}) does not match its signature.`,
      );
    }
  }

  const lookups = new Map<AuditKind, Statement>();
  for (const kind of AUDIT_KINDS) lookups.set(kind, db.prepare(LOOKUP_SQL[kind]));
  const blobExists = db.prepare('SELECT 1 FROM blobs WHERE hash = ?').pluck();
  const counts = new Map<AuditKind, number>(AUDIT_KINDS.map((k) => [k, 0]));

  let prev = checkpoint?.hash ?? GENESIS_HASH;
  let expected = (checkpoint?.seq ?? 0) + 1;
  let rows = 0;
  for (const entry of db
    .prepare('SELECT seq, kind, ref, at, prev_hash, hash FROM audit_log ORDER BY seq')
    .iterate() as IterableIterator<EntryRow>) {
    const requestId = REQUEST_KINDS.has(entry.kind) || entry.kind === 'event' ? entry.ref : null;
    if (entry.seq !== expected) {
      return entry.seq > expected
        ? broken(
            expected,
            `Entry ${expected} is missing: the chain jumps from ${expected - 1} to ${entry.seq}.`,
          )
        : broken(
            entry.seq,
            `Entry ${entry.seq} lies at or before the retention checkpoint (${expected - 1}).`,
            requestId,
          );
    }
    if (entry.prev_hash !== prev) {
      return broken(
        entry.seq,
        `Entry ${entry.seq} does not link to entry ${entry.seq - 1} (prev_hash differs): an entry was edited, removed or reordered.`,
        requestId,
      );
    }
    const kind = entry.kind as AuditKind;
    const lookup = lookups.get(kind);
    if (!lookup)
      return broken(
        entry.seq,
        `Entry ${entry.seq} has an unknown kind "${entry.kind}".`,
        requestId,
      );
    const row = lookup.get({ ref: entry.ref, seq: entry.seq }) as
      (Record<string, unknown> & { seq: number | null }) | undefined;
    const table = TABLE_OF[kind];
    if (!row || row.seq === null) {
      return broken(
        entry.seq,
        `The ${table} row for entry ${entry.seq} (${kind} ${entry.ref}) is missing.`,
        requestId,
      );
    }
    if (row.seq !== entry.seq) {
      return broken(
        entry.seq,
        `The ${table} row for ${kind} ${entry.ref} claims entry ${row.seq}, not ${entry.seq}.`,
        requestId,
      );
    }
    if (kind === 'decision' && row.hid_ms !== hidMs(row.decided_at as number)) {
      return broken(
        entry.seq,
        `The history key of decision ${entry.ref} does not match its decided_at.`,
        requestId,
      );
    }
    if (kind === 'decision' && row.linked_request !== row.request_id) {
      return broken(entry.seq, `Decision ${entry.ref} points at another request's row.`, requestId);
    }
    const hash = entryHash(prev, { seq: entry.seq, kind, ref: entry.ref, at: entry.at, row });
    if (hash !== entry.hash) {
      return broken(
        entry.seq,
        `Entry ${entry.seq} (${kind} ${entry.ref}) does not match its hash: the entry or its ${table} row was changed.`,
        requestId,
      );
    }
    if (kind === 'request') {
      const missing = missingBlob(row, blobExists);
      if (missing)
        return broken(entry.seq, `Blob ${missing} of request ${entry.ref} is missing.`, requestId);
    }
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    prev = entry.hash;
    expected++;
    rows++;
    if (rows % chunk === 0) yield;
  }
  const last = expected - 1;

  for (const kind of AUDIT_KINDS) {
    const inTable = db.prepare(COUNT_SQL[kind]).pluck().get() as number;
    const inChain = counts.get(kind) ?? 0;
    if (inTable !== inChain) {
      return broken(
        last + 1,
        `${TABLE_OF[kind]} holds ${inTable} ${kind} rows but the chain has ${inChain}: rows were added or removed outside the store.`,
      );
    }
  }

  if (head || rows > 0) {
    if (!head) return broken(last, 'The chain has entries but no signed head.');
    if (!key) return broken(head.seq, 'The chain head is signed but the audit key is missing.');
    if (!macMatches(key, 'head', head))
      return broken(head.seq, `The signed head (entry ${head.seq}) does not match its signature.`);
    if (head.seq !== last || (rows > 0 && head.hash !== prev)) {
      return broken(
        Math.min(head.seq, last + 1),
        `The chain ends at entry ${last} but the signed head is entry ${head.seq}: entries were removed from the end.`,
      );
    }
  }

  const badBlob = firstCorruptBlob(db);
  if (badBlob) return badBlob;

  const result: VerifyResult = { ok: true, rows };
  if (checkpoint) {
    result.checkpoint = {
      seq: checkpoint.seq,
      hash: checkpoint.hash,
      at: checkpoint.at,
      prunedRows: checkpoint.prunedRows,
    };
  }
  return result;
}

function missingBlob(row: Record<string, unknown>, blobExists: Statement): string | null {
  const refs = new Set<string>();
  const toolCall = row.tool_call_json as string;
  if (toolCall.includes('"$blob"')) blobRefs(JSON.parse(toolCall), refs);
  for (const diff of JSON.parse(row.diffs_json as string) as {
    oldTextBlob?: unknown;
    newTextBlob?: unknown;
  }[]) {
    if (typeof diff.oldTextBlob === 'string') refs.add(diff.oldTextBlob);
    if (typeof diff.newTextBlob === 'string') refs.add(diff.newTextBlob);
  }
  for (const ref of refs) if (!blobExists.get(ref)) return ref;
  return null;
}

function firstCorruptBlob(db: Db): VerifyResult | null {
  const stmt = db.prepare('SELECT hash, codec, data FROM blobs');
  const referrer = db.prepare(
    'SELECT r.seq, r.request_id FROM request_blobs b JOIN requests r USING (request_id) WHERE b.hash = ? ORDER BY r.seq LIMIT 1',
  );
  for (const blob of stmt.iterate() as IterableIterator<{
    hash: string;
    codec: string;
    data: Buffer;
  }>) {
    let ok: boolean;
    try {
      ok = textHash(decodeBlob(blob.codec, blob.data)) === blob.hash;
    } catch {
      ok = false;
    }
    if (!ok) {
      const by = referrer.get(blob.hash) as { seq: number; request_id: string } | undefined;
      return broken(
        by?.seq ?? 0,
        `Blob ${blob.hash} does not match its hash: its content was changed.`,
        by?.request_id,
      );
    }
  }
  return null;
}
