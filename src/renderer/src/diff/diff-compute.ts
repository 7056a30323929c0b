// The diff itself, shared by the worker and the in-place path. No DOM.
//
// @codemirror/merge's diff is character-level Myers: exact and pleasant on small texts, but on a
// large text that changed a lot it runs for tens of seconds (its timeout does not bound it: a
// 100k-line rewrite took 25 s with a 500 ms timeout here). Large texts are therefore diffed by
// lines first — patience anchors (lines unique on both sides), a bounded LCS between them, one
// replacement where nothing is bounded — and only the small changed blocks are refined to
// characters with the library's diff, so the result looks the same where it matters.
import { Change, presentableDiff } from '@codemirror/merge';

export interface Computed {
  changes: readonly Change[];
  ms: number;
  /** Old-side lines a unified view would draw as removed, in all and in its largest block. */
  removed: { largest: number; total: number };
}

/** Up to this many characters (both sides), the character-level diff runs on the whole text. */
const CHARACTER_DIFF_MAX = 8_000;
/** A changed block is refined to characters when both sides together are at most this long. */
const REFINE_BLOCK_MAX = 4_000;
/** Characters refined in all, so a file with thousands of small changes stays bounded. */
const REFINE_TOTAL_MAX = 400_000;
/** Cells of the LCS table between two anchors; beyond it the gap is one replacement. */
const LCS_MAX_CELLS = 1_000_000;

export function computeChanges(a: string, b: string, timeoutMs: number): Computed {
  const started = performance.now();
  const changes =
    a.length + b.length <= CHARACTER_DIFF_MAX
      ? presentableDiff(a, b, { timeout: timeoutMs })
      : lineDiff(a, b);
  return { changes, ms: performance.now() - started, removed: removedBlocks(a, changes) };
}

interface Lines {
  /** Line ids: equal lines, equal ids. */
  ids: Int32Array;
  /** Offset of each line's start, plus the text length at the end. */
  starts: Int32Array;
}

function splitLines(text: string, intern: Map<string, number>): Lines {
  const starts: number[] = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  if (starts[starts.length - 1] !== text.length) starts.push(text.length);
  const count = starts.length - 1;
  const ids = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const line = text.slice(starts[i], starts[i + 1]);
    let id = intern.get(line);
    if (id === undefined) {
      id = intern.size;
      intern.set(line, id);
    }
    ids[i] = id;
  }
  return { ids, starts: Int32Array.from(starts) };
}

/** Line ranges [aFrom, aTo) replaced by [bFrom, bTo). */
type Block = [number, number, number, number];

function lineDiff(a: string, b: string): Change[] {
  const intern = new Map<string, number>();
  const A = splitLines(a, intern);
  const B = splitLines(b, intern);
  const blocks: Block[] = [];
  diffRange(A.ids, 0, A.ids.length, B.ids, 0, B.ids.length, blocks, new Scratch(intern.size));
  blocks.sort((x, y) => x[0] - y[0] || x[2] - y[2]);

  const out: Change[] = [];
  let refineBudget = REFINE_TOTAL_MAX;
  for (const [af, at, bf, bt] of blocks) {
    const fromA = A.starts[af]!;
    const toA = A.starts[at]!;
    const fromB = B.starts[bf]!;
    const toB = B.starts[bt]!;
    const size = toA - fromA + (toB - fromB);
    if (toA > fromA && toB > fromB && size <= REFINE_BLOCK_MAX && size <= refineBudget) {
      refineBudget -= size;
      for (const c of presentableDiff(a.slice(fromA, toA), b.slice(fromB, toB))) {
        out.push(new Change(c.fromA + fromA, c.toA + fromA, c.fromB + fromB, c.toB + fromB));
      }
    } else {
      out.push(new Change(fromA, toA, fromB, toB));
    }
  }
  return out;
}

/** Adds the changed blocks between a[aLo, aHi) and b[bLo, bHi). */
function diffRange(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
  out: Block[],
  scratch: Scratch,
): void {
  // Work list instead of recursion: a long file can have thousands of anchored gaps.
  const stack: Block[] = [[aLo, aHi, bLo, bHi]];
  while (stack.length > 0) {
    let [al, ah, bl, bh] = stack.pop()!;
    while (al < ah && bl < bh && a[al] === b[bl]) {
      al++;
      bl++;
    }
    while (al < ah && bl < bh && a[ah - 1] === b[bh - 1]) {
      ah--;
      bh--;
    }
    if (al === ah || bl === bh) {
      if (al < ah || bl < bh) out.push([al, ah, bl, bh]);
      continue;
    }
    const anchors = patienceAnchors(a, al, ah, b, bl, bh, scratch);
    if (anchors.length > 0) {
      let pa = al;
      let pb = bl;
      for (const [ia, ib] of anchors) {
        if (ia > pa || ib > pb) stack.push([pa, ia, pb, ib]);
        pa = ia + 1;
        pb = ib + 1;
      }
      if (ah > pa || bh > pb) stack.push([pa, ah, pb, bh]);
      continue;
    }
    if ((ah - al) * (bh - bl) <= LCS_MAX_CELLS) lcsBlocks(a, al, ah, b, bl, bh, out);
    else out.push([al, ah, bl, bh]);
  }
}

