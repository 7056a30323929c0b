// Cutting text by UTF-16 units, as every bound on untrusted text does: a cut never leaves half of
// a surrogate pair, which would show as a replacement character or make invalid JSON for a store.

/** The first half of a surrogate pair: a cut after it would split a character. */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Where a cut keeping `keep` units of `text` may fall: one unit earlier if it would split a pair. */
export function cutAt(text: string, keep: number): number {
  return keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1)) ? keep - 1 : keep;
}
