// Group commit. Records are queued; once per macrotask turn (setImmediate) everything queued is written
// in ONE transaction, then the promises of the decisions in it resolve. A decision's promise therefore
// resolves only after the commit that holds it (and everything queued before it), and concurrent
// decisions share one commit (one fsync with durability 'full').
import Database, { type Statement } from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { ChainWriter } from './audit-log';
import { encodeBlob } from './blobs';
import { wellFormed } from './canonical';
import type { Db } from './database';
import { RecordRejectedError, StoreClosedError, StoreWriteError } from './errors';
import { CONTENT_COLUMNS, hidMs, insertSql, insertValues } from './projections';
import type {
  DecisionRow,
  EventRow,
  GrantRevokeRow,
  GrantRow,
  PreparedDecision,
  PreparedRequest,
  VoteRow,
} from './records';

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

export type Op =
  | { kind: 'request'; prepared: PreparedRequest }
  | { kind: 'vote'; row: VoteRow }
  | { kind: 'event'; row: EventRow }
  | { kind: 'decision'; prepared: PreparedDecision; waiter: Waiter<void> }
  | { kind: 'grant'; row: GrantRow; waiter: Waiter<string> }
  | { kind: 'revoke'; row: GrantRevokeRow; waiter: Waiter<boolean> }
  | { kind: 'barrier'; waiter: Waiter<void> };

export interface WriterStats {
  /** Transactions committed by the writer. */
  commits: number;
  /** Transactions that failed (every record in them was rejected). */
  failedCommits: number;
  /** Audit entries committed. */
  records: number;
  /** Records refused one by one (unknown request, duplicate id...). */
  rejected: number;
  /** Largest number of queued operations written in one transaction. */
  maxBatch: number;
  /** Operations waiting for the next commit. */
  queued: number;
}

export type ErrorReporter = (error: Error, context: string) => void;

type Outcome = { ok: true; value: unknown } | { ok: false; error: Error };

/** What a decision needs from its request. */
interface RequestFacts {
  seq: number;
  agent_id: string;
  session_id: string;
  tool_kind: string;
  has_warnings: number;
  options: { optionId: string; name: string; kind: string }[];
  title: string;
  command_text: string | null;
  paths: string;
}

/** Full-text rows per INSERT statement, largest first. */
const TEXT_CHUNKS = [64, 16, 4, 1] as const;
const TEXT_COLUMNS = 4;

/** Requests recorded by this process and not decided yet; saves a lookup per decision. Bounded. */
const FACTS_CACHE_LIMIT = 50_000;

