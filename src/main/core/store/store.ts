// openStore(): the history store as the core uses it. The engine runs on threads of its own, a writer
// owning the connection that commits and a reader on a read-only connection, so neither a commit nor
// a history page, an export or the chain's check ever holds the core's thread (in the desktop app,
// the process every window, the tray and the notifications answer from). Writes keep their promise:
// a decision resolves only after the commit that holds it.
import { rm } from 'node:fs/promises';
import { EXPORT_MAX_ROWS } from '../../../shared/contract';
import type {
  HistoryDetail,
  HistoryFilter,
  HistoryPage,
  HistoryQuery,
} from '../../../shared/history';
import type { PairedClientRecord } from './paired-clients';
import { logger } from '../log/logger';
import type { FeedPage } from './audit-feed';
import type { VerifyResult } from './audit-log';
import { storeKey, type StoreOptions } from './engine';
import { StoreWriteError } from './errors';
import { EncodedJson } from './encoded-json';
import type { ExportFormat } from './export';
import type { ExportWritten } from './export-file';
import type { GrantQuery, GrantRecord } from './grant-records';
import type { AgentEntry, EventQuery, EventRecord, SessionEntry } from './reader';
import type { SessionRecord } from './session-records';
import { StoreThread, type ThreadEvents } from './store-thread';
import type {
  MethodArgs,
  MethodName,
  MethodResult,
  ReaderMethods,
  ThreadConfig,
  WriterMethods,
} from './thread-protocol';
import type { WriterStats } from './write-ops';
import type { StoreWrites } from './writes';

const log = logger('store');

/** The store as the core holds it: records as on any thread, reads answered by the reader thread. */
export interface Store extends StoreWrites {
  listGrants(query?: GrantQuery): Promise<GrantRecord[]>;
  pairedClients(): Promise<PairedClientRecord[]>;
  history(query: HistoryQuery): Promise<HistoryPage>;
  /** The same page as JSON, encoded on the reader's thread (read-engine.ts: why it is not checked). */
  historyJson(query: HistoryQuery): Promise<EncodedJson<HistoryPage>>;
  historyDetail(requestId: string): Promise<HistoryDetail | null>;
  /**
   * The filter as JSONL (one HistoryItem per line) or CSV, up to `maxRows` rows, written by the reader
   * thread to a new file at `path` (0600, created exclusively: an existing file or link there fails
   * the export and is left alone). The core's thread never holds the text. `path` must be a fresh
   * name nobody could guess: a failed export removes what is there.
   */
  exportHistoryToFile(
    filter: HistoryFilter,
    format: ExportFormat,
    path: string,
    maxRows?: number,
  ): Promise<ExportWritten>;
  /** Audited events (fs writes, refused requests, agent exits, sessions...), newest first. */
  events(query?: EventQuery): Promise<EventRecord[]>;
  agents(): Promise<AgentEntry[]>;
  sessions(agentId?: string): Promise<SessionEntry[]>;
  /** The newest sessions not closed, as remembered for taking them up again (session-records.ts). */
  sessionRecords(): Promise<SessionRecord[]>;
  /** A remembered session's transcript (JSON of its snapshot), or null. */
  keptTranscript(sessionId: string): Promise<string | null>;
  /** The chain's check, on a snapshot of what is committed. */
  verifyChain(): Promise<VerifyResult>;
  stats(): Promise<WriterStats>;
  /** EXPLAIN QUERY PLAN of a history page (for tests and diagnostics). */
  explainHistory(query: HistoryQuery): Promise<string[]>;
  /** The committed audit after a seq, in chain order, and the exporters' cursors (audit-feed.ts). */
  readonly feed: {
    read(afterSeq: number, limit: number, contents: boolean): Promise<FeedPage>;
    cursor(name: string): Promise<number>;
    saveCursor(name: string, seq: number): void;
  };
  /** The store's threads: their workers' heaps for the benches, a crash for the tests. */
  readonly threads: { writer: StoreThread<WriterMethods>; reader: StoreThread<ReaderMethods> };
}

