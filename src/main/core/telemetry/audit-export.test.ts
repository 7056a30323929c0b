// The export loop against a collector that never answers: closing stops waiting for it, and an
// answer that comes after the close changes nothing and is not reported as something to retry.
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installLogSink, type LogSink } from '../log/logger';
import type { FeedEntry } from '../store';
import { AuditExport } from './audit-export';

type Done = Parameters<LogRecordExporter['export']>[1];

function hangingCollector() {
  const answers: Done[] = [];
  const exporter: LogRecordExporter = {
    export: (_records: ReadableLogRecord[], done: Done) => void answers.push(done),
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
  return { exporter, answers };
}

/** One page of one entry, then nothing new; the cursor as saved. */
function feed() {
  const saved: number[] = [];
  return {
    saved,
    feed: {
      cursor: async () => saved.at(-1) ?? 0,
      read: async (afterSeq: number) =>
        afterSeq === 0
          ? { entries: [{ seq: 1 } as unknown as FeedEntry], lastSeq: 1 }
          : { entries: [], lastSeq: afterSeq },
      saveCursor: (_name: string, seq: number) => void saved.push(seq),
    },
  };
}

describe('the audit export loop', () => {
  let previous: LogSink | null = null;
  afterEach(() => {
    if (previous) installLogSink(previous);
    previous = null;
  });

  it('an export that fails after the close is not said to be retried, and moves no cursor', async () => {
    const lines: string[] = [];
    previous = installLogSink((level, _scope, message) => lines.push(`${level} ${message}`));
    const { exporter, answers } = hangingCollector();
    const { feed: auditFeed, saved } = feed();
    const loop = new AuditExport({
      feed: auditFeed,
      cursorName: 'otlp',
      exporter,
      build: () => [{} as ReadableLogRecord],
      onRead: () => undefined,
      contents: false,
      exportDelayMs: 10,
      retryDelayMs: 10,
      exportTimeoutMs: 60_000,
    });
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    // Closing waits for the hanging export (CLOSE_DRAIN_MS), then goes on without it.
    await loop.close();
    const closed = lines.length;

    answers[0]!({ code: 1, error: new Error('socket hang up') });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.slice(closed)).toEqual([]);
    expect(saved).toEqual([]);
    expect(answers).toHaveLength(1);
  });
});
