// What the store answers without writing: history pages and details, exports, audited events, the
// agents and sessions seen, grants, paired clients, the chain's check and the exporters' feed. The
// writing engine answers these over its own connection; a store thread of its own answers them over
// a read-only one, so a page or a check never waits behind a commit (WAL: readers see every commit
// that finished before their read began).
import type {
  HistoryDetail,
  HistoryFilter,
  HistoryPage,
  HistoryQuery,
} from '../../../shared/history';
import type { PairedClientRecord } from './paired-clients';
import { AuditFeed, type FeedPage } from './audit-feed';
import type { VerifyResult } from './audit-log';
import { openDatabase, type Db } from './database';
import { encodeJson } from './encoded-json';
import { exportChunks, exportPages, type ExportFormat } from './export';
import { writeExportFile, type ExportWritten } from './export-file';
import { listGrants, type GrantQuery, type GrantRecord } from './grant-records';
import { listPairedClients } from './paired-clients';
import {
  Reader,
  type AgentEntry,
  type EventQuery,
  type EventRecord,
  type SessionEntry,
} from './reader';
import { keptTranscript, openSessionRecords, type SessionRecord } from './session-records';
import { verifyInBackground } from './verify-in-background';

export interface ReadEngine {
  listGrants(query?: GrantQuery): GrantRecord[];
  pairedClients(): PairedClientRecord[];
  history(query: HistoryQuery): HistoryPage;
  /**
   * The same page encoded as JSON here, as an HTTP response sends it: its bytes cross to the core's
   * thread by transfer instead of a hundred objects by copy. It is not checked against the contract
   * again: a check copies every object of the page (twice the page's garbage, a third of its time),
   * and the page is built only by `toItem` from rows the store checked when it wrote them. The
   * history's tests hold every page to the contract, the renderer's clients check what they receive,
   * and a transport that wants objects has the dispatcher decode and check them.
   */
  historyJson(query: HistoryQuery): Uint8Array;
  historyDetail(requestId: string): HistoryDetail | null;
  /** The whole filter as JSONL (one HistoryItem per line) or CSV, in chunks, read page by page. */
  exportHistory(filter: HistoryFilter, format: ExportFormat): Generator<string, void, undefined>;
  /**
   * Up to `maxRows` rows of the filter written to a new file at `path` (export-file.ts), a page per
   * turn of this thread's event loop.
   */
  exportHistoryToFile(
    filter: HistoryFilter,
    format: ExportFormat,
    path: string,
    maxRows: number,
  ): Promise<ExportWritten>;
  /** Audited events (fs writes, refused requests, agent exits, sessions...), newest first. */
  events(query?: EventQuery): EventRecord[];
  agents(): AgentEntry[];
  sessions(agentId?: string): SessionEntry[];
  /** The newest sessions not closed, as remembered for taking them up again (session-records.ts). */
  sessionRecords(): SessionRecord[];
  /** A remembered session's transcript (JSON of its snapshot), or null. */
  keptTranscript(sessionId: string): string | null;
  /** The chain check on a connection of its own, letting the event loop run between chunks. */
  verifyChainInBackground(chunk?: number): Promise<VerifyResult>;
  /** EXPLAIN QUERY PLAN of a history page (for tests and diagnostics). */
  explainHistory(query: HistoryQuery): string[];
  /** The committed audit after a seq, in chain order (audit-feed.ts). */
  readFeed(afterSeq: number, limit: number, contents: boolean): FeedPage;
}

/** The read side over `db`; `open` throws once the owner has closed it. */
export function readEngine(
  db: Db,
  path: string,
  key: Buffer,
  now: () => number,
  open: () => void = () => undefined,
): ReadEngine {
  const reader = new Reader(db);
  const feed = new AuditFeed(db);
  return {
    listGrants(query = {}) {
      open();
      return listGrants(db, query, now());
    },
    pairedClients() {
      open();
      return listPairedClients(db);
    },
    history(query) {
      open();
      return reader.page(query);
    },
    historyJson(query) {
      open();
      return encodeJson(reader.page(query));
    },
    historyDetail(requestId) {
      open();
      return reader.detail(requestId);
    },
    exportHistory(filter, format) {
      open();
      return exportPages((q) => reader.page(q), filter, format);
    },
    exportHistoryToFile(filter, format, path, maxRows) {
      open();
      return writeExportFile(
        exportChunks((q) => reader.page(q), filter, format, maxRows),
        path,
      );
    },
    events(query = {}) {
      open();
      return reader.events(query);
    },
    agents() {
      open();
      return reader.agents();
    },
    sessions(agentId) {
      open();
      return reader.sessions(agentId);
    },
    sessionRecords() {
      open();
      return openSessionRecords(db);
    },
    keptTranscript(sessionId) {
      open();
      return keptTranscript(db, sessionId);
    },
    verifyChainInBackground(chunk) {
      open();
      return verifyInBackground(path, key, db, chunk);
    },
    explainHistory(query) {
      open();
      return reader.explain(query);
    },
    readFeed(afterSeq, limit, contents) {
      open();
      return feed.read(afterSeq, limit, contents);
    },
  };
}

/** A read-only connection to a store another connection writes (and has migrated). */
export function openReadEngine(
  path: string,
  key: Buffer,
  now: () => number,
): ReadEngine & { close(): void } {
  const db = openDatabase(path, { readonly: true });
  return { ...readEngine(db, path, key, now), close: () => db.close() };
}
