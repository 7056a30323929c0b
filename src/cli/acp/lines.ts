// ACP over stdio is one JSON-RPC message per line. The proxy forwards each line's exact bytes and
// only reads a copy of it, so what reaches the other side is what was sent.

/** A line longer than this is not a message either side should send; the proxy gives up. */
export const MAX_LINE_BYTES = 128 * 1024 * 1024;

export class LineTooLongError extends Error {}

/** Splits a byte stream into lines (without their "\n"); a "\r" before it stays in the line. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      this.parts.push(chunk.subarray(start, at));
      lines.push(Buffer.concat(this.parts).toString('utf8'));
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

  /** What is left when the stream ends without a final "\n". */
  rest(): string | null {
    return this.parts.length === 0 ? null : Buffer.concat(this.parts).toString('utf8');
  }
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

/** Ids compared across the two directions: 1 and "1" are different ids. */
export const idKey = (id: unknown): string => JSON.stringify(id);

export const rpcLine = (message: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', ...message });
