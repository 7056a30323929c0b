// openStoreEngine(): the history store on the thread that opens it, with its writer, its retention and
// its reads. The core runs it on a thread of its own (store-worker.ts); tests and tools open it directly.
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { AuditFeed, type FeedPage } from './audit-feed';
import { ChainWriter, readAnchor, verifyChain, type VerifyResult } from './audit-log';
import { openDatabase, type Db, type Durability } from './database';
import { StoreClosedError } from './errors';
import { getGrant } from './grant-records';
import { migrate } from './migrations';
import { revokePairedClient, savePairedClient } from './paired-clients';
import { rememberSession, saveTranscript, sessionEnded } from './session-records';
import {
  prepareDecision,
  prepareEvent,
  prepareGrant,
  prepareRequest,
  prepareVote,
} from './records';
import { readEngine, type ReadEngine } from './read-engine';
import { Pruner, pruneTarget, type PruneResult, type RetentionPolicy } from './retention';
import { resolveAuditKey } from './audit-key';
import { newId } from '../ids';
import { WalSync } from './wal-sync';
import { Writer } from './writer';
import type { ErrorReporter, WriterStats } from './write-ops';
import { wellFormed } from './canonical';
import type { StoreWrites } from './writes';
import { logger } from '../log/logger';

const log = logger('store');

export interface StoreOptions {
  /** Database file (created with its folder if missing), or ':memory:'. */
  path: string;
  /** Clock for commit times, default event times, retention and grant expiry. */
  now?: () => number;
  retention?: RetentionPolicy;
  /**
   * Signs the chain head and the retention checkpoint (a string is taken as its UTF-8 bytes).
   * Default: the headless key (audit-key.ts: GATEHOUSE_AUDIT_KEY, GATEHOUSE_AUDIT_KEY_FILE, or the
   * default file outside the data folder); a random one for ':memory:'.
   */
  checkpointKey?: string | Buffer;
  durability?: Durability;
  busyTimeoutMs?: number;
  /** Whether this engine's commits copy the WAL back, or another connection does (database.ts). */
  walCheckpoints?: 'self' | 'elsewhere';
  /** Failures of fire-and-forget records (recordRequest/Vote/Event). Default: the log. */
  onError?: ErrorReporter;
  /** How often retention runs while open (ms, default 1 h). It also runs once right after opening. */
  pruneIntervalMs?: number;
}

/** The store on the caller's thread: its records, and its reads answered at once. */
export interface StoreEngine extends StoreWrites, ReadEngine {
  verifyChain(): VerifyResult;
  stats(): WriterStats;
  /** The committed audit after a seq, in chain order, and the exporters' cursors (audit-feed.ts). */
  readonly feed: {
    read(afterSeq: number, limit: number, contents: boolean): FeedPage;
    cursor(name: string): number;
    saveCursor(name: string, seq: number): void;
  };
}

const HOUR_MS = 3_600_000;

/** The key the chain is signed with: the one given, else the headless key (or a random one in memory). */
export function storeKey(options: Pick<StoreOptions, 'path' | 'checkpointKey'>): Buffer {
  const given = options.checkpointKey;
  if (given !== undefined) return typeof given === 'string' ? Buffer.from(given, 'utf8') : given;
  if (options.path === ':memory:') return randomBytes(32);
  return resolveAuditKey({ home: dirname(options.path), dbPath: options.path }).key;
}

