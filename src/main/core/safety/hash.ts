// The content hash of a diff, so the full text can be fetched or verified after the dialog showed
// a truncated copy.
import { createHash } from 'node:crypto';
import { isWellFormed } from './text';

const DOMAIN = Buffer.from('gatehouse.diff.v1\n', 'utf8');

/**
 * Lower-case hex sha-256 over a framing that is injective, so no two (old, new) pairs can hash the
 * same by moving text from one side to the other or by swapping null and '':
 *
 *   "gatehouse.diff.v1\n" ‖ side(old) ‖ side(new)
 *   side(null)                 = 0x00
 *   side(well-formed string s) = 0x01 ‖ uint64be(byteLength(utf8(s))) ‖ utf8(s)
 *   side(string with lone surrogates) = 0x02 ‖ uint64be(byteLength(utf16le(s))) ‖ utf16le(s)
 *
 * The last case exists because UTF-8 cannot encode a lone surrogate (it would become U+FFFD and
 * collide with a string that really contains U+FFFD).
 */
export function diffHash(oldText: string | null, newText: string | null): string {
  const hash = createHash('sha256');
  hash.update(DOMAIN);
  side(hash, oldText);
  side(hash, newText);
  return hash.digest('hex');
}

function side(hash: ReturnType<typeof createHash>, text: string | null): void {
  if (text === null) {
    hash.update(Uint8Array.of(0x00));
    return;
  }
  const utf8 = isWellFormed(text);
  const encoding = utf8 ? 'utf8' : 'utf16le';
  const header = Buffer.alloc(9);
  header[0] = utf8 ? 0x01 : 0x02;
  header.writeBigUInt64BE(BigInt(Buffer.byteLength(text, encoding)), 1);
  hash.update(header);
  hash.update(text, encoding);
}
