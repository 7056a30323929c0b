// An OTLP/HTTP receiver for tests: a real HTTP server on 127.0.0.1 that decodes what an OpenTelemetry
// exporter sends to /v1/logs (protobuf, with the message definitions of opentelemetry-proto, or JSON)
// and /v1/metrics (JSON). It can go down and come back on the same port, or hang.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Database from 'better-sqlite3';
import protobuf from 'protobufjs';
import { databasePath } from '../../src/main/core/store';

// The messages an ExportLogsServiceRequest is made of, as opentelemetry-proto defines them
// (common/v1, resource/v1, logs/v1, collector/logs/v1); field numbers are the wire format.
const LOGS_PROTO = `
syntax = "proto3";
package otlp;
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope {
  string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4;
}
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message LogRecord {
  fixed64 time_unix_nano = 1; fixed64 observed_time_unix_nano = 11; int32 severity_number = 2;
  string severity_text = 3; AnyValue body = 5; repeated KeyValue attributes = 6;
  uint32 dropped_attributes_count = 7; fixed32 flags = 8; bytes trace_id = 9; bytes span_id = 10;
  string event_name = 12;
}
message ScopeLogs { InstrumentationScope scope = 1; repeated LogRecord log_records = 2; string schema_url = 3; }
message ResourceLogs { Resource resource = 1; repeated ScopeLogs scope_logs = 2; string schema_url = 3; }
message ExportLogsServiceRequest { repeated ResourceLogs resource_logs = 1; }
`;
const ExportLogsServiceRequest = protobuf
  .parse(LOGS_PROTO)
  .root.lookupType('otlp.ExportLogsServiceRequest');

/** Both encodings, once decoded: OTLP/JSON's field names, which protobufjs also produces. */
interface WireValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: WireValue[] };
  kvlistValue?: { values?: WireKeyValue[] };
}
interface WireKeyValue {
  key: string;
  value?: WireValue;
}
interface WireLogs {
  resourceLogs?: {
    resource?: { attributes?: WireKeyValue[] };
    scopeLogs?: {
      scope?: { name?: string };
      logRecords?: {
        timeUnixNano?: string | number;
        severityText?: string;
        body?: WireValue;
        attributes?: WireKeyValue[];
        eventName?: string;
      }[];
    }[];
  }[];
}

export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

export interface ReceivedLog {
  eventName: string;
  /** Milliseconds since the epoch. */
  time: number;
  severityText: string;
  body: Value;
  attributes: Record<string, Value>;
  resource: Record<string, Value>;
  scope: string;
  /** The content type the exporter sent it with. */
  contentType: string;
}

function valueOf(v: WireValue | undefined): Value {
  if (!v) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  if (v.kvlistValue) return attributesOf(v.kvlistValue.values);
  return null;
}

function attributesOf(list: WireKeyValue[] | undefined): Record<string, Value> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

function flatten(payload: WireLogs, contentType: string): ReceivedLog[] {
  const logs: ReceivedLog[] = [];
  for (const rl of payload.resourceLogs ?? []) {
    const resource = attributesOf(rl.resource?.attributes);
    for (const sl of rl.scopeLogs ?? []) {
      for (const r of sl.logRecords ?? []) {
        logs.push({
          eventName: r.eventName ?? '',
          time: Number(BigInt(r.timeUnixNano ?? 0) / 1_000_000n),
          severityText: r.severityText ?? '',
          body: valueOf(r.body),
          attributes: attributesOf(r.attributes),
          resource,
          scope: sl.scope?.name ?? '',
          contentType,
        });
      }
    }
  }
  return logs;
}

const BODY_LIMIT = 32 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) req.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface OtlpReceiver {
  /** The base URL, as `telemetry.otlp.endpoint` takes it. */
  readonly url: string;
  /** Every log record received, in order of arrival. */
  readonly logs: ReceivedLog[];
  /** Every metrics request body received (OTLP/JSON), in order. */
  readonly metrics: unknown[];
  /** Headers of every request received. */
  readonly headers: IncomingMessage['headers'][];
  /** Stops listening and drops every connection: the collector is down. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  /** true: requests are read and never answered (a collector that hangs). */
  hang(on: boolean): void;
  /** Resolves once `count` log records match `predicate`. */
  waitForLogs(
    count: number,
    predicate?: (log: ReceivedLog) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedLog[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const logs: ReceivedLog[] = [];
  const metrics: unknown[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  let hanging = false;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    headers.push(req.headers);
    if (hanging) return;
    const contentType = String(req.headers['content-type'] ?? '');
    if (req.method !== 'POST') return void res.writeHead(405).end();
    if (req.url === '/v1/logs') {
      const payload = contentType.includes('json')
        ? (JSON.parse(body.toString('utf8')) as WireLogs)
        : (ExportLogsServiceRequest.toObject(ExportLogsServiceRequest.decode(body), {
            longs: String,
          }) as WireLogs);
      logs.push(...flatten(payload, contentType));
      for (const waiter of waiters) waiter();
    } else if (req.url === '/v1/metrics') {
      metrics.push(JSON.parse(body.toString('utf8')));
    } else {
      return void res.writeHead(404).end();
    }
    res.writeHead(200, {
      'content-type': contentType.includes('json') ? 'application/json' : contentType,
    });
    res.end(contentType.includes('json') ? '{}' : Buffer.alloc(0));
  };

  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    const s = createServer((req, res) => {
      handle(req, res).catch(() => res.writeHead(400).end());
    });
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  const down = async () => {
    const s = server;
    server = null;
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  await listen();

  return {
    url: `http://127.0.0.1:${port}`,
    logs,
    metrics,
    headers,
    down,
    up: listen,
    hang(on) {
      hanging = on;
    },
    waitForLogs(count, predicate = () => true, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hits = logs.filter(predicate);
          if (hits.length < count) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(hits);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out: ${logs.filter(predicate).length} of ${count} log records`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: down,
  };
}

/** How far the export got, as the store saved it (read from the database file, as a restart would). */
export function exportCursor(home: string): number {
  const db = new Database(databasePath(home), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT max(seq) FROM export_cursors').pluck().get() as number | null) ?? 0;
  } finally {
    db.close();
  }
}
