// Canonical JSON: the byte-exact text the audit hash is computed over. Object keys are sorted (UTF-16
// order, as Array#sort does), no whitespace, undefined members dropped, numbers and strings as
// JSON.stringify writes them. That is RFC 8785 for the values we hash (strings, finite numbers, null).

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item: unknown = value[i];
      out += item === undefined ? 'null' : canonicalJson(item);
    }
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(key) + ':' + canonicalJson(item);
  }
  return out + '}';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const nativeToWellFormed = (String.prototype as { toWellFormed?: (this: string) => string })
  .toWellFormed;

/**
 * SQLite stores UTF-8, so a lone surrogate comes back as U+FFFD. Strings are made well-formed before they
 * are hashed and stored, so that what the hash covers is exactly what a later read returns.
 */
export function wellFormed(text: string): string {
  return nativeToWellFormed
    ? nativeToWellFormed.call(text)
    : text.replace(LONE_SURROGATE, '\uFFFD');
}

export function wellFormedOrNull(text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : wellFormed(text);
}