/** Per-line-id counters reused by every range (reset after use, so each range costs its size). */
class Scratch {
  readonly countA: Int32Array;
  readonly countB: Int32Array;
  readonly atB: Int32Array;
  constructor(size: number) {
    this.countA = new Int32Array(size);
    this.countB = new Int32Array(size);
    this.atB = new Int32Array(size);
  }
}

/** Lines that occur once on each side, in an order both sides agree on (longest such run). */
function patienceAnchors(
  a: Int32Array,
  al: number,
  ah: number,
  b: Int32Array,
  bl: number,
  bh: number,
  scratch: Scratch,
): [number, number][] {
  const { countA, countB, atB } = scratch;
  for (let i = al; i < ah; i++) countA[a[i]!]!++;
  for (let j = bl; j < bh; j++) {
    countB[b[j]!]!++;
    atB[b[j]!] = j;
  }
  const pairs: [number, number][] = [];
  for (let i = al; i < ah; i++) {
    const id = a[i]!;
    if (countA[id] === 1 && countB[id] === 1) pairs.push([i, atB[id]!]);
  }
  for (let i = al; i < ah; i++) countA[a[i]!] = 0;
  for (let j = bl; j < bh; j++) countB[b[j]!] = 0;
  if (pairs.length === 0) return [];
  // Longest increasing subsequence of the b positions (patience sorting).
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const y = pairs[k]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < y) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1]!;
    tails[lo] = k;
  }
  const result: [number, number][] = [];
  for (let k = tails[tails.length - 1]!; k >= 0; k = prev[k]!) result.push(pairs[k]!);
  return result.reverse();
}

/** Exact line LCS for a small gap (the table is bounded by LCS_MAX_CELLS). */
function lcsBlocks(
  a: Int32Array,
  al: number,
  ah: number,
  b: Int32Array,
  bl: number,
  bh: number,
  out: Block[],
): void {
  const n = ah - al;
  const m = bh - bl;
  const table = new Int32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] =
        a[al + i] === b[bl + j]
          ? table[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  let startA = -1;
  let startB = -1;
  const flush = () => {
    if (startA >= 0) out.push([al + startA, al + i, bl + startB, bl + j]);
    startA = -1;
  };
  while (i < n && j < m) {
    if (a[al + i] === b[bl + j]) {
      flush();
      i++;
      j++;
    } else {
      if (startA < 0) {
        startA = i;
        startB = j;
      }
      if (table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!) i++;
      else j++;
    }
  }
  if (i < n || j < m) {
    if (startA < 0) {
      startA = i;
      startB = j;
    }
    i = n;
    j = m;
  }
  flush();
}

/** Line starts of `text`, for line numbers by binary search. */
function lineStarts(text: string): Int32Array {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  const starts = new Int32Array(count);
  let i = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1))
    starts[i++] = at + 1;
  return starts;
}

function lineOf(starts: Int32Array, pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Old-side lines a unified view draws as removed: every line a change touches (a change inside a
 * line shows that whole line as removed and re-added), changes on adjacent lines merged into one
 * block, as the merge view builds its chunks.
 */
export function removedBlocks(
  a: string,
  changes: readonly Change[],
): { largest: number; total: number } {
  if (changes.length === 0) return { largest: 0, total: 0 };
  const starts = lineStarts(a);
  const atLineStart = (pos: number) => pos === 0 || a.charCodeAt(pos - 1) === 10;
  let largest = 0;
  let total = 0;
  let blockFrom = -1;
  let blockTo = -2;
  const close = () => {
    if (blockTo >= blockFrom && blockFrom >= 0) {
      const size = blockTo - blockFrom + 1;
      largest = Math.max(largest, size);
      total += size;
    }
  };
  for (const c of changes) {
    // Whole lines inserted between two lines touch no old line.
    if (c.fromA === c.toA && atLineStart(c.fromA)) continue;
    const from = lineOf(starts, c.fromA);
    const to =
      c.toA > c.fromA && atLineStart(c.toA) ? lineOf(starts, c.toA) - 1 : lineOf(starts, c.toA);
    if (from <= blockTo + 1 && blockFrom >= 0) {
      blockTo = Math.max(blockTo, to);
    } else {
      close();
      blockFrom = from;
      blockTo = to;
    }
  }
  close();
  return { largest, total };
}
