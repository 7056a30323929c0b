// Large texts are stored once, compressed, keyed by the sha-256 of their UTF-8 bytes. Requests refer to
// them by hash: diff texts always (uniform, whatever their size), and any other string longer than
// BLOB_THRESHOLD inside a tool call (write_file inputs carry whole files).
import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { wellFormed as wellFormedText } from './canonical';

export const BLOB_THRESHOLD = 1024;
/** Below this many bytes deflate rarely pays for its header; store as is. */
const COMPRESS_MIN_BYTES = 64;

export type BlobCodec = 'identity' | 'deflate';

export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function encodeBlob(text: string): { codec: BlobCodec; size: number; data: Buffer } {
  const raw = Buffer.from(text, 'utf8');
  if (raw.length >= COMPRESS_MIN_BYTES) {
    const packed = deflateSync(raw, { level: 6 });
    if (packed.length < raw.length) return { codec: 'deflate', size: raw.length, data: packed };
  }
  return { codec: 'identity', size: raw.length, data: raw };
}

export function decodeBlob(codec: string, data: Buffer): string {
  if (codec === 'deflate') return inflateSync(data).toString('utf8');
  if (codec === 'identity') return data.toString('utf8');
  throw new Error(`unknown blob codec ${codec}`);
}

/** Collects the texts a request refers to, by hash. */
export class BlobSet {
  readonly texts = new Map<string, string>();

  add(text: string): string {
    // Blob keys must hash what SQLite will give back; lone surrogates cannot survive UTF-8.
    const wellFormed = wellFormedText(text);
    const hash = textHash(wellFormed);
    this.texts.set(hash, wellFormed);
    return hash;
  }
}

type Json = unknown;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Replaces strings longer than BLOB_THRESHOLD with {"$blob": hash}. An object that itself has a "$blob"
 * or "$lit" key is wrapped as {"$lit": {...}} so that an agent cannot plant a reference to another
 * request's blob in its own input.
 */
export function externalize(value: Json, blobs: BlobSet): Json {
  if (typeof value === 'string')
    return value.length > BLOB_THRESHOLD ? { $blob: blobs.add(value) } : value;
  if (Array.isArray(value)) return value.map((item: Json) => externalize(item, blobs));
  if (isPlainObject(value)) {
    // fromEntries defines own properties, so a "__proto__" key stays data.
    const members = Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, externalize(v, blobs)]),
    );
    return Object.hasOwn(value, '$blob') || Object.hasOwn(value, '$lit')
      ? { $lit: members }
      : members;
  }
  return value;
}

export function restore(value: Json, load: (hash: string) => string): Json {
  if (Array.isArray(value)) return value.map((item: Json) => restore(item, load));
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$blob' && typeof value.$blob === 'string')
      return load(value.$blob);
    const source =
      keys.length === 1 && keys[0] === '$lit' && isPlainObject(value.$lit) ? value.$lit : value;
    return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, restore(v, load)]));
  }
  return value;
}

/** Every blob hash referenced in an externalized value. */
export function blobRefs(value: Json, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value as Json[]) blobRefs(item, out);
  else if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$blob' && typeof value.$blob === 'string')
      out.add(value.$blob);
    else {
      const source =
        keys.length === 1 && keys[0] === '$lit' && isPlainObject(value.$lit) ? value.$lit : value;
      for (const v of Object.values(source)) blobRefs(v, out);
    }
  }
  return out;
}
