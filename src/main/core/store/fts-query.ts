// Turning what a person typed into a fast, safe FTS5 query.
//
// Matching: the input is split on whitespace into words and every word must match (AND). A word is
// tokenized like the indexed text (unicode61: letters and digits; case and Latin diacritics folded), so
// "core.ts" is the phrase "core ts" and must match within one column (title, command or paths). The last
// token of each word matches as a prefix ("tes" finds "tests"); a word of one or two letters matches
// whole tokens only ("rm" finds "rm", not "rmdir"). Words with no letters or digits (lone quotes, "|",
// emoji) are dropped; with nothing left the text filter is ignored. The query is built from folded
// tokens, quoted, so FTS5 operators (OR, NOT, NEAR, *, ^, :, parentheses, quotes) are plain text.
//
// Speed: FTS5 answers a prefix query that no prefix index covers by first merging the postings of every
// matching term, which costs milliseconds per 10k rows. Prefixes of 3 and 5 letters are indexed
// (migrations.ts), so a longer token is looked up by its 3- or 5-letter prefix — read lazily, newest
// first — and the rows found are checked against the full prefix here (wordMatches).

const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}]/u;
const MAX_WORDS = 16;
/** Prefix lengths with an FTS5 prefix index, longest first (keep in step with the schema). */
const INDEXED_PREFIXES = [5, 3];

const foldCache = new Map<string, string>();
/** One character folded as unicode61 with remove_diacritics 2 does for Latin letters. */
function foldChar(ch: string): string {
  let folded = foldCache.get(ch);
  if (folded === undefined) {
    folded = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase() || ch.toLowerCase();
    if (foldCache.size < 10_000) foldCache.set(ch, folded);
  }
  return folded;
}

/** The tokens unicode61 would index for `text` (lowercase, diacritics removed). */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  for (const ch of text) {
    if (ch.charCodeAt(0) < 128) {
      const code = ch.charCodeAt(0);
      if ((code >= 48 && code <= 57) || (code >= 97 && code <= 122)) current += ch;
      else if (code >= 65 && code <= 90) current += String.fromCharCode(code + 32);
      else if (current) {
        tokens.push(current);
        current = '';
      }
    } else if (TOKEN_CHAR.test(ch)) current += foldChar(ch);
    else if (current) {
      tokens.push(current);
      current = '';
    }
  }
  if (current) tokens.push(current);
  return tokens;
}

export interface TextQuery {
  /** FTS5 MATCH expression: a superset of the rows that match. */
  match: string;
  /** Words whose full prefix the index did not check; every row found must pass wordMatches for each. */
  checks: string[][];
}

const quote = (tokens: string[]) => `"${tokens.join(' ').replaceAll('"', '""')}"`;

export function textQuery(input: string): TextQuery | null {
  const words = input
    .split(/\s+/u)
    .map(tokenize)
    .filter((tokens) => tokens.length > 0)
    .slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  const parts: string[] = [];
  const checks: string[][] = [];
  for (const tokens of words) {
    const head = tokens.slice(0, -1);
    const last = tokens[tokens.length - 1]!;
    if (last.length <= 2) {
      // Whole token when alone; inside a phrase the FTS query drops it and the check keeps it as a prefix.
      if (head.length === 0) parts.push(quote([last]));
      else {
        parts.push(quote(head));
        checks.push(tokens);
      }
      continue;
    }
    const indexed = INDEXED_PREFIXES.find((n) => n <= last.length)!;
    parts.push(`${quote([...head, last.slice(0, indexed)])}*`);
    if (last.length > indexed) checks.push(tokens);
  }
  return { match: parts.join(' '), checks };
}

/** Whether `tokens` (a word: tokens in a row, the last a prefix) occur in the token list of one column. */
function phraseIn(column: string[], tokens: string[]): boolean {
  const n = tokens.length;
  const last = tokens[n - 1]!;
  for (let i = 0; i + n <= column.length; i++) {
    let ok = true;
    for (let j = 0; j < n - 1 && ok; j++) ok = column[i + j] === tokens[j];
    if (ok && column[i + n - 1]!.startsWith(last)) return true;
  }
  return false;
}

/** The check for one row: every word of `checks` occurs in one of its columns. */
export function wordMatches(columns: string[], checks: string[][]): boolean {
  const tokenized = columns.map(tokenize);
  return checks.every((word) => tokenized.some((column) => phraseIn(column, word)));
}
