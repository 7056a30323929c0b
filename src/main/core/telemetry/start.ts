// The OpenTelemetry export of the audit, once settings.telemetry.otlp asks for one (loaded by
// index.ts only then).
import type { Resource } from '@opentelemetry/resources';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  LoggerProvider,
  type LogRecordProcessor,
  type ReadableLogRecord,
  type ReadWriteLogRecord,
} from '@opentelemetry/sdk-logs';
import { GATEHOUSE_VERSION } from '../../../shared/control-protocol';
import type { TelemetrySettings } from '../../../shared/settings';
import { logRecordOf } from './attributes';
import { AuditExport, CLOSE_DRAIN_MS } from './audit-export';
import { createLogExporter, EXPORT_TIMEOUT_MS, type OtlpSettings } from './exporters';
import { AuditMetrics } from './metrics';
import { within } from './within';
import { ATTRIBUTE_VALUE_LIMIT, type Telemetry, type TelemetryOptions } from './types';

/**
 * Keeps the records the SDK's logger makes, so the export loop sends them itself: the SDK's batch
 * processor would drop records when its queue is full or its exporter fails, and the audit must not.
 */
class Collect implements LogRecordProcessor {
  records: ReadableLogRecord[] = [];
  onEmit(record: ReadWriteLogRecord): void {
    this.records.push(record);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export function startExport(
  options: TelemetryOptions,
  otlp: NonNullable<TelemetrySettings['otlp']>,
): Telemetry {
  const resource: Resource = resourceFromAttributes({
    'service.name': 'gatehouse',
    'service.version': GATEHOUSE_VERSION,
  });
  const collect = new Collect();
  const provider = new LoggerProvider({
    resource,
    logRecordLimits: { attributeValueLengthLimit: ATTRIBUTE_VALUE_LIMIT },
    processors: [collect],
  });
  const otelLogger = provider.getLogger('gatehouse.audit', GATEHOUSE_VERSION);
  const metrics = new AuditMetrics({ otlp, resource, pending: options.pending });
  const contents = otlp.logPrompts;
  const exporter = new AuditExport({
    feed: options.store.feed,
    cursorName: cursorName(otlp),
    exporter: createLogExporter(otlp),
    build: (entries) => {
      for (const entry of entries) otelLogger.emit(logRecordOf(entry, { contents }));
      return collect.records.splice(0);
    },
    onRead: (entries) => metrics.count(entries),
    contents,
    exportDelayMs: otlp.exportDelayMs,
    retryDelayMs: otlp.retryDelayMs,
    exportTimeoutMs: EXPORT_TIMEOUT_MS,
  });
  return {
    get exportedSeq() {
      return exporter.exportedSeq;
    },
    async close() {
      // Logs and metrics drain side by side under the one bound: closing waits at most CLOSE_DRAIN_MS.
      await within(
        Promise.all([
          exporter.close(),
          metrics.close(),
          provider.shutdown().catch(() => undefined),
        ]),
        CLOSE_DRAIN_MS,
      );
    },
  };
}

/**
 * One cursor per destination: a collector named for the first time receives the audit the store
 * still holds, then follows it.
 */
function cursorName(otlp: OtlpSettings): string {
  return `otlp ${otlp.protocol} ${otlp.endpoint}`;
}
