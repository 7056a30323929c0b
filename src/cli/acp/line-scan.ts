// What a line is, read from its bytes without building it. One pass checks that the line is exactly
// one JSON value as RFC 8259 has it (no trailing data, no control character or bad escape in a
// string, no leading zero, nothing a lenient parser would repair), and notes where the value of each
// member of the top-level object lies and, when `params` is an object, of each of its members. Keys
// are compared decoded, so `"\u006dethod"` is `method`. A key that appears twice at either level is
// noted: such a line does not say one thing (parsers differ on which of the two they keep).
// Nothing is decoded but keys and the few values the relay asks for; the bytes are forwarded as they
// came, so what the relay read is what the other side reads.

/** Where a member's value lies in the line: [start, end) byte offsets, and its first byte. */
export interface Span {
  start: number;
  end: number;
  /** '{', '[', '"', 't', 'f', 'n' or a number's first character. */
  first: number;
}

export interface Scanned {
  /** The top-level object's members by decoded key; null when the value is not an object. */
  members: Map<string, Span> | null;
  /** `params`' members by decoded key, when `params` is an object. */
  params: Map<string, Span> | null;
  /** A key appears twice in the top-level object or in `params`. */
  duplicateKey: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
/** Nesting past this is no message an agent sends (the core refuses past 64); the line is not read. */
export const MAX_SCAN_DEPTH = 1024;

class Invalid extends Error {}
const INVALID = new Invalid('not one JSON value');

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
const isHex = (b: number) =>
  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

class Scanner {
  at = 0;
  constructor(private readonly bytes: Buffer) {}

  space(): void {
    const { bytes } = this;
    while (this.at < bytes.length && isSpace(bytes[this.at]!)) this.at++;
  }

  expect(byte: number): void {
    if (this.bytes[this.at] !== byte) throw INVALID;
    this.at++;
  }

  /** A string from its opening quote; returns whether it held an escape. */
  string(): boolean {
    const { bytes } = this;
    this.expect(QUOTE);
    let escaped = false;
    for (;;) {
      if (this.at >= bytes.length) throw INVALID;
      const b = bytes[this.at++]!;
      if (b === QUOTE) return escaped;
      if (b < 0x20) throw INVALID;
      if (b !== BACKSLASH) continue;
      escaped = true;
      const e = bytes[this.at++];
      if (e === 0x75) {
        for (let i = 0; i < 4; i++) if (!isHex(bytes[this.at++] ?? -1)) throw INVALID;
      } else if (
        e !== QUOTE &&
        e !== BACKSLASH &&
        e !== 0x2f &&
        e !== 0x62 &&
        e !== 0x66 &&
        e !== 0x6e &&
        e !== 0x72 &&
        e !== 0x74
      ) {
        throw INVALID;
      }
    }
  }

  number(): void {
    const { bytes } = this;
    if (bytes[this.at] === MINUS) this.at++;
    if (bytes[this.at] === 0x30) this.at++;
    else if (isDigit(bytes[this.at] ?? -1)) while (isDigit(bytes[this.at] ?? -1)) this.at++;
    else throw INVALID;
    if (bytes[this.at] === 0x2e) {
      this.at++;
      if (!isDigit(bytes[this.at] ?? -1)) throw INVALID;
      while (isDigit(bytes[this.at] ?? -1)) this.at++;
    }
    if (bytes[this.at] === 0x65 || bytes[this.at] === 0x45) {
      this.at++;
      if (bytes[this.at] === 0x2b || bytes[this.at] === MINUS) this.at++;
      if (!isDigit(bytes[this.at] ?? -1)) throw INVALID;
      while (isDigit(bytes[this.at] ?? -1)) this.at++;
    }
  }

  literal(word: string): void {
    for (let i = 0; i < word.length; i++) this.expect(word.charCodeAt(i));
  }

