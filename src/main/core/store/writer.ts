// Group commit. Records are queued; once per macrotask turn (setImmediate) everything queued is written
// in ONE transaction, then the promises of the decisions in it resolve. A decision's promise therefore
// resolves only after the commit that holds it (and everything queued before it), and concurrent
// decisions share one commit (one fsync with durability 'full', made off this thread: wal-sync.ts).
import type { Statement } from 'better-sqlite3';
import { ChainWriter } from './audit-log';
import { encodeBlob } from './blobs';
import { wellFormed } from './canonical';
import type { Db } from './database';
import { RecordRejectedError, StoreClosedError, StoreWriteError } from './errors';
import { FullTextBatch, TEXT_DELAY_MS } from './full-text-batch';
import { CONTENT_COLUMNS, hidMs, insertSql, insertValues, type AuditKind } from './projections';
import type { DecisionRow, EventRow, PreparedDecision, PreparedRequest } from './records';
import { CACHE_LIMIT, UndecidedRequests } from './undecided-requests';
import type { WalSync } from './wal-sync';
import {
  describe,
  firstWrite,
  type ErrorReporter,
  type Op,
  type Outcome,
  type WriterStats,
} from './write-ops';

export class Writer {
  private queue: Op[] = [];
  private scheduled = false;
  private textTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly chain: ChainWriter;
  private readonly batch: (ops: Op[], outcomes: Outcome[]) => void;
  private readonly stmts;
  /** Directory rows already written (agent id -> name, agent+session), to skip redundant upserts. */
  private readonly knownAgents = new Map<string, string>();
  private readonly knownSessions = new Set<string>();
  private readonly undecided: UndecidedRequests;
  private readonly texts: FullTextBatch;
  readonly stats: Omit<WriterStats, 'syncs'> = {
    commits: 0,
    failedCommits: 0,
    records: 0,
    rejected: 0,
    maxBatch: 0,
    queued: 0,
  };

