// openStore(): the history store as the core uses it. The engine runs on threads of its own, a writer
// owning the connection that commits and a reader on a read-only connection, so neither a commit nor
// a history page, an export or the chain's check ever holds the core's thread (in the desktop app,
// the process every window, the tray and the notifications answer from). Writes keep their promise:
// a decision resolves only after the commit that holds it.
import type { Decision, PendingApproval, Surface } from '../../../shared/domain';
import type {
  HistoryDetail,
  HistoryFilter,
  HistoryPage,
  HistoryQuery,
  VoteRecord,
} from '../../../shared/history';
import type { PairedClientRecord } from '../approvals/clients';
import { logger } from '../log/logger';
import type { FeedPage } from './audit-feed';
import type { VerifyResult } from './audit-log';
import { storeKey, type StoreOptions } from './engine';
import { StoreClosedError } from './errors';
import type { ExportFormat } from './export';
import type { GrantQuery, GrantRecord } from './grant-records';
import type { AgentEntry, EventQuery, EventRecord, SessionEntry } from './reader';
import type { AuditEventInput, DecisionMeta, GrantInput, RecordOptions, RequestMeta } from './records';
import type { PruneResult, RetentionPolicy } from './retention';
import { StoreThread, type ThreadEvents } from './store-thread';
import type { ThreadConfig } from './thread-protocol';
import type { WriterStats } from './write-ops';

const log = logger('store');