/** A constraint failure of the first write of a record rolls back only that statement: refuse the record. */
function firstWrite<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof Database.SqliteError && err.code.startsWith('SQLITE_CONSTRAINT')) {
      throw new RecordRejectedError(`${what}: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

function describe(op: Op): string {
  switch (op.kind) {
    case 'request':
      return `request ${op.prepared.row.request_id}`;
    case 'vote':
      return `vote on request ${op.row.request_id}`;
    case 'event':
      return `event ${op.row.type}`;
    case 'decision':
      return `decision on request ${op.prepared.row.request_id}`;
    case 'grant':
      return `grant ${op.row.grant_id}`;
    case 'revoke':
      return `revocation of grant ${op.row.grant_id}`;
    case 'barrier':
      return 'flush';
  }
}

export class Writer {
  private queue: Op[] = [];
  private scheduled = false;
  private closed = false;
  private readonly chain: ChainWriter;
  private readonly batch: (ops: Op[], outcomes: Outcome[]) => void;
  private readonly stmts;
  /** Directory rows already written (agent id -> name, agent+session), to skip redundant upserts. */
  private readonly knownAgents = new Map<string, string>();
  private readonly knownSessions = new Set<string>();
  private readonly facts = new Map<string, RequestFacts>();
  /** rowid, title, command, paths of the full-text rows of this batch's decisions, flat. */
  private texts: (number | bigint | string)[] = [];
  private readonly textInserts = new Map<number, Statement>();
  readonly stats: WriterStats = {
    commits: 0,
    failedCommits: 0,
    records: 0,
    rejected: 0,
    maxBatch: 0,
    queued: 0,
  };

  constructor(
    private readonly db: Db,
    key: Buffer,
    private readonly now: () => number,
    private readonly report: ErrorReporter,
  ) {
    this.chain = new ChainWriter(db, key);
    const c = CONTENT_COLUMNS;
    this.stmts = {
      insertRequest: db.prepare(insertSql('requests', ['seq', ...c.request])),
      blobExists: db.prepare('SELECT 1 FROM blobs WHERE hash = ?').pluck(),
      insertBlob: db.prepare(
        'INSERT OR IGNORE INTO blobs (hash, codec, size, data) VALUES (?, ?, ?, ?)',
      ),
      linkBlob: db.prepare('INSERT OR IGNORE INTO request_blobs (request_id, hash) VALUES (?, ?)'),
      upsertAgent: db.prepare(
        'INSERT INTO agents (agent_id, name, first_seen) VALUES (?, ?, ?) ON CONFLICT (agent_id) DO UPDATE SET name = excluded.name',
      ),
      insertSession: db.prepare(
        'INSERT OR IGNORE INTO sessions (agent_id, session_id, cwd, opened_at) VALUES (?, ?, ?, ?)',
      ),
      closeSession: db.prepare(
        'UPDATE sessions SET closed_at = ? WHERE agent_id = ? AND session_id = ?',
      ),
      insertVote: db.prepare(insertSql('votes', ['seq', ...c.vote])),
      insertEvent: db.prepare(insertSql('events', ['seq', ...c.event])),
      requestFacts: db.prepare(
        `SELECT seq, agent_id, session_id, tool_kind, has_warnings, options_json, title, command_text, paths_json
         FROM requests WHERE request_id = ?`,
      ),
      isDecided: db.prepare('SELECT 1 FROM decisions WHERE request_id = ?').pluck(),
      // The history key: this millisecond's next free slot (see the decisions table in migrations.ts).
      // hid exceeds 2^53, so it comes back as a BigInt (lastInsertRowid) and goes on to the FTS row.
      insertDecision: db
        .prepare(
          `INSERT INTO decisions (hid, request_seq, seq, ${c.decision.join(', ')}) VALUES (
             (SELECT coalesce(max(hid) + 1, ? << 21) FROM decisions WHERE hid >= (? << 21) AND hid < ((? + 1) << 21)),
             ?, ${['seq', ...c.decision].map(() => '?').join(', ')})`,
        )
        .safeIntegers(true),
      // Absent at schema version 1 (migration tests write such databases with this writer; step 2 backfills).
      hasText:
        db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'history_fts'").get() !== undefined,
      insertGrant: db.prepare(insertSql('grants', ['seq', ...c.grant])),
      revokeGrant: db.prepare(
        'UPDATE grants SET revoked_at = ?, revoke_reason = ?, revoked_seq = ? WHERE grant_id = ? AND revoked_at IS NULL',
      ),
    };
    this.batch = db.transaction((ops: Op[], outcomes: Outcome[]) => {
      this.chain.begin(this.now());
      this.texts = [];
      for (const op of ops) {
        try {
          outcomes.push({ ok: true, value: this.apply(op) });
        } catch (err) {
          if (!(err instanceof RecordRejectedError)) throw err;
          outcomes.push({ ok: false, error: err });
        }
      }
      this.insertTexts();
      this.chain.finish();
    }).immediate;
  }

  enqueue(op: Op): void {
    if (this.closed) throw new StoreClosedError();
    this.push(op);
  }

  private push(op: Op): void {
    this.queue.push(op);
    this.stats.queued = this.queue.length;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.commitTurn());
  }

  /** Resolves when everything queued so far has been processed; rejects if that last batch failed. */
  flush(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) =>
      this.push({ kind: 'barrier', waiter: { resolve, reject } }),
    );
  }

  /** Refuse new records; whatever is queued is still committed by flush(). */
  stop(): void {
    this.closed = true;
  }

  /** Writes everything queued now in one transaction, then settles the records' promises. */
  private commitTurn(): void {
    this.scheduled = false;
    const ops = this.queue;
    this.queue = [];
    this.stats.queued = 0;
    if (ops.length === 0) return;
    const outcomes: Outcome[] = [];
    try {
      this.batch(ops, outcomes);
      this.stats.commits++;
      this.stats.maxBatch = Math.max(this.stats.maxBatch, ops.length);
    } catch (err) {
      // Nothing of the batch was written; the caches may name rows that were rolled back.
      this.knownAgents.clear();
      this.knownSessions.clear();
      this.facts.clear();
      this.stats.failedCommits++;
      const cause = err as Error;
      const error = new StoreWriteError(
        `History commit failed, ${ops.length} records not written: ${cause.message}`,
        { cause },
      );
      outcomes.length = 0;
      for (let i = 0; i < ops.length; i++) outcomes.push({ ok: false, error });
    }
    ops.forEach((op, i) => this.settle(op, outcomes[i]!));
  }

  private settle(op: Op, outcome: Outcome): void {
    if (outcome.ok) {
      if (op.kind !== 'barrier' && !(op.kind === 'revoke' && outcome.value === false))
        this.stats.records++;
    } else if (outcome.error instanceof RecordRejectedError) {
      this.stats.rejected++;
    }
    if ('waiter' in op) {
      if (outcome.ok) (op.waiter.resolve as (v: unknown) => void)(outcome.value);
      else op.waiter.reject(outcome.error);
    } else if (!outcome.ok) {
      // Fire-and-forget records have nobody waiting; a later decision on the same request will fail.
      this.report(outcome.error, describe(op));
    }
  }

  private apply(op: Op): unknown {
    switch (op.kind) {
      case 'request':
        return this.applyRequest(op.prepared);
      case 'vote':
        firstWrite(describe(op), () =>
          this.stmts.insertVote.run(insertValues('vote', this.chain.nextSeq, op.row)),
        );
        this.chain.append('vote', op.row.request_id, op.row);
        return undefined;
      case 'event':
        return this.applyEvent(op.row);
      case 'decision':
        return this.applyDecision(op.prepared);
      case 'grant':
        firstWrite(describe(op), () =>
          this.stmts.insertGrant.run(insertValues('grant', this.chain.nextSeq, op.row)),
        );
        this.chain.append('grant', op.row.grant_id, op.row);
        return op.row.grant_id;
      case 'revoke': {
        const { grant_id, revoked_at, revoke_reason } = op.row;
        const { changes } = this.stmts.revokeGrant.run(
          revoked_at,
          revoke_reason,
          this.chain.nextSeq,
          grant_id,
        );
        if (changes === 0) return false;
        this.chain.append('grant_revoke', grant_id, op.row);
        return true;
      }
      case 'barrier':
        return undefined;
    }
  }

  private applyRequest({ row, blobs, options, paths }: PreparedRequest): void {
    const seq = this.chain.nextSeq;
    firstWrite(`request ${row.request_id}`, () =>
      this.stmts.insertRequest.run(insertValues('request', seq, row)),
    );
    for (const [hash, text] of blobs) {
      // Compress only what is not stored yet: the same diff seen twice costs one lookup.
      if (!this.stmts.blobExists.get(hash)) {
        const blob = encodeBlob(text);
        this.stmts.insertBlob.run(hash, blob.codec, blob.size, blob.data);
      }
      this.stmts.linkBlob.run(row.request_id, hash);
    }
    if (this.knownAgents.get(row.agent_id) !== row.agent_name) {
      this.stmts.upsertAgent.run(row.agent_id, row.agent_name, row.issued_at);
      this.knownAgents.set(row.agent_id, row.agent_name);
    }
    const sessionKey = `${row.agent_id}\u0000${row.session_id}`;
    if (!this.knownSessions.has(sessionKey)) {
      // Only saves an INSERT OR IGNORE; forgetting is harmless, growing forever is not.
      if (this.knownSessions.size >= FACTS_CACHE_LIMIT) this.knownSessions.clear();
      this.stmts.insertSession.run(row.agent_id, row.session_id, row.cwd, row.issued_at);
      this.knownSessions.add(sessionKey);
    }
    this.chain.append('request', row.request_id, row);
    if (this.facts.size >= FACTS_CACHE_LIMIT) {
      const oldest = this.facts.keys().next();
      if (!oldest.done) this.facts.delete(oldest.value);
    }
    this.facts.set(row.request_id, {
      seq,
      agent_id: row.agent_id,
      session_id: row.session_id,
      tool_kind: row.tool_kind,
      has_warnings: row.has_warnings,
      options,
      title: row.title,
      command_text: row.command_text,
      paths: paths.join(' '),
    });
  }

  private applyEvent(row: EventRow): void {
    firstWrite(`event ${row.type}`, () =>
      this.stmts.insertEvent.run(insertValues('event', this.chain.nextSeq, row)),
    );
    if (row.agent_id !== null && row.session_id !== null) {
      if (row.type === 'session_opened') {
        const payload = JSON.parse(row.payload_json) as { cwd?: unknown } | null;
        const cwd = typeof payload?.cwd === 'string' ? payload.cwd : '';
        this.stmts.insertSession.run(row.agent_id, row.session_id, cwd, row.at);
        this.knownSessions.add(`${row.agent_id}\u0000${row.session_id}`);
      } else if (row.type === 'session_closed' || row.type === 'agent_exited') {
        this.stmts.closeSession.run(row.at, row.agent_id, row.session_id);
      }
    }
    this.chain.append('event', row.request_id ?? '', row);
  }

  /**
   * The batch's full-text rows in a few multi-row statements: FTS5 pays a fixed cost per statement
   * (measured at 100 rows a commit: ~10 µs a row this way, ~16 µs with one statement per row). An
   * error here fails the whole batch, as any error after a decision's first write does.
   */
  private insertTexts(): void {
    const rows = this.texts;
    this.texts = [];
    let offset = 0;
    while (offset < rows.length) {
      const left = (rows.length - offset) / TEXT_COLUMNS;
      const size = TEXT_CHUNKS.find((n) => n <= left)!;
      let stmt = this.textInserts.get(size);
      if (!stmt) {
        const values = Array.from({ length: size }, () => '(?, ?, ?, ?)').join(', ');
        stmt = this.db.prepare(
          `INSERT INTO history_fts (rowid, title, command, paths) VALUES ${values}`,
        );
        this.textInserts.set(size, stmt);
      }
      stmt.run(rows.slice(offset, offset + size * TEXT_COLUMNS));
      offset += size * TEXT_COLUMNS;
    }
  }

  /** The cache holds only undecided requests; anything else is read from the database. */
  private lookupFacts(requestId: string): RequestFacts | 'unknown' | 'decided' {
    const cached = this.facts.get(requestId);
    if (cached) return cached;
    const row = this.stmts.requestFacts.get(requestId) as
      | (Omit<RequestFacts, 'options' | 'paths'> & { options_json: string; paths_json: string })
      | undefined;
    if (!row) return 'unknown';
    if (this.stmts.isDecided.get(requestId)) return 'decided';
    const { options_json, paths_json, ...rest } = row;
    return {
      ...rest,
      options: JSON.parse(options_json) as RequestFacts['options'],
      paths: (JSON.parse(paths_json) as string[]).join(' '),
    };
  }

  /**
   * The decision row is the first write, so a constraint that refuses it (unknown or pruned request,
   * already decided) leaves nothing behind; an error after that fails the whole batch instead (nothing
   * half-written). Its votes take the seqs just before it: the chain lists votes, then the decision.
   */
  private applyDecision({ row: input, votes }: PreparedDecision): void {
    const what = `decision on request ${input.request_id}`;
    const facts = this.lookupFacts(input.request_id);
    if (facts === 'unknown') throw new RecordRejectedError(`${what}: no such request was recorded`);
    if (facts === 'decided')
      throw new RecordRejectedError(`${what}: the request is already decided`);
    if (facts.agent_id !== input.agent_id || facts.session_id !== input.session_id) {
      throw new RecordRejectedError(`${what}: agent or session differs from the request's`);
    }
    let optionName: string | null = null;
    if (input.option_id !== null) {
      const option = facts.options.find((o) => o.optionId === input.option_id);
      if (!option)
        throw new RecordRejectedError(`${what}: option ${input.option_id} was not offered`);
      if (option.kind !== input.option_kind) {
        throw new RecordRejectedError(
          `${what}: option ${input.option_id} is ${option.kind}, not ${input.option_kind}`,
        );
      }
      optionName = wellFormed(option.name);
    }
    const row: DecisionRow = {
      ...input,
      tool_kind: facts.tool_kind,
      has_warnings: facts.has_warnings,
      option_name: optionName,
    };
    const ms = hidMs(row.decided_at);
    const decisionSeq = this.chain.nextSeq + votes.length;
    const { lastInsertRowid: hid } = firstWrite(what, () =>
      this.stmts.insertDecision.run(
        ms,
        ms,
        ms,
        facts.seq,
        ...insertValues('decision', decisionSeq, row),
      ),
    );
    if (this.stmts.hasText)
      this.texts.push(hid, facts.title, facts.command_text ?? '', facts.paths);
    for (const vote of votes) {
      this.stmts.insertVote.run(insertValues('vote', this.chain.nextSeq, vote));
      this.chain.append('vote', vote.request_id, vote);
    }
    this.chain.append('decision', row.request_id, row);
    this.facts.delete(row.request_id);
  }
}

export function newId(): string {
  return uuidv7();
}
