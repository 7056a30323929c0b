// What the writer queues, how a record's outcome reaches whoever waits for it, and the counters it
// keeps. A decision, a grant and a revocation have a waiter; the other records are fire-and-forget.
import Database from 'better-sqlite3';
import { RecordRejectedError } from './errors';
import type {
  EventRow,
  GrantRevokeRow,
  GrantRow,
  PreparedDecision,
  PreparedRequest,
  VoteRow,
} from './records';

export interface Waiter<T> {
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
  /** fsyncs of the WAL that told commits' callers (durability 'full'; 0 otherwise). */
  syncs: number;
}

export type ErrorReporter = (error: Error, context: string) => void;

export type Outcome = { ok: true; value: unknown } | { ok: false; error: Error };

/** A constraint failure of the first write of a record rolls back only that statement: refuse the record. */
export function firstWrite<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof Database.SqliteError && err.code.startsWith('SQLITE_CONSTRAINT')) {
      throw new RecordRejectedError(`${what}: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

/** The record an operation carries, for error messages. */
export function describe(op: Op): string {
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