export interface Store {
  readonly path: string;
  /** Queues a request; committed with the next batch. A malformed one is reported, not recorded. */
  recordRequest(request: PendingApproval, meta?: RequestMeta, options?: RecordOptions): void;
  recordVote(requestId: string, vote: VoteRecord): void;
  recordEvent(event: AuditEventInput): void;
  /** Records that a client showed the request to a person (HistoryDetail.displayed). */
  markDisplayed(
    requestId: string,
    by?: { at?: number; clientId?: string | null; surface?: Surface | null },
  ): void;
  /**
   * Resolves once the transaction holding this decision, and everything queued before it, has
   * committed. Rejects (the pipeline must fail closed) with StoreInputError, RecordRejectedError
   * (unknown request, option not offered, already decided) or StoreWriteError (the commit failed,
   * or the store's thread stopped before it).
   */
  recordDecision(decision: Decision, meta: DecisionMeta, options?: RecordOptions): Promise<void>;
  /** Saves a grant (the rules layer's Grant object); resolves once committed. */
  saveGrant(grant: GrantInput): Promise<GrantRecord>;
  /** Resolves false when the grant does not exist or was already revoked. */
  revokeGrant(grantId: string, options?: { at?: number; reason?: string }): Promise<boolean>;
  listGrants(query?: GrantQuery): Promise<GrantRecord[]>;
  pairedClients(): Promise<PairedClientRecord[]>;
  savePairedClient(client: PairedClientRecord): void;
  revokePairedClient(clientId: string, at: number): void;
  history(query: HistoryQuery): Promise<HistoryPage>;
  historyDetail(requestId: string): Promise<HistoryDetail | null>;
  /** The whole filter as JSONL (one HistoryItem per line) or CSV, a page per chunk. */
  exportHistory(filter: HistoryFilter, format: ExportFormat): AsyncGenerator<string, void, undefined>;
  /** Audited events (fs writes, refused requests, agent exits, sessions...), newest first. */
  events(query?: EventQuery): Promise<EventRecord[]>;
  agents(): Promise<AgentEntry[]>;
  sessions(agentId?: string): Promise<SessionEntry[]>;
  /** The chain's check, on a snapshot of what is committed. */
  verifyChain(): Promise<VerifyResult>;
  /** Applies the retention policy now (in chunks, letting commits through between them). */
  prune(): Promise<PruneResult>;
  /** Replaces the retention policy; pruning runs with it from now on (and once right away). */
  setRetention(policy: RetentionPolicy): void;
  /** Resolves when everything queued so far is committed. */
  flush(): Promise<void>;
  /** Flushes, then closes the database. */
  close(): Promise<void>;
  stats(): Promise<WriterStats>;
  /** EXPLAIN QUERY PLAN of a history page (for tests and diagnostics). */
  explainHistory(query: HistoryQuery): Promise<string[]>;
  /** The committed audit after a seq, in chain order, and the exporters' cursors (audit-feed.ts). */
  readonly feed: {
    read(afterSeq: number, limit: number, contents: boolean): Promise<FeedPage>;
    cursor(name: string): Promise<number>;
    saveCursor(name: string, seq: number): void;
  };
  /** The store's threads, for a test that ends one as a crash would. */
  readonly threadsForTests: { writer: StoreThread; reader: StoreThread };
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
    ...(options.retention !== undefined ? { retention: options.retention } : {}),
    ...(options.pruneIntervalMs !== undefined ? { pruneIntervalMs: options.pruneIntervalMs } : {}),
  };
  // An in-memory database has no file a second connection could open: the writer answers reads.
  const starting = [
    StoreThread.start(config, now, events),
    ...(options.path === ':memory:' ? [] : [StoreThread.start({ ...config, role: 'reader' }, now, events)]),
  ];
  const started = await Promise.allSettled(starting);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
    throw failed.reason;
  }
  const [writer, reader = writer] = started.map((s) => (s as PromiseFulfilledResult<StoreThread>).value) as [
    StoreThread,
    StoreThread?,
  ];
  let closed = false;
  const open = () => {
    if (closed) throw new StoreClosedError();
  };

  const store: Store = {
    path: options.path,
    recordRequest: (request, meta, recordOptions) =>
      writer.send('recordRequest', [request, meta, recordOptions]),
    recordVote: (requestId, vote) => writer.send('recordVote', [requestId, vote]),
    recordEvent: (event) => writer.send('recordEvent', [event]),
    markDisplayed: (requestId, by) => writer.send('markDisplayed', [requestId, by]),
    recordDecision: (decision, meta, recordOptions) =>
      writer.call('recordDecision', [decision, meta, recordOptions]),
    saveGrant: (grant) => writer.call('saveGrant', [grant]),
    revokeGrant: (grantId, revoke) => writer.call('revokeGrant', [grantId, revoke]),
    listGrants: (query) => reader.call('listGrants', [query]),
    pairedClients: () => reader.call('pairedClients'),
    savePairedClient: (client) => writer.send('savePairedClient', [client]),
    revokePairedClient: (clientId, at) => writer.send('revokePairedClient', [clientId, at]),
    history: (query) => reader.call('history', [query]),
    historyDetail: (requestId) => reader.call('historyDetail', [requestId]),
    async *exportHistory(filter, format) {
      open();
      const id = await reader.call<number>('exportOpen', [filter, format]);
      try {
        for (;;) {
          const chunk = await reader.call<string | null>('exportNext', [id]);
          if (chunk === null) return;
          yield chunk;
        }
      } finally {
        if (!closed) reader.send('exportClose', [id]);
      }
    },
    events: (query) => reader.call('events', [query]),
    agents: () => reader.call('agents'),
    sessions: (agentId) => reader.call('sessions', [agentId]),
    verifyChain: () => reader.call('verifyChainInBackground'),
    prune: () => writer.call('prune'),
    setRetention: (policy) => writer.send('setRetention', [policy]),
    flush: () => (closed ? Promise.resolve() : writer.call('flush')),
    async close() {
      if (closed) return;
      closed = true;
      await writer.close();
      if (reader !== writer) await reader.close();
    },
    stats: () => writer.call('stats'),
    explainHistory: (query) => reader.call('explainHistory', [query]),
    feed: {
      read: (afterSeq, limit, contents) => reader.call('readFeed', [afterSeq, limit, contents]),
      cursor: (name) => writer.call('feedCursor', [name]),
      saveCursor: (name, seq) => writer.send('saveFeedCursor', [name, seq]),
    },
    threadsForTests: { writer, reader },
  };
  return store;
}
