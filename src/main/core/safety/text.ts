// Small helpers for reading hostile JSON-shaped values and bounding strings without lying.
import { cutAt } from '../../../shared/utf16';

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own string property, or undefined (never a value from the prototype chain). */
export function stringField(record: JsonRecord, key: string): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(record, key)) return undefined;
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

export function ownField(record: JsonRecord, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/**
 * Cuts `text` to at most `max` UTF-16 units, ending with a marker that says how many were dropped,
 * so a shortened title can never pass for the whole one. Never splits a surrogate pair.
 */
export function truncateWithMarker(text: string, max: number): string {
  if (text.length <= max) return text;
  // The marker is sized for the worst case so the result never exceeds `max`.
  const worstMarker = marker(text.length);
  const keep = cutAt(text, Math.max(0, max - worstMarker.length));
  return text.slice(0, keep) + marker(text.length - keep);
}

function marker(omitted: number): string {
  return `…[truncated: ${omitted} more chars]`;
}

/** A short, single-line excerpt for messages (the full text is shown elsewhere). */
export function excerpt(text: string, max = 80): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  if (oneLine.length <= max) return oneLine;
  return `${oneLine.slice(0, cutAt(oneLine, max - 1))}…`;
}

/** Last path segment, for either separator (agents on Windows send backslashes). */
export function baseName(p: string): string {
  const trimmed = p.replace(/[/\\]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut === -1 ? trimmed : trimmed.slice(cut + 1);
}

/** 1-based line number of `index` in `text`. */
export function lineOf(text: string, index: number): number {
  let line = 1;
  let at = text.indexOf('\n');
  while (at !== -1 && at < index) {
    line += 1;
    at = text.indexOf('\n', at + 1);
  }
  return line;
}

/** A well-formed string has no lone surrogates (so UTF-8 encoding is lossless). */
export function isWellFormed(text: string): boolean {
  const native = (text as unknown as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof native === 'function') return native.call(text);
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}
