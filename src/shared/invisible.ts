// Pure (no Node, no DOM): shared by the safety layer and the renderer.
// Characters that change what a person sees without being seen themselves: bidirectional
// controls (Trojan Source), zero-width and other default-ignorable characters, and terminal
// controls. Finding them is how the dialog stays the truth of the request; revealing them is how
// it shows the raw text without letting the text rearrange itself.

export type HiddenClass = 'bidi' | 'zero_width' | 'control';

export interface HiddenChar {
  cls: HiddenClass;
  codePoint: number;
  /** UTF-16 index in the scanned text. */
  index: number;
}

const BIDI = new Set([
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);

// The well-known zero-width characters (soft hyphen, Mongolian vowel separator, ZWSP, ZWNJ, ZWJ,
// word joiner, BOM) plus others that render as nothing in common fonts and serve the same tricks:
// invisible math operators, the combining grapheme joiner, Hangul fillers and the Unicode tag block
// (U+E0000–U+E007F, used to smuggle invisible ASCII into prompts).
const ZERO_WIDTH = new Set([
  0x00ad, 0x034f, 0x115f, 0x1160, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063,
  0x2064, 0x3164, 0xfeff, 0xffa0,
]);

export function classify(cp: number): HiddenClass | null {
  if (BIDI.has(cp)) return 'bidi';
  if (ZERO_WIDTH.has(cp) || (cp >= 0xe0000 && cp <= 0xe007f)) return 'zero_width';
  // C0 except tab, line feed and carriage return; DEL; C1 (0x9B is an 8-bit CSI).
  if ((cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || (cp >= 0x7f && cp <= 0x9f)) {
    return 'control';
  }
  return null;
}

// One pass finds every candidate; `classify` decides. The `u` flag makes astral tags one match.
// Control characters and joiners in the class are the point: each is matched on its own.
const HIDDEN_RE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]/gu;

export function hasHidden(text: string): boolean {
  HIDDEN_RE.lastIndex = 0;
  const found = HIDDEN_RE.test(text);
  HIDDEN_RE.lastIndex = 0;
  return found;
}

/** Hidden characters of `text`, in order, at most `limit`. */
export function findHidden(text: string, limit = 10_000): HiddenChar[] {
  const out: HiddenChar[] = [];
  if (!hasHidden(text)) return out;
  HIDDEN_RE.lastIndex = 0;
  for (let m = HIDDEN_RE.exec(text); m !== null; m = HIDDEN_RE.exec(text)) {
    const cp = m[0].codePointAt(0) ?? 0;
    const cls = classify(cp);
    if (cls) out.push({ cls, codePoint: cp, index: m.index });
    if (out.length >= limit) break;
  }
  HIDDEN_RE.lastIndex = 0;
  return out;
}

export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

const NAMES: Record<number, string> = {
  0x00: 'NULL',
  0x07: 'BELL',
  0x08: 'BACKSPACE',
  0x0b: 'LINE TABULATION',
  0x0c: 'FORM FEED',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0x9d: 'OPERATING SYSTEM COMMAND',
  0x00ad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (BOM)',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
};

/** `U+202E RIGHT-TO-LEFT OVERRIDE`; tag characters and unnamed controls get a generic name. */
export function describeCodePoint(cp: number): string {
  const name =
    NAMES[cp] ??
    (cp >= 0xe0000 && cp <= 0xe007f
      ? 'TAG CHARACTER'
      : cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)
        ? 'CONTROL CHARACTER'
        : '');
  return name ? `${codePointLabel(cp)} ${name}` : codePointLabel(cp);
}

export interface RevealOptions {
  /**
   * 'keep' (default): tab, line feed and CR LF pairs stay as they are, so a multi-line command
   * still reads as lines. 'reveal': they are shown as markers too.
   */
  lineBreaks?: 'keep' | 'reveal';
}

// Everything hidden, plus what `classify` leaves alone but still misleads on screen: lone CR
// (overwrites a line in terminals), the Unicode line/paragraph separators and lone surrogates.
const REVEAL_RE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /\r\n|[\t\n\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Returns `text` with every bidi control, zero-width/invisible character and control character
 * replaced by a visible marker such as `⟨U+202E⟩`, so the dialog can show a raw command exactly
 * as it will run without the text reordering or hiding parts of itself. Pure; safe to render as
 * text (it adds no markup).
 */
export function revealInvisibles(text: string, options: RevealOptions = {}): string {
  const keep = (options.lineBreaks ?? 'keep') === 'keep';
  return text.replace(REVEAL_RE, (m) => {
    if (keep && (m === '\n' || m === '\t' || m === '\r\n')) return m;
    if (m === '\r\n') return '⟨U+000D⟩⟨U+000A⟩';
    return `⟨${codePointLabel(m.codePointAt(0) ?? 0)}⟩`;
  });
}
