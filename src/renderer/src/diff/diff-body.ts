// What a file change draws (a diff, a whole file, a summary) and its line counts. No DOM.
import type { Change, Chunk } from '@codemirror/merge';
import type { Text } from '@codemirror/state';
import type { PreparedDiff } from '../../../shared/domain';

export interface Stats {
  added: number;
  removed: number;
}

export type Body =
  | { kind: 'binary' }
  | { kind: 'summary'; text: string }
  | { kind: 'whole'; side: 'inserted' | 'deleted'; text: string }
  | { kind: 'diff'; oldText: string; newText: string };

/** What to draw: a diff only when both sides have text; a whole file when one side is empty. */
export function bodyOf(diff: PreparedDiff): Body {
  if (diff.binary) return { kind: 'binary' };
  const { oldText, newText, change } = diff;
  if (oldText === null && newText === null) {
    if (change === 'delete')
      return {
        kind: 'summary',
        text: 'The file will be deleted. The agent sent no content to show.',
      };
    if (change === 'move')
      return { kind: 'summary', text: 'The file is moved; the agent sent no content change.' };
    return { kind: 'summary', text: 'The agent sent no content for this file.' };
  }
  if (change === 'delete') return { kind: 'whole', side: 'deleted', text: oldText ?? '' };
  if ((oldText === null || oldText === '') && change !== 'move') {
    return newText === '' || newText === null
      ? { kind: 'summary', text: 'An empty file.' }
      : { kind: 'whole', side: 'inserted', text: newText };
  }
  return { kind: 'diff', oldText: oldText ?? '', newText: newText ?? '' };
}

/** A whole file's counts are known up front; a diff's once it is computed. */
export function initialStats(diff: PreparedDiff, body: Body): Stats | null {
  if (body.kind === 'whole') {
    return body.side === 'inserted'
      ? { added: diff.newLines, removed: 0 }
      : { added: 0, removed: diff.oldLines };
  }
  return null;
}

function linesIn(doc: Text, from: number, to: number): number {
  if (to <= from) return 0;
  return doc.lineAt(Math.min(to - 1, doc.length)).number - doc.lineAt(from).number + 1;
}

/** Lines added and removed by a merge view's chunks. */
export function statsOf(chunks: readonly Chunk[], a: Text, b: Text): Stats {
  let added = 0;
  let removed = 0;
  for (const c of chunks) {
    removed += linesIn(a, c.fromA, c.toA);
    added += linesIn(b, c.fromB, c.toB);
  }
  return { added, removed };
}

export type LineRange = [number, number];

/** 1-based inclusive line ranges each side's changes touch, sorted and merged. */
export function changedLines(
  changes: readonly Change[],
  a: Text,
  b: Text,
): [LineRange[], LineRange[]] {
  const side = (doc: Text, pick: (c: Change) => [number, number]) => {
    const ranges: LineRange[] = [];
    for (const c of changes) {
      const [from, to] = pick(c);
      if (to <= from) continue;
      const first = doc.lineAt(from).number;
      const last = doc.lineAt(Math.max(from, to - 1)).number;
      const prev = ranges[ranges.length - 1];
      if (prev && first <= prev[1] + 1) prev[1] = Math.max(prev[1], last);
      else ranges.push([first, last]);
    }
    return ranges;
  };
  return [side(a, (c) => [c.fromA, c.toA]), side(b, (c) => [c.fromB, c.toB])];
}

/** Lines in all the ranges. */
export const lineCount = (ranges: readonly LineRange[]) =>
  ranges.reduce((n, [from, to]) => n + to - from + 1, 0);
