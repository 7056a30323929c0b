// A value's JSON as pieces whose concatenation is JSON.stringify's text, byte for byte. A long
// string that needs no escaping is a piece of its own, the very string: an agent's 4 MB file in a
// raw input is hashed and measured where it lies, not copied into a new text first. One that needs
// escaping (any file of lines) is written a stretch at a time: JSON.stringify of a 4 MB string took
// 45-140 ms of the core's thread here, of the same string in stretches of 16k characters 5-25.
import { createHash } from 'node:crypto';
import { isHighSurrogate } from '../../../shared/utf16';

/** Shorter strings go through JSON.stringify with their neighbours. */
const LONG_CHARS = 64 * 1024;
/** The stretch of a long string escaped at a time. */
const STRETCH_CHARS = 16 * 1024;
/** What JSON.stringify writes differently from the string itself (lone surrogates included). */
// eslint-disable-next-line no-control-regex
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The JSON text of `value` (`null` for a value JSON cannot write), in pieces. */
export function jsonPieces(value: unknown): string[] {
  const pieces: string[] = [];
  const holders = new Set<object>();
  markLongStrings(value, 0, holders);
  write(value, pieces, holders);
  return pieces;
}

/** UTF-8 size of the pieces' text. */
export function piecesBytes(pieces: readonly string[]): number {
  let bytes = 0;
  for (const piece of pieces) bytes += Buffer.byteLength(piece, 'utf8');
  return bytes;
}

const HASH_STRETCH_CHARS = 256 * 1024;

/** UTF-8 size and sha-256 of the pieces' text (the size counted here unless already known). */
export function measurePieces(
  pieces: readonly string[],
  bytes = piecesBytes(pieces),
): { bytes: number; sha256: string } {
  const hash = createHash('sha256');
  // A long piece is hashed a stretch at a time: a 4 MB piece at once took 19-22 ms here, in
  // stretches 3-7.
  for (const piece of pieces)
    for (let start = 0; start < piece.length;) {
      const end = stretchEnd(piece, start, HASH_STRETCH_CHARS);
      hash.update(piece.slice(start, end), 'utf8');
      start = end;
    }
  return { bytes, sha256: hash.digest('hex') };
}

const MAX_DEPTH = 64;

/**
 * Whether a string long enough to be its own piece lies in `value` (a tree from JSON.parse); each
 * array and object that holds one, at any depth, goes into `holders`. One walk of the tree.
 */
function markLongStrings(value: unknown, depth: number, holders: Set<object>): boolean {
  if (typeof value === 'string') return value.length >= LONG_CHARS;
  if (depth >= MAX_DEPTH || !isPlain(value)) return false;
  let found = false;
  for (const item of Object.values(value)) {
    if (markLongStrings(item, depth + 1, holders)) found = true;
  }
  if (found) holders.add(value);
  return found;
}

/** Arrays and objects JSON.stringify writes from their own keys (no toJSON of their own). */
function isPlain(value: unknown): value is object {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function' &&
    (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype)
  );
}

function write(value: unknown, pieces: string[], holders: ReadonlySet<object>): void {
  if (typeof value === 'string' && value.length >= LONG_CHARS) {
    if (ESCAPED.test(value)) writeEscaped(value, pieces);
    else pieces.push('"', value, '"');
  } else if (isPlain(value) && holders.has(value)) {
    if (Array.isArray(value)) {
      pieces.push('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) pieces.push(',');
        const item: unknown = value[i];
        // A value JSON cannot write is null in a list, as JSON.stringify writes it.
        if (writable(item)) write(item, pieces, holders);
        else pieces.push('null');
      }
      pieces.push(']');
    } else {
      pieces.push('{');
      let first = true;
      for (const [key, item] of Object.entries(value)) {
        if (!writable(item)) continue;
        pieces.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        write(item, pieces, holders);
      }
      pieces.push('}');
    }
  } else {
    pieces.push(JSON.stringify(value) ?? 'null');
  }
}

/**
 * A string's JSON a stretch at a time: each stretch's escapes are those of the whole, since JSON
 * escapes a character by itself, except the halves of a surrogate pair, which stay together.
 */
function writeEscaped(value: string, pieces: string[]): void {
  pieces.push('"');
  for (let start = 0; start < value.length;) {
    const end = stretchEnd(value, start, STRETCH_CHARS);
    pieces.push(JSON.stringify(value.slice(start, end)).slice(1, -1));
    start = end;
  }
  pieces.push('"');
}

/** Where a stretch of about `size` from `start` ends: never between the halves of a pair. */
function stretchEnd(text: string, start: number, size: number): number {
  const end = Math.min(start + size, text.length);
  return isHighSurrogate(text.charCodeAt(end - 1)) ? end + 1 : end;
}

/** Whether JSON.stringify writes `value` (a field it cannot write is left out of an object). */
function writable(value: unknown): boolean {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return false;
  if (typeof value !== 'object' || value === null || isPlain(value)) return true;
  return JSON.stringify(value) !== undefined;
}
