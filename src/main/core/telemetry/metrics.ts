// A few metrics beside the log records: counted from the audit entries as the export reads them (each
// once per run), and the pending count read when the reader collects. Nothing here runs in a decision.
import type { Counter, Histogram } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { FeedEntry } from '../store';
import { ATTR } from './attributes';
import { createMetricExporter, EXPORT_TIMEOUT_MS, type OtlpSettings } from './exporters';

export const METRIC = {
  requests: 'gatehouse.requests',
  decisions: 'gatehouse.decisions',
  pending: 'gatehouse.pending',
  latency: 'gatehouse.decision.latency',
} as const;

export class AuditMetrics {
  private readonly provider: MeterProvider;
  private readonly requests: Counter;
  private readonly decisions: Counter;
  private readonly latency: Histogram;

  constructor(options: {
    otlp: OtlpSettings;
    resource: Resource;
    /** Requests waiting for a person now. */
    pending: () => number;
  }) {
    const exporter = createMetricExporter(options.otlp);
    const exportIntervalMillis = options.otlp.metricsIntervalMs;
    this.provider = new MeterProvider({
      resource: options.resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter,
          exportIntervalMillis,
          exportTimeoutMillis: Math.min(EXPORT_TIMEOUT_MS, exportIntervalMillis),
        }),
      ],
    });
    const meter = this.provider.getMeter('gatehouse');
    this.requests = meter.createCounter(METRIC.requests, {
      description: 'Permission requests audited',
    });
    this.decisions = meter.createCounter(METRIC.decisions, {
      description: 'Decisions audited, by verdict and decider',
    });
    this.latency = meter.createHistogram(METRIC.latency, {
      description: 'From the request to its decision',
      unit: 'ms',
    });
    meter
      .createObservableGauge(METRIC.pending, { description: 'Requests waiting for a person' })
      .addCallback((result) => result.observe(options.pending()));
  }

  count(entries: readonly FeedEntry[]): void {
    for (const entry of entries) {
      if (entry.kind === 'request') {
        this.requests.add(1, {
          [ATTR.agentId]: entry.request.agentId,
          [ATTR.toolKind]: entry.request.toolKind,
        });
      } else if (entry.kind === 'decision') {
        const attributes = {
          [ATTR.decision]: entry.decision.verdict,
          [ATTR.deciderType]: entry.decision.deciderType,
        };
        this.decisions.add(1, attributes);
        this.latency.record(entry.decision.latencyMs, attributes);
      }
    }
  }

  /** Sends what was counted, then stops. */
  async close(): Promise<void> {
    await this.provider.shutdown().catch(() => undefined);
  }
}
