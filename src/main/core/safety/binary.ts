// Is a diff side binary? Agents send file contents as JSON strings, so a binary file arrives
// already decoded: NULs, U+FFFD for invalid UTF-8, lone surrogates and stray control characters.
import { BINARY_SAMPLE_CHARS } from './limits';

/**
 * True when the head of `text` is mostly non-text: at least 10 % of the first 64 KiB (and at least
 * 4 characters) are NUL, other C0 controls (except tab, LF, VT, FF, CR, BS, ESC), DEL, C1 controls,
 * U+FFFD or lone surrogates.
 *
 * A ratio and not "any NUL" on purpose: hiding a script behind one NUL byte must not turn its
 * content into "binary file, not shown". A text with a few control characters stays text and is
 * shown with the characters revealed and flagged. Plain ASCII text is never binary.
 */
export function looksBinary(text: string): boolean {
  const n = Math.min(text.length, BINARY_SAMPLE_CHARS);
  if (n === 0) return false;
  let suspicious = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    if (c < 0x20) {
      if (
        c !== 0x09 &&
        c !== 0x0a &&
        c !== 0x0b &&
        c !== 0x0c &&
        c !== 0x0d &&
        c !== 0x08 &&
        c !== 0x1b
      )
        suspicious++;
    } else if (c <= 0x9f) {
      suspicious++; // DEL and C1: Latin-1-decoded binary
    } else if (c === 0xfffd) {
      suspicious++;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else suspicious++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      suspicious++;
    }
  }
  return suspicious >= 4 && suspicious * 10 >= n;
}