export function openStoreEngine(options: StoreOptions): StoreEngine {
  const now = options.now ?? Date.now;
  const report: ErrorReporter =
    options.onError ?? ((error, context) => log.error(`${context}: ${error.message}`));
  const db: Db = openDatabase(options.path, {
    ...(options.durability !== undefined ? { durability: options.durability } : {}),
    ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
    ...(options.walCheckpoints !== undefined ? { walCheckpoints: options.walCheckpoints } : {}),
  });
  let key: Buffer;
  try {
    migrate(db, options.path);
    key = storeKey(options);
  } catch (err) {
    db.close();
    throw err;
  }
  const sync =
    options.durability === 'full' && options.path !== ':memory:'
      ? new WalSync(db, `${options.path}-wal`, report)
      : null;
  const writer = new Writer(db, key, now, report, sync);
  const auditFeed = new AuditFeed(db);
  const pruner = new Pruner(db, key, new ChainWriter(db, key));
  let closed = false;
  let pruning: Promise<PruneResult> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const open = () => {
    if (closed) throw new StoreClosedError();
  };

  let retention: RetentionPolicy = options.retention ?? {};
  const runPrune = async (): Promise<PruneResult> => {
    const policy = retention;
    let entries = 0;
    let requests = 0;
    const target = pruneTarget(db, policy, now());
    while (!closed && target > 0) {
      // A pruned decision's full-text row must exist to go with it.
      writer.insertTexts();
      const done = pruner.chunk(target, now());
      if (!done) break;
      entries += done.entries;
      requests += done.requests;
      // Let the writer commit between chunks.
      await turn();
    }
    const anchor = closed ? null : readAnchor(db, 'checkpoint');
    const checkpoint = anchor && {
      seq: anchor.seq,
      hash: anchor.hash,
      at: anchor.at,
      prunedRows: anchor.prunedRows,
    };
    return { entries, requests, checkpoint };
  };

  const prune = (): Promise<PruneResult> => {
    if (closed) return Promise.reject(new StoreClosedError());
    pruning ??= runPrune().finally(() => {
      pruning = null;
    });
    return pruning;
  };

  const schedule = () => {
    if (timer) clearInterval(timer);
    timer = null;
    if (retention.days === undefined && retention.rows === undefined) return;
    const background = () => {
      if (!closed) prune().catch((err: Error) => report(err, 'retention'));
    };
    setImmediate(background);
    timer = setInterval(background, options.pruneIntervalMs ?? HOUR_MS);
    timer.unref();
  };
  schedule();

  const store: StoreEngine = {
    ...readEngine(db, options.path, key, now, open),
    path: options.path,
    recordRequest(request, meta, recordOptions) {
      open();
      writer.enqueue({ kind: 'request', prepared: prepareRequest(request, meta, recordOptions) });
    },
    recordVote(requestId, vote) {
      open();
      writer.enqueue({ kind: 'vote', row: prepareVote(requestId, vote) });
    },
    recordEvent(event) {
      open();
      writer.enqueue({ kind: 'event', row: prepareEvent(event, now()) });
    },
    markDisplayed(requestId, by = {}) {
      store.recordEvent({
        type: 'request_displayed',
        requestId,
        ...(by.at !== undefined ? { at: by.at } : {}),
        payload: { clientId: by.clientId ?? null, surface: by.surface ?? null },
      });
    },
    recordDecision(decision, meta, recordOptions) {
      return new Promise((resolve, reject) => {
        open();
        writer.enqueue({
          kind: 'decision',
          prepared: prepareDecision(decision, meta, recordOptions),
          waiter: { resolve, reject },
        });
      });
    },
    async saveGrant(grant) {
      open();
      const row = prepareGrant(grant, newId(), now());
      const id = await new Promise<string>((resolve, reject) =>
        writer.enqueue({ kind: 'grant', row, waiter: { resolve, reject } }),
      );
      return getGrant(db, id)!;
    },
    revokeGrant(grantId, revoke = {}) {
      return new Promise((resolve, reject) => {
        open();
        writer.enqueue({
          kind: 'revoke',
          row: {
            grant_id: wellFormed(grantId),
            revoked_at: revoke.at ?? now(),
            revoke_reason: revoke.reason ?? null,
          },
          waiter: { resolve, reject },
        });
      });
    },
    savePairedClient(client) {
      open();
      savePairedClient(db, client);
    },
    revokePairedClient(clientId, at) {
      open();
      revokePairedClient(db, clientId, at);
    },
    rememberSession(record) {
      open();
      rememberSession(db, record);
    },
    sessionEnded(sessionId, state, at) {
      open();
      sessionEnded(db, sessionId, state, at);
    },
    saveTranscript(sessionId, transcriptJson) {
      open();
      saveTranscript(db, sessionId, transcriptJson);
    },
    verifyChain() {
      open();
      return verifyChain(db, key);
    },
    prune,
    setRetention(policy) {
      open();
      retention = { ...policy };
      schedule();
    },
    flush() {
      if (closed) return Promise.resolve();
      return writer.flush();
    },
    async close() {
      if (closed) return;
      writer.stop();
      if (timer) clearInterval(timer);
      try {
        await writer.flush();
      } catch {
        // The failed batch already rejected its waiters; closing goes on.
      }
      closed = true;
      await pruning?.catch(() => undefined);
      sync?.close();
      db.close();
    },
    stats() {
      return { ...writer.stats, syncs: sync?.syncs ?? 0 };
    },
    feed: {
      read: (afterSeq, limit, contents) => store.readFeed(afterSeq, limit, contents),
      cursor(name) {
        open();
        return auditFeed.cursor(name);
      },
      saveCursor(name, seq) {
        open();
        auditFeed.saveCursor(name, seq);
      },
    },
  };
  return store;
}
