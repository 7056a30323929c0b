// JSON answers, the same headers on every one: what each route sends, its errors included.
import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from '../../shared/security-headers';
import { EncodedJson } from '../core';

/**
 * `body` as JSON; an answer already encoded (a history page, encoded on the store's reader thread)
 * goes out as its bytes.
 */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const bytes = body instanceof EncodedJson ? body.bytes : Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    // Its length, not chunks: the client reads one body of known size.
    'content-length': String(bytes.byteLength),
    'cache-control': 'no-store',
    ...SECURITY_HEADERS,
    ...headers,
  });
  res.end(bytes);
}

export const fail = (
  res: ServerResponse,
  status: number,
  name: string,
  message: string,
  headers?: Record<string, string>,
) => send(res, status, { error: { name, message } }, headers);
