/**
 * Checks on a whole syntax tree before it is walked: does it fit the budget, and does
 * tree-sitter's reading of the source match bash's. One cursor pass each, no recursion.
 */
import type { Node } from 'web-tree-sitter';
import { MAX_SUBSTITUTIONS, MAX_TREE_NODES, type Run } from './context';

export const SUBSTITUTION_TYPES = new Set(['command_substitution', 'process_substitution']);

/**
 * Count the tree against the budget before walking it (one cursor pass, no recursion), and
 * record why when it does not fit. Also stops nested code once an earlier part used the budget up.
 */
export function withinBudget(root: Node, run: Run): boolean {
  if (run.exceeded !== null) return false;
  const cursor = root.walk();
  try {
    for (;;) {
      run.nodes++;
      if (SUBSTITUTION_TYPES.has(cursor.nodeType)) run.substitutions++;
      if (run.nodes > MAX_TREE_NODES) {
        run.exceeded = `the command is too complex to analyse (more than ${MAX_TREE_NODES} syntax nodes)`;
        return false;
      }
      if (run.substitutions > MAX_SUBSTITUTIONS) {
        run.exceeded = `the command is too complex to analyse (more than ${MAX_SUBSTITUTIONS} command substitutions)`;
        return false;
      }
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return true;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Children with their field names in one pass: `child(i)` and `fieldNameForChild(i)` each start over from the first child. */
export function childrenWithFields(node: Node): Array<{ node: Node; field: string | null }> {
  const out: Array<{ node: Node; field: string | null }> = [];
  const cursor = node.walk();
  try {
    if (cursor.gotoFirstChild()) {
      do out.push({ node: cursor.currentNode, field: cursor.currentFieldName });
      while (cursor.gotoNextSibling());
    }
  } finally {
    cursor.delete();
  }
  return out;
}

/** Nodes whose text we read from the source as a whole (their children may leave gaps). */
const WHOLE_TEXT_NODES = new Set([
  'string',
  'heredoc_body',
  'expansion',
  'raw_string',
  'ansi_c_string',
]);

/**
 * Where tree-sitter's reading of the source provably differs from bash's, or null.
 *
 * - Non-blank text no token covers: tree-sitter-bash drops an escaped blank at the start of a word
 *   (`\ r` becomes `r`, `a \  b` loses its middle argument).
 * - A line continuation glued to the text before it: bash removes backslash-newline BEFORE it
 *   splits words, so `r\<newline>#x; rm -rf /` is the word `r#x` followed by `rm -rf /`, while
 *   tree-sitter reads a comment. Only `…<blank>\<newline>` continuations are accepted.
 */
export function treeMisreads(root: Node, source: string): string | null {
  const cursor = root.walk();
  let pos = 0;
  let problem: string | null = null;
  const gap = (end: number): void => {
    if (end <= pos || problem) return;
    const text = source.slice(pos, end);
    if (!/^(?:[ \t\n]|\\\n)*$/.test(text)) {
      problem = 'the parser skipped part of the command';
      return;
    }
    for (let k = text.indexOf('\\\n'); k !== -1; k = text.indexOf('\\\n', k + 2)) {
      const before = source[pos + k - 1];
      if (before !== ' ' && before !== '\t') {
        problem = 'a line continuation (backslash-newline) inside a word or operator';
        return;
      }
    }
  };
  try {
    for (;;) {
      const type = cursor.nodeType;
      if (!WHOLE_TEXT_NODES.has(type) && cursor.gotoFirstChild()) continue;
      gap(cursor.startIndex);
      // A bare word never contains an unescaped blank or newline in bash; tree-sitter glues the
      // next line onto a word after a comment (`r #c⏎\\x`) and reads `] ]` as one word.
      if (type === 'word' && !problem && hasUnescapedBlank(cursor.nodeText)) {
        problem = 'the parser read several words as one';
      }
      // `#` starts a comment only at the start of a word (`r#r` is a word).
      if (type === 'comment' && !problem) {
        const before = source[cursor.startIndex - 1];
        if (before !== undefined && !' \t\n;&|()<>'.includes(before))
          problem = 'the parser read part of a word as a comment';
      }
      pos = Math.max(pos, cursor.endIndex);
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          gap(source.length);
          return problem;
        }
      }
    }
  } finally {
    cursor.delete();
  }
}

function hasUnescapedBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === ' ' || c === '\t' || c === '\n') return true;
  }
  return false;
}

/**
 * Nothing but backslash-newline between two tokens: bash removes line continuations before it
 * splits words, so they are one word (`a\<newline>b` is `ab`).
 */
export function touches(source: string, end: number, start: number): boolean {
  return start === end || (start > end && /^(?:\\\n)+$/.test(source.slice(end, start)));
}

/** A raw newline between two parts of one command: bash would have ended the command there. */
export function splitsLines(source: string, end: number, start: number): boolean {
  return start > end && source.slice(end, start).replace(/\\\n/g, '').includes('\n');
}
