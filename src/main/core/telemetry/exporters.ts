// The OTLP exporters for the configured protocol. Their own retries are bounded by a timeout and end
// with their shutdown (closing-agent.ts; over gRPC the shutdown closes the channel); the audit export
// above them keeps a failed batch and sends it again, so a lost request loses nothing.
import { OTLPLogExporter as GrpcLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtobufLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { createEmptyMetadata } from '@opentelemetry/otlp-grpc-exporter-base';
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { TelemetrySettings } from '../../../shared/settings';
import { ClosingAgents, closingWith } from './closing-agent';

export type OtlpSettings = NonNullable<TelemetrySettings['otlp']>;

/** How long one export may take before it counts as failed (and is retried later). */
export const EXPORT_TIMEOUT_MS = 10_000;

/** The signal's URL under the endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT is read. */
export function signalUrl(endpoint: string, signal: 'logs' | 'metrics'): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/${signal}`;
}

export function createLogExporter(
  otlp: OtlpSettings,
  timeoutMillis = EXPORT_TIMEOUT_MS,
): LogRecordExporter {
  switch (otlp.protocol) {
    case 'grpc':
      return new GrpcLogExporter({ url: otlp.endpoint, metadata: metadataOf(otlp), timeoutMillis });
    case 'http/json':
    case 'http/protobuf': {
      const agents = new ClosingAgents();
      const Exporter = otlp.protocol === 'http/json' ? JsonLogExporter : ProtobufLogExporter;
      const exporter = new Exporter({
        url: signalUrl(otlp.endpoint, 'logs'),
        headers: otlp.headers,
        timeoutMillis,
        httpAgentOptions: agents.factory,
      });
      return closingWith(exporter, agents);
    }
  }
}

/**
 * Over HTTP, metrics go as OTLP/JSON, which a collector's HTTP receiver takes beside protobuf; over
 * gRPC, on the same connection settings as the logs.
 */
export function createMetricExporter(otlp: OtlpSettings): PushMetricExporter {
  if (otlp.protocol === 'grpc') {
    return new GrpcMetricExporter({
      url: otlp.endpoint,
      metadata: metadataOf(otlp),
      timeoutMillis: EXPORT_TIMEOUT_MS,
    });
  }
  const agents = new ClosingAgents();
  const exporter = new OTLPMetricExporter({
    url: signalUrl(otlp.endpoint, 'metrics'),
    headers: otlp.headers,
    timeoutMillis: EXPORT_TIMEOUT_MS,
    httpAgentOptions: agents.factory,
  });
  return closingWith(exporter, agents);
}

/** The settings' headers, sent over gRPC as call metadata. */
function metadataOf(otlp: OtlpSettings): ReturnType<typeof createEmptyMetadata> {
  const metadata = createEmptyMetadata();
  for (const [name, value] of Object.entries(otlp.headers)) metadata.set(name, value);
  return metadata;
}