export interface OpenStoreOptions extends StoreOptions {
  /** A store thread died (and was replaced unless it kept dying); the core audits it. */
  onThreadDied?: ThreadEvents['died'];
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const now = options.now ?? Date.now;
  const report: ThreadEvents['report'] =
    options.onError ?? ((error, context) => log.error(`${context}: ${error.message}`));
  const events: ThreadEvents = {
    report,
    died: (info) => {
      log.error(`store ${info.role} thread stopped (exit code ${info.exitCode})`);
      options.onThreadDied?.(info);
    },
  };
  const config: ThreadConfig = {
    role: 'writer',
    path: options.path,
    key: storeKey(options),
    now: now(),
    ...(options.durability !== undefined ? { durability: options.durability } : {}),
    ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
    // The reader's thread copies the WAL back, so the writer's commits do not (wal-checkpoints.ts).
    ...(options.path === ':memory:' ? {} : { walCheckpoints: 'elsewhere' as const }),
    ...(options.retention !== undefined ? { retention: options.retention } : {}),
    ...(options.pruneIntervalMs !== undefined ? { pruneIntervalMs: options.pruneIntervalMs } : {}),
  };
  // An in-memory database has no file a second connection could open: the writer answers reads.
  const starting = [
    StoreThread.start<WriterMethods>(config, now, events),
    ...(options.path === ':memory:'
      ? []
      : [StoreThread.start<ReaderMethods>({ ...config, role: 'reader' }, now, events)]),
  ];
  const started = await Promise.allSettled(starting);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
    throw failed.reason;
  }
  const writer = (started[0] as PromiseFulfilledResult<StoreThread<WriterMethods>>).value;
  const second = started[1] as PromiseFulfilledResult<StoreThread<ReaderMethods>> | undefined;
  // The writer's map holds every reader method: it answers reads when there is no reader.
  const reader: StoreThread<ReaderMethods> = second?.value ?? writer;
  if (second) reader.send('open', []);
  // A read sees every record made before it: while records sent to the writer may be uncommitted,
  // a read waits for their commit first (the reader only sees what is committed).
  let written = 0;
  let committed = 0;
  const write = {
    send<K extends MethodName<WriterMethods>>(
      method: K,
      args: MethodArgs<WriterMethods, K>,
      soon = false,
    ) {
      writer.send(method, args, soon);
      written++;
    },
    call<K extends MethodName<WriterMethods>>(method: K, ...args: MethodArgs<WriterMethods, K>) {
      written++;
      return writer.call(method, ...args);
    },
  };
  const read = async <K extends MethodName<ReaderMethods>>(
    method: K,
    ...args: MethodArgs<ReaderMethods, K>
  ): Promise<MethodResult<ReaderMethods, K>> => {
    if (committed < written) {
      const upTo = written;
      // A failed batch rejected its own records' callers; the read goes on with what is committed.
      await writer.call('flush').catch(() => undefined);
      committed = Math.max(committed, upTo);
    }
    return reader.call(method, ...args);
  };
  let closed = false;

  const store: Store = {
    path: options.path,
    // Nobody waits for a request's record: it crosses with the next write (its decision's, when
    // that comes within SOON_MS), so its commit is shared.
    recordRequest: (request, meta, recordOptions) =>
      write.send('recordRequest', [request, meta, recordOptions], true),
    recordVote: (requestId, vote) => write.send('recordVote', [requestId, vote]),
    recordEvent: (event, options) => write.send('recordEvent', [event], options?.soon ?? false),
    markDisplayed: (requestId, by) => write.send('markDisplayed', [requestId, by]),
    recordDecision: (decision, meta, recordOptions) =>
      write.call('recordDecision', decision, meta, recordOptions),
    saveGrant: (grant) => write.call('saveGrant', grant),
    revokeGrant: (grantId, revoke) => write.call('revokeGrant', grantId, revoke),
    listGrants: (query) => read('listGrants', query),
    pairedClients: () => read('pairedClients'),
    savePairedClient: (client) => write.send('savePairedClient', [client]),
    revokePairedClient: (clientId, at) => write.send('revokePairedClient', [clientId, at]),
    history: (query) => read('history', query),
    historyJson: async (query) => new EncodedJson<HistoryPage>(await read('historyJson', query)),
    historyDetail: (requestId) => read('historyDetail', requestId),
    async exportHistoryToFile(filter, format, path, maxRows = EXPORT_MAX_ROWS) {
      try {
        return await read('exportHistoryToFile', filter, format, path, maxRows);
      } catch (error) {
        // A reader that failed removed its file itself; one that died could not.
        if (error instanceof StoreWriteError) await rm(path, { force: true });
        throw error;
      }
    },
    events: (query) => read('events', query),
    agents: () => read('agents'),
    sessions: (agentId) => read('sessions', agentId),
    sessionRecords: () => read('sessionRecords'),
    keptTranscript: (sessionId) => read('keptTranscript', sessionId),
    rememberSession: (record) => write.send('rememberSession', [record]),
    sessionEnded: (sessionId, state, at) => write.send('sessionEnded', [sessionId, state, at]),
    saveTranscript: (sessionId, json) => write.send('saveTranscript', [sessionId, json]),
    verifyChain: () => read('verifyChainInBackground'),
    prune: () => write.call('prune'),
    setRetention: (policy) => write.send('setRetention', [policy]),
    flush: () => (closed ? Promise.resolve() : writer.call('flush')),
    async close() {
      if (closed) return;
      closed = true;
      // The writer's connection closes last: the last connection to close copies the WAL into the
      // database and removes it, which a read-only one cannot do.
      if (reader !== writer) await reader.close();
      await writer.close();
    },
    stats: () => writer.call('stats'),
    explainHistory: (query) => read('explainHistory', query),
    feed: {
      read: (afterSeq, limit, contents) => read('readFeed', afterSeq, limit, contents),
      cursor: (name) => writer.call('feedCursor', name),
      saveCursor: (name, seq) => write.send('saveFeedCursor', [name, seq]),
    },
    threads: { writer, reader },
  };
  return store;
}
