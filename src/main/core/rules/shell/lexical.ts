/**
 * Quote removal and the small lexical facts about words that the analyser needs. Pure string
 * functions, so they can be tested without the parser (words.ts evaluates the parsed words).
 *
 * A "skeleton" is the word's unquoted source with every quoted or escaped character replaced by
 * NUL: glob and brace detection must only see characters the shell would interpret.
 */

export const QUOTED = '\u0000';

/** An unquoted `word` node: backslash escapes the next character, backslash-newline vanishes. */
export function unquoteBare(text: string): { value: string; skeleton: string } {
  let value = '';
  let skeleton = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1];
      i++;
      if (next === undefined) {
        value += '\\';
        skeleton += QUOTED;
      } else if (next !== '\n') {
        value += next;
        skeleton += QUOTED;
      }
      continue;
    }
    value += c;
    skeleton += c;
  }
  return { value, skeleton };
}

/** Inside double quotes a backslash only escapes `$`, backquote, `"`, `\` and newline. */
export function unescapeDoubleQuoted(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') out += next;
      i++;
      continue;
    }
    out += c;
  }
  return out;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\u0007',
  b: '\b',
  e: '\u001b',
  E: '\u001b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * Decode the body of `$'…'` exactly as bash does, or return null when we cannot be sure of the
 * result (`\c` control escapes, a NUL that bash would truncate at, invalid code points).
 */
export function decodeAnsiC(body: string): string | null {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) return null;
    i++;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    let code: number;
    const rest = body.slice(i + 1);
    if (e >= '0' && e <= '7') {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))?.[0] ?? e;
      code = parseInt(digits, 8) & 0xff;
      i += digits.length - 1;
    } else if (e === 'x') {
      const digits = /^[0-9a-fA-F]{1,2}/.exec(rest)?.[0];
      if (digits === undefined) return null;
      code = parseInt(digits, 16);
      i += digits.length;
    } else if (e === 'u' || e === 'U') {
      const digits = (e === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(rest)?.[0];
      if (digits === undefined) return null;
      code = parseInt(digits, 16);
      i += digits.length;
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
    } else if (e === 'c') {
      return null;
    } else {
      // Unknown escapes keep their backslash in bash.
      out += `\\${e}`;
      continue;
    }
    // bash stops the string at NUL; rather than mimic that, refuse.
    if (code === 0) return null;
    // \x and octal produce bytes; bytes >= 0x80 would be raw (possibly invalid UTF-8) bytes.
    if (e !== 'u' && e !== 'U' && code >= 0x80) return null;
    out += String.fromCodePoint(code);
  }
  return out;
}

/** Index of the quote that closes a `$'…'` token as bash reads it (backslash escapes anything), or -1. */
export function ansiCEnd(text: string): number {
  for (let i = 2; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === "'") return i;
  }
  return -1;
}

/** Unquoted `*`, `?` or a bracket expression: pathname expansion may change the word. */
export function hasGlob(skeleton: string): boolean {
  return /[*?]/.test(skeleton) || /\[[^\]]*\]/.test(skeleton);
}

/** Unquoted `{a,b}` or `{1..3}`: brace expansion turns one word into several. */
export function hasBraceExpansion(skeleton: string): boolean {
  return /\{[^{}]*(,|\.\.)[^{}]*\}/.test(skeleton);
}

/**
 * `${…}` forms whose only effect is "a value we do not know": `${x}`, `${#x}`, `${x:-word}` and
 * friends with a plain word. Excluded on purpose: `${!x}` (indirection), subscripts and
 * `${x:off:len}` (both arithmetic, which can run code through array subscripts), nested
 * expansions.
 */
const SAFE_BRACED_EXPANSION =
  /^\$\{#?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!0-])(?:(?::?[-+?=]|##?|%%?)[^`$(){}[\]\\'"]*)?\}$/;

export function isSafeBracedExpansion(text: string): boolean {
  return SAFE_BRACED_EXPANSION.test(text);
}

/**
 * Characters that change how text looks without changing what runs (or the reverse): C0/C1
 * controls other than tab and newline, soft hyphen, zero-width and joiner characters, bidi
 * controls, line/paragraph separators, BOM, tag characters, variation selectors, interlinear
 * annotations, Hangul fillers. Ranges of code points, inclusive.
 */
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x0008],
  [0x000b, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
];

/** The first invisible/control character as `U+XXXX`, or null. */
export function findInvisible(text: string): string | null {
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (INVISIBLE_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi)) {
      return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    }
  }
  return null;
}

export function isAssignmentWord(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}
