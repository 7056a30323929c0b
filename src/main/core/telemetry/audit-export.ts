// The export loop. The audit is the queue: each turn reads the committed entries after the cursor
// (one bounded batch in memory), sends them, and moves the cursor only once the collector took them.
// A failed batch is kept and sent again after a pause, so an outage delays the export and loses
// nothing; a restart resumes from the saved cursor. Decisions never wait for any of it: the loop
// reads what the store already committed and runs on timers of its own.
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { FeedEntry, Store } from '../store';
import { logger } from '../log/logger';
import { LATE, within } from './within';

const log = logger('telemetry');

/** Entries per export: bounds the memory held for a batch and the size of one OTLP request. */
export const BATCH_ENTRIES = 256;
/** Closing gives a reachable collector this long to take what is left; the rest goes at next start. */
export const CLOSE_DRAIN_MS = 2000;

export interface AuditExportOptions {
  feed: Store['feed'];
  /** The cursor's name in the store: one per destination. */
  cursorName: string;
  exporter: LogRecordExporter;
  /** The log records of a batch of entries. */
  build: (entries: readonly FeedEntry[]) => ReadableLogRecord[];
  /** Called once per entry read (the metrics count them). */
  onRead: (entries: readonly FeedEntry[]) => void;
  contents: boolean;
  exportDelayMs: number;
  retryDelayMs: number;
  /** How long one export may take before it counts as failed. */
  exportTimeoutMs: number;
}

interface Batch {
  records: ReadableLogRecord[];
  lastSeq: number;
}

export class AuditExport {
  /** Read from the store at the first turn, and saved there after each batch the collector took. */
  private cursor: number | null = null;
  /** The batch read but not yet taken by the collector: sent again as is, never read twice. */
  private batch: Batch | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  private failures = 0;

  constructor(private readonly options: AuditExportOptions) {
    this.schedule(0);
  }

  /** The last audit seq the collector took. */
  get exportedSeq(): number {
    return this.cursor ?? 0;
  }

  /**
   * Stops the loop, then sends what is left while the collector takes it, for at most CLOSE_DRAIN_MS
   * in all: a collector that hangs does not hold up closing, and what it did not take goes next start.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const deadline = Date.now() + CLOSE_DRAIN_MS;
    const left = () => Math.max(0, deadline - Date.now());
    let sent = (await within(this.running ?? Promise.resolve(), left())) !== LATE;
    while (sent && left() > 0) sent = (await within(this.step(), left())) === true;
    await within(
      this.options.exporter.shutdown().catch(() => undefined),
      left(),
    );
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.drain().finally(() => {
        this.running = null;
      });
    }, delayMs);
    this.timer.unref();
  }

  /** Sends batch after batch until none is left (then waits the export delay) or one fails (the retry delay). */
  private async drain(): Promise<void> {
    let sent: boolean | null;
    do sent = await this.step();
    while (sent && !this.closed);
    this.schedule(sent === false ? this.options.retryDelayMs : this.options.exportDelayMs);
  }

  /** One batch: true when it was sent, false when sending failed, null when there was nothing to send. */
  private async step(): Promise<boolean | null> {
    let batch: Batch | null;
    try {
      batch = this.batch ?? (await this.read());
    } catch (err) {
      log.error(`cannot read the audit for export: ${(err as Error).message}`);
      return false;
    }
    if (!batch) return null;
    this.batch = batch;
    if (batch.records.length > 0) {
      const result = await this.send(batch.records);
      if (!result.ok) {
        // After a close that stopped waiting for it, nothing retries: the batch goes at next start.
        if (!this.closed && this.failures++ === 0)
          log.warn(`export failed, will retry: ${result.error}`);
        return false;
      }
      if (this.failures > 0) log.info(`export resumed after ${this.failures} failed attempts`);
      this.failures = 0;
    }
    this.batch = null;
    this.cursor = batch.lastSeq;
    try {
      this.options.feed.saveCursor(this.options.cursorName, this.cursor);
    } catch (err) {
      // The store is closing: the cursor in memory is right for this run, the next one resends.
      log.warn(`cannot save the export cursor: ${(err as Error).message}`);
    }
    return true;
  }

  private async read(): Promise<Batch | null> {
    const cursor = (this.cursor ??= await this.options.feed.cursor(this.options.cursorName));
    const page = await this.options.feed.read(cursor, BATCH_ENTRIES, this.options.contents);
    if (page.lastSeq === cursor) return null;
    this.options.onRead(page.entries);
    return { records: this.options.build(page.entries), lastSeq: page.lastSeq };
  }

  /** The exporter's answer, or a failure once the timeout has passed without one. */
  private send(records: ReadableLogRecord[]): Promise<{ ok: true } | { ok: false; error: string }> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => resolve({ ok: false, error: 'no answer in time' }),
        this.options.exportTimeoutMs + 1000,
      );
      try {
        this.options.exporter.export(records, (result) => {
          clearTimeout(timer);
          // ExportResultCode.SUCCESS is 0.
          resolve(
            result.code === 0
              ? { ok: true }
              : { ok: false, error: result.error?.message ?? 'export failed' },
          );
        });
      } catch (err) {
        clearTimeout(timer);
        resolve({ ok: false, error: (err as Error).message });
      }
    });
  }
}
