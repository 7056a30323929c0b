/**
 * Command patterns in rules: `git status`, `npm run test:*`, `rm -rf`.
 *
 * Syntax: words separated by blanks, quoted like the shell (`'a b'`, `"a b"`, `\*`). An unquoted
 * `*` inside a word matches any characters within ONE argv token (never across tokens); every
 * other character is literal. Shell operators (`;`, `|`, `&`, `<`, `>`, `(`, `)`, backquote) are
 * rejected: a pattern describes one simple command, and the line is split before matching.
 */

export type PatternToken =
  { kind: 'literal'; value: string } | { kind: 'wildcard'; re: RegExp; source: string };

export interface CommandPattern {
  tokens: PatternToken[];
}

export type ParseResult = { ok: true; pattern: CommandPattern } | { ok: false; error: string };

export function parseCommandPattern(text: string): ParseResult {
  const tokens: PatternToken[] = [];
  // Each token is built from pieces: literal text, and `*` wildcards.
  let pieces: Array<string | null> | null = null;
  const push = (piece: string | null): void => {
    pieces ??= [];
    pieces.push(piece);
  };
  const flush = (): void => {
    if (pieces === null) return;
    tokens.push(makeToken(pieces));
    pieces = null;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n') {
      flush();
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) return { ok: false, error: 'unterminated single quote' };
      push(text.slice(i + 1, end));
      i = end;
      continue;
    }
    if (c === '"') {
      let value = '';
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1] as string)) j++;
        value += text[j];
      }
      if (j >= text.length) return { ok: false, error: 'unterminated double quote' };
      push(value);
      i = j;
      continue;
    }
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined) return { ok: false, error: 'trailing backslash' };
      push(next);
      i++;
      continue;
    }
    if (c === '*') {
      push(null);
      continue;
    }
    if (';|&<>()`'.includes(c)) {
      return {
        ok: false,
        error: `\`${c}\` is a shell operator; a command pattern describes one simple command (write one rule per command)`,
      };
    }
    push(c);
  }
  flush();
  if (tokens.length === 0) return { ok: false, error: 'the command pattern is empty' };
  return { ok: true, pattern: { tokens } };
}

function makeToken(pieces: Array<string | null>): PatternToken {
  if (!pieces.includes(null)) return { kind: 'literal', value: pieces.join('') };
  const source = pieces.map((p) => (p === null ? '*' : p)).join('');
  const re = new RegExp(
    `^${pieces.map((p) => (p === null ? '[\\s\\S]*' : escapeRegExp(p))).join('')}$`,
  );
  return { kind: 'wildcard', re, source };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export function tokenMatches(token: PatternToken, word: string, caseInsensitive = false): boolean {
  if (token.kind === 'literal') {
    return caseInsensitive
      ? token.value.toLowerCase() === word.toLowerCase()
      : token.value === word;
  }
  return caseInsensitive ? new RegExp(token.re.source, 'i').test(word) : token.re.test(word);
}

/** Count of literal characters: a measure of how specific a pattern is. */
export function patternWeight(pattern: CommandPattern): number {
  return pattern.tokens.reduce(
    (n, t) => n + (t.kind === 'literal' ? t.value.length + 1 : t.source.replace(/\*/g, '').length),
    0,
  );
}

/** Write argv as a pattern that matches exactly these tokens (quotes and escapes as needed). */
export function formatCommandPattern(argv: readonly string[]): string {
  return argv.map(quoteToken).join(' ');
}

function quoteToken(word: string): string {
  if (word === '') return "''";
  // Only characters that are plain in both this syntax and the shell stay unquoted.
  // (A leading `=` is quoted too: tree-sitter-bash cannot parse a bare `==` argument.)
  if (/^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
