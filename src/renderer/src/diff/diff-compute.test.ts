import { Change } from '@codemirror/merge';
import { describe, expect, it } from 'vitest';
import { computeChanges, removedBlocks } from './diff-compute';

/** The changes are a diff of a and b: in order, apart, and b is a with each one applied. */
function expectDiffOf(a: string, b: string, changes: readonly Change[]): void {
  let atA = 0;
  let atB = 0;
  let rebuilt = '';
  for (const c of changes) {
    expect(c.fromA).toBeGreaterThanOrEqual(atA);
    expect(c.fromB).toBeGreaterThanOrEqual(atB);
    // What lies between two changes is the same on both sides.
    expect(b.slice(atB, c.fromB)).toBe(a.slice(atA, c.fromA));
    rebuilt += a.slice(atA, c.fromA) + b.slice(c.fromB, c.toB);
    atA = c.toA;
    atB = c.toB;
  }
  expect(b.slice(atB)).toBe(a.slice(atA));
  expect(rebuilt + a.slice(atA)).toBe(b);
}

const lines = (count: number, line: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => `${line(i)}\n`).join('');

/** A deterministic pseudo-random sequence, so a failure can be reproduced. */
function random(start: number): () => number {
  let state = start;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('computeChanges', () => {
  it('finds nothing between equal texts', () => {
    const text = lines(50, (i) => `line ${i}`);
    expect(computeChanges(text, text, 100).changes).toEqual([]);
  });

  it('diffs small texts by character', () => {
    const a = 'const value = 20;\n';
    const b = 'const value = 21;\n';
    const { changes } = computeChanges(a, b, 100);
    expectDiffOf(a, b, changes);
    expect(changes).toHaveLength(1);
    expect(b.slice(changes[0]!.fromB, changes[0]!.toB)).toBe('1');
  });

  it('diffs large texts by line, and refines a small changed line to characters', () => {
    const a = lines(2_000, (i) => `export const value${i} = ${i};`);
    const b = a.replace('value1000 = 1000;', 'value1000 = 1001;');
    expect(a.length).toBeGreaterThan(8_000);
    const { changes } = computeChanges(a, b, 100);
    expectDiffOf(a, b, changes);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.toA - changes[0]!.fromA).toBeLessThanOrEqual(4);
  });

  it('keeps unchanged lines between scattered edits, inserts and deletions', () => {
    const next = random(7);
    const source = Array.from({ length: 3_000 }, (_, i) => `row ${i}: ${Math.floor(next() * 1e6)}`);
    const edited: string[] = [];
    for (const [i, line] of source.entries()) {
      const roll = next();
      if (roll < 0.02) continue;
      if (roll < 0.04) edited.push(`${line} (edited)`);
      else edited.push(line);
      if (i % 250 === 0) edited.push('inserted line');
    }
    const a = source.join('\n');
    const b = edited.join('\n');
    const { changes } = computeChanges(a, b, 100);
    expectDiffOf(a, b, changes);
    const changedChars = changes.reduce((n, c) => n + (c.toA - c.fromA) + (c.toB - c.fromB), 0);
    expect(changedChars).toBeLessThan((a.length + b.length) / 4);
  });

  it('makes one replacement where two large sides share no line', () => {
    const a = lines(1_500, (i) => `old ${i}`);
    const b = lines(1_500, (i) => `new ${i}`);
    const { changes } = computeChanges(a, b, 100);
    expectDiffOf(a, b, changes);
    expect(changes).toHaveLength(1);
  });

  it('counts the removed lines a unified view would draw', () => {
    const a = lines(2_000, (i) => `line ${i}`);
    const b = a.replace('line 10\nline 11\n', '').replace('line 500\n', 'line five hundred\n');
    const { changes, removed } = computeChanges(a, b, 100);
    expectDiffOf(a, b, changes);
    expect(removed).toEqual({ largest: 2, total: 3 });
  });
});

describe('removedBlocks', () => {
  const a = 'one\ntwo\nthree\nfour\nfive\n';
  const at = (line: string) => a.indexOf(line);

  it('is empty without changes', () => {
    expect(removedBlocks(a, [])).toEqual({ largest: 0, total: 0 });
  });

  it('counts a change inside a line as that whole line', () => {
    const c = new Change(at('two') + 1, at('two') + 2, 0, 1);
    expect(removedBlocks(a, [c])).toEqual({ largest: 1, total: 1 });
  });

  it('touches no old line when whole lines are inserted between two lines', () => {
    const c = new Change(at('three'), at('three'), 0, 6);
    expect(removedBlocks(a, [c])).toEqual({ largest: 0, total: 0 });
  });

  it('merges changes on adjacent lines into one block, keeps apart ones apart', () => {
    const two = new Change(at('two'), at('three'), 0, 0);
    const three = new Change(at('three') + 1, at('three') + 2, 0, 1);
    const five = new Change(at('five'), at('five') + 4, 0, 2);
    expect(removedBlocks(a, [two, three, five])).toEqual({ largest: 2, total: 3 });
  });

  it('does not count the line after a removal that ends at a line start', () => {
    const c = new Change(at('two'), at('four'), 0, 0);
    expect(removedBlocks(a, [c])).toEqual({ largest: 2, total: 2 });
  });
});