  constructor(
    db: Db,
    key: Buffer,
    private readonly now: () => number,
    private readonly report: ErrorReporter,
    /** Durability 'full': the fsync that tells a batch's callers its commit is on the disk. */
    private readonly sync: WalSync | null = null,
  ) {
    this.chain = new ChainWriter(db, key);
    this.undecided = new UndecidedRequests(db);
    this.texts = new FullTextBatch(db);
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
      // The history key: this millisecond's next free slot (see the decisions table in migrations.ts).
      // hid exceeds 2^53, so it comes back as a BigInt (lastInsertRowid) and goes on to the FTS row.
      insertDecision: db
        .prepare(
          `INSERT INTO decisions (hid, request_seq, seq, ${c.decision.join(', ')}) VALUES (
             (SELECT coalesce(max(hid) + 1, ? << 21) FROM decisions WHERE hid >= (? << 21) AND hid < ((? + 1) << 21)),
             ?, ${['seq', ...c.decision].map(() => '?').join(', ')})`,
        )
        .safeIntegers(true),
      insertGrant: db.prepare(insertSql('grants', ['seq', ...c.grant])),
      revokeGrant: db.prepare(
        'UPDATE grants SET revoked_at = ?, revoke_reason = ?, revoked_seq = ? WHERE grant_id = ? AND revoked_at IS NULL',
      ),
    };
    this.batch = db.transaction((ops: Op[], outcomes: Outcome[]) => {
      this.chain.begin(this.now());
      this.texts.reset();
      for (const op of ops) {
        try {
          outcomes.push({ ok: true, value: this.apply(op) });
        } catch (err) {
          if (!(err instanceof RecordRejectedError)) throw err;
          outcomes.push({ ok: false, error: err });
        }
      }
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

  /**
   * Resolves when everything queued so far has been processed, full-text rows included; rejects if
   * that last batch failed.
   */
  flush(): Promise<void> {
    if (this.queue.length === 0) {
      this.insertTexts();
      const sync = this.sync;
      if (!sync) return Promise.resolve();
      return new Promise((resolve, reject) =>
        sync.after((error) => (error ? reject(error) : resolve())),
      );
    }
    return new Promise((resolve, reject) =>
      this.push({ kind: 'barrier', waiter: { resolve, reject } }),
    );
  }

  /** Refuse new records; whatever is queued is still committed by flush(). */
  stop(): void {
    this.closed = true;
  }

  /**
   * Writes everything queued now in one transaction, then settles the records' promises (with a
   * sync, once the commit is on the disk).
   */
  private commitTurn(): void {
    this.scheduled = false;
    const ops = this.queue;
    this.queue = [];
    this.stats.queued = 0;
    if (ops.length === 0) return;
    const outcomes: Outcome[] = [];
    const refused = this.sync?.failure;
    try {
      // Nothing more is written once the disk has failed a sync: its callers would hear it failed.
      if (refused) throw refused;
      if (this.sync) this.sync.unsynced(() => this.batch(ops, outcomes));
      else this.batch(ops, outcomes);
      this.stats.commits++;
      this.stats.maxBatch = Math.max(this.stats.maxBatch, ops.length);
      this.texts.committed(this.now());
    } catch (err) {
      const cause = err as Error;
      if (cause !== refused) {
        // Nothing of the batch was written; the caches may name rows that were rolled back.
        this.knownAgents.clear();
        this.knownSessions.clear();
        this.undecided.clear();
      }
      this.stats.failedCommits++;
      const error = new StoreWriteError(
        `History commit failed, ${ops.length} records not written: ${cause.message}`,
        { cause },
      );
      outcomes.length = 0;
      for (let i = 0; i < ops.length; i++) outcomes.push({ ok: false, error });
    }
    const settleAll = () => ops.forEach((op, i) => this.settle(op, outcomes[i]!));
    // Asked before the full-text rows are written, so that the two overlap.
    this.sync?.after((error) => {
      if (error)
        outcomes.fill({ ok: false, error: new StoreWriteError(error.message, { cause: error }) });
      settleAll();
    });
    // A flush resolves with every decision before it findable by text.
    if (this.texts.due(this.now()) || ops.some((op) => op.kind === 'barrier')) this.insertTexts();
    else if (this.texts.pending && !this.textTimer) {
      this.textTimer = setTimeout(() => {
        this.textTimer = null;
        this.insertTexts();
      }, TEXT_DELAY_MS);
      this.textTimer.unref?.();
    }
    if (!this.sync) settleAll();
  }

  /** The committed decisions' full-text rows, in a transaction of their own. */
  insertTexts(): void {
    if (this.textTimer) clearTimeout(this.textTimer);
    this.textTimer = null;
    if (this.sync?.failure) return;
    try {
      // Rows rebuilt at open if lost need no fsync of their own; the next batch's carries them.
      if (this.sync) this.sync.unsynced(() => this.texts.flush());
      else this.texts.flush();
    } catch (err) {
      this.report(err as Error, 'full-text rows (written again when the store next opens)');
    }
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
        this.insertChained(describe(op), this.stmts.insertVote, 'vote', op.row.request_id, op.row);
        return undefined;
      case 'event':
        return this.applyEvent(op.row);
      case 'decision':
        return this.applyDecision(op.prepared);
      case 'grant':
        this.insertChained(describe(op), this.stmts.insertGrant, 'grant', op.row.grant_id, op.row);
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

  /** One audited row: refused alone if its insert fails (firstWrite), then chained under `ref`. */
  private insertChained(
    what: string,
    insert: Statement,
    kind: AuditKind,
    ref: string,
    row: object,
  ): void {
    firstWrite(what, () => insert.run(insertValues(kind, this.chain.nextSeq, row)));
    this.chain.append(kind, ref, row);
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
      if (this.knownSessions.size >= CACHE_LIMIT) this.knownSessions.clear();
      this.stmts.insertSession.run(row.agent_id, row.session_id, row.cwd, row.issued_at);
      this.knownSessions.add(sessionKey);
    }
    this.chain.append('request', row.request_id, row);
    this.undecided.remember(row.request_id, {
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
   * The decision row is the first write, so a constraint that refuses it (unknown or pruned request,
   * already decided) leaves nothing behind; an error after that fails the whole batch instead (nothing
   * half-written). Its votes take the seqs just before it: the chain lists votes, then the decision.
   */
  private applyDecision({ row: input, votes }: PreparedDecision): void {
    const what = `decision on request ${input.request_id}`;
    const facts = this.undecided.lookup(input.request_id);
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
    this.texts.add(hid, facts.title, facts.command_text ?? '', facts.paths);
    for (const vote of votes) {
      this.stmts.insertVote.run(insertValues('vote', this.chain.nextSeq, vote));
      this.chain.append('vote', vote.request_id, vote);
    }
    this.chain.append('decision', row.request_id, row);
    this.undecided.forget(row.request_id);
  }
}