  /**
   * Any value, nested to any depth without recursion: a stack of the containers it is inside.
   * Objects' keys below the levels the caller reads are checked as strings, not compared.
   */
  value(): Span {
    const { bytes } = this;
    const start = this.at;
    const first = bytes[start] ?? -1;
    const stack: number[] = [];
    for (;;) {
      this.space();
      const b = bytes[this.at];
      if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        if (stack.length >= MAX_SCAN_DEPTH) throw INVALID;
        this.at++;
        this.space();
        const close = b === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
        if (bytes[this.at] === close) {
          this.at++;
        } else {
          stack.push(b);
          if (b === OPEN_BRACE) this.key();
          continue;
        }
      } else if (b === QUOTE) {
        this.string();
      } else if (b === 0x74) {
        this.literal('true');
      } else if (b === 0x66) {
        this.literal('false');
      } else if (b === 0x6e) {
        this.literal('null');
      } else if (b === MINUS || isDigit(b ?? -1)) {
        this.number();
      } else {
        throw INVALID;
      }
      // A value ended: close what it ends, or move to the next member or element.
      for (;;) {
        if (stack.length === 0) return { start, end: this.at, first };
        this.space();
        const open = stack.at(-1)!;
        const next = bytes[this.at];
        if (next === COMMA) {
          this.at++;
          if (open === OPEN_BRACE) this.key();
          break;
        }
        if (next !== (open === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) throw INVALID;
        this.at++;
        stack.pop();
      }
    }
  }

  /** A key and its colon, inside an object being walked by `value`. */
  private key(): void {
    this.space();
    this.string();
    this.space();
    this.expect(COLON);
  }

  /** An object's members, its keys decoded; `onMember` reads each value and returns its span. */
  members(onMember: (key: string) => Span): { members: Map<string, Span>; duplicate: boolean } {
    const members = new Map<string, Span>();
    let duplicate = false;
    this.expect(OPEN_BRACE);
    this.space();
    if (this.bytes[this.at] === CLOSE_BRACE) {
      this.at++;
      return { members, duplicate };
    }
    for (;;) {
      this.space();
      const keyStart = this.at;
      const escaped = this.string();
      const key = escaped
        ? (JSON.parse(this.bytes.toString('utf8', keyStart, this.at)) as string)
        : this.bytes.toString('utf8', keyStart + 1, this.at - 1);
      this.space();
      this.expect(COLON);
      this.space();
      const span = onMember(key);
      if (members.has(key)) duplicate = true;
      else members.set(key, span);
      this.space();
      const next = this.bytes[this.at++];
      if (next === CLOSE_BRACE) return { members, duplicate };
      if (next !== COMMA) throw INVALID;
    }
  }
}

/** What a line holds (its "\n" and a "\r" before it may be included); null if not one JSON value. */
export function scanLine(line: Buffer): Scanned | null {
  const scanner = new Scanner(line);
  try {
    scanner.space();
    let result: Scanned;
    if (line[scanner.at] === OPEN_BRACE) {
      let params: Map<string, Span> | null = null;
      let duplicateKey = false;
      const top = scanner.members((key) => {
        if (key !== 'params' || line[scanner.at] !== OPEN_BRACE) return scanner.value();
        const start = scanner.at;
        const inner = scanner.members(() => scanner.value());
        // A second `params` is a duplicate at the top; its members are not the ones kept.
        if (params === null) params = inner.members;
        duplicateKey ||= inner.duplicate;
        return { start, end: scanner.at, first: OPEN_BRACE };
      });
      result = { members: top.members, params, duplicateKey: duplicateKey || top.duplicate };
    } else {
      scanner.value();
      result = { members: null, params: null, duplicateKey: false };
    }
    scanner.space();
    return scanner.at === line.length ? result : null;
  } catch (error) {
    if (error instanceof Invalid) return null;
    throw error;
  }
}

/** The value of a span, decoded (a string, number, or anything small the relay reads). */
export function valueOf(line: Buffer, span: Span): unknown {
  if (span.first === QUOTE) {
    const inner = line.subarray(span.start + 1, span.end - 1);
    if (!inner.includes(BACKSLASH)) return inner.toString('utf8');
  }
  return JSON.parse(line.toString('utf8', span.start, span.end));
}
