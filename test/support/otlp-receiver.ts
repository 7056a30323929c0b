// An OTLP/HTTP receiver for tests: a real HTTP server on 127.0.0.1 that decodes what an OpenTelemetry
// exporter sends to /v1/logs (protobuf, with the message definitions of opentelemetry-proto, or JSON)
// and /v1/metrics (JSON). It can go down and come back on the same port, or hang.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Database from 'better-sqlite3';
import { databasePath } from '../../src/main/core/store';
import { decodeLogs } from './otlp-proto';

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
export interface WireLogs {
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

export function flatten(payload: WireLogs, contentType: string): ReceivedLog[] {
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

/** The log records received, and waiting for them. */
export function logBook() {
  const logs: ReceivedLog[] = [];
  const waiters = new Set<() => void>();
  return {
    logs,
    add(records: ReceivedLog[]) {
      logs.push(...records);
      for (const waiter of waiters) waiter();
    },
    waitForLogs(
      count: number,
      predicate: (log: ReceivedLog) => boolean = () => true,
      timeoutMs = 20_000,
    ): Promise<ReceivedLog[]> {
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
  };
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const book = logBook();
  const { logs } = book;
  const metrics: unknown[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const sockets = new Set<Socket>();
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
        : (decodeLogs(body) as WireLogs);
      book.add(flatten(payload, contentType));
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
    waitForLogs: book.waitForLogs,
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
