// ACP over stdio is one JSON-RPC message per line. The proxy forwards each line's exact bytes and
// only reads a copy of it, so what reaches the other side is what was sent. What a line is comes
// from a scan of its bytes (line-scan.ts); only a line whose params or result the proxy acts on is
// parsed whole.
import { scanLine, valueOf, type Scanned, type Span } from './line-scan';

/** A line longer than this is not a message either side should send; the proxy gives up. */
export const MAX_LINE_BYTES = 128 * 1024 * 1024;

export class LineTooLongError extends Error {}

/**
 * Splits a byte stream into lines, each with its "\n" (a "\r" before it stays in the line): the
 * bytes that are forwarded, unchanged and without copying when a line sits in one chunk.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      const tail = chunk.subarray(start, at + 1);
      lines.push(this.parts.length === 0 ? tail : Buffer.concat([...this.parts, tail]));
      this.parts = [];
      this.size = 0;
      start = at + 1;
    }
    if (start < chunk.length) {
      this.size += chunk.length - start;
      if (this.size > MAX_LINE_BYTES)
        throw new LineTooLongError(`a line over ${MAX_LINE_BYTES} bytes`);
      this.parts.push(chunk.subarray(start));
    }
    return lines;
  }
}

/** A line's text, for reading: without its "\n". */
export function lineText(line: Buffer): string {
  return line.toString('utf8', 0, line.at(-1) === 10 ? line.length - 1 : line.length);
}

export type RpcMessage =
  | { kind: 'request'; id: unknown; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response'; id: unknown; result?: unknown; error?: unknown }
  | { kind: 'other' };

/** What a line is, read from a copy; anything that is not JSON-RPC is `other` and passes as it is. */
export function readMessage(line: string): RpcMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'other' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'other' };
  const message = value as Record<string, unknown>;
  const hasId =
    'id' in message && (typeof message.id === 'string' || typeof message.id === 'number');
  if (typeof message.method === 'string') {
    return hasId
      ? { kind: 'request', id: message.id, method: message.method, params: message.params }
      : { kind: 'notification', method: message.method, params: message.params };
  }
  if (hasId && ('result' in message || 'error' in message)) {
    return { kind: 'response', id: message.id, result: message.result, error: message.error };
  }
  return { kind: 'other' };
}

/** What a line is, from a scan of its bytes: its kind, method and id as JSON.parse would read them. */
export type Classified =
  | { kind: 'request'; id: string | number; method: string; scan: Scanned }
  | { kind: 'notification'; method: string; scan: Scanned }
  | { kind: 'response'; id: string | number; scan: Scanned }
  | { kind: 'other'; why: 'not JSON-RPC' | 'a key twice' };

const NOT_RPC = { kind: 'other', why: 'not JSON-RPC' } as const;
const isNumber = (span: Span) => span.first === 0x2d || (span.first >= 0x30 && span.first <= 0x39);

/**
 * The line's kind by the same rules as `readMessage`, without parsing it: one JSON object; an id
 * that is a string or a number; a method that is a string. A line whose top-level object or
 * `params` names a key twice is `other`: it does not say one thing.
 */
export function classifyLine(line: Buffer): Classified {
  const scan = scanLine(line);
  if (scan?.members == null) return NOT_RPC;
  if (scan.duplicateKey) return { kind: 'other', why: 'a key twice' };
  const { members } = scan;
  const idSpan = members.get('id');
  const id =
    idSpan && (idSpan.first === 0x22 || isNumber(idSpan))
      ? (valueOf(line, idSpan) as string | number)
      : null;
  const methodSpan = members.get('method');
  if (methodSpan?.first === 0x22) {
    const method = valueOf(line, methodSpan) as string;
    return id === null
      ? { kind: 'notification', method, scan }
      : { kind: 'request', id, method, scan };
  }
  if (id !== null && (members.has('result') || members.has('error'))) {
    return { kind: 'response', id, scan };
  }
  return NOT_RPC;
}

/** A string member of the line's `params`, decoded; null when absent, empty or not a string. */
export function paramText(line: Buffer, scan: Scanned, key: string): string | null {
  const span = scan.params?.get(key);
  if (span?.first !== 0x22) return null;
  const value = valueOf(line, span) as string;
  return value.length > 0 ? value : null;
}

/** The exact bytes of an object member of the line's `params` (a value to splice, not re-encode). */
export function paramBytes(line: Buffer, scan: Scanned, key: string): Buffer | null {
  const span = scan.params?.get(key);
  return span?.first === 0x7b ? line.subarray(span.start, span.end) : null;
}

/** The exact bytes of the line's `params`, when it is an object. */
export function paramsBytes(line: Buffer, scan: Scanned): Buffer | null {
  const span = scan.members?.get('params');
  return span?.first === 0x7b ? line.subarray(span.start, span.end) : null;
}

/** Ids compared across the two directions: 1 and "1" are different ids. */
export const idKey = (id: unknown): string => JSON.stringify(id);

/** A message of the proxy's own, as a whole line. */
export const rpcLine = (message: Record<string, unknown>): string =>
  `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
