import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPieces, measurePieces } from './json-pieces';

const LONG = 64 * 1024;
const STRETCH = 16 * 1024;
const text = (value: unknown) => JSON.stringify(value) ?? 'null';
const measured = (json: string) => ({
  bytes: Buffer.byteLength(json),
  sha256: createHash('sha256').update(json).digest('hex'),
});

describe('jsonPieces', () => {
  it('joins to JSON.stringify, whatever the value', () => {
    // Long strings among them, plain and with what JSON escapes, at any depth.
    const long = fc.oneof(
      fc.constant('a/'.repeat(LONG)),
      fc.constant(`${'x'.repeat(LONG)}"quoted"\n`),
      fc.constant(`${'é'.repeat(LONG)}\ud800`),
      fc.constant('😀'.repeat(LONG)),
      // Pairs across every boundary of the stretches a long string is escaped in, and lone halves
      // on either side of one.
      fc.constant(`a${'😀'.repeat(LONG)}\n`),
      fc.constant(
        `${'x'.repeat(STRETCH - 1)}\ud800y${'x'.repeat(STRETCH)}\udc00\n${'z'.repeat(LONG)}`,
      ),
      fc.constant(`${'x'.repeat(STRETCH - 1)}\ud83d`),
      // Short enough to be written with its neighbours, into a piece hashed in stretches.
      fc.constant(`a${'😀'.repeat(LONG / 2 - 1)}`),
    );
    const value = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 2 }),
        long,
        fc.constantFrom(undefined, () => 1, Symbol('s'), new Date(0)),
        fc.array(tie('tree'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('tree'), { maxKeys: 4 }),
      ),
    })).tree;
    fc.assert(
      fc.property(value, (v) => {
        const pieces = jsonPieces(v);
        expect(pieces.join('')).toBe(text(v));
        expect(measurePieces(pieces)).toEqual(measured(text(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves a long string that needs no escaping as it is, and measures the text the pieces make', () => {
    const content = 'a/'.repeat(2_000_000);
    const value = { file_path: '/w/big.txt', content, lines: [1, 2] };
    const pieces = jsonPieces(value);
    expect(pieces).toContain(content);
    const json = text(value);
    expect(measurePieces(pieces)).toEqual({
      bytes: Buffer.byteLength(json),
      sha256: createHash('sha256').update(json).digest('hex'),
    });
  });

  it('measures a piece with a surrogate pair where a stretch of its hashing ends', () => {
    const piece = `${'x'.repeat(256 * 1024 - 1)}😀`;
    expect(measurePieces([piece])).toEqual(measured(piece));
  });

  it('escapes a long file of lines a stretch at a time, never as one text', () => {
    const content = 'const a = "b";\n'.repeat(250_000);
    const pieces = jsonPieces({ content });
    expect(pieces.join('')).toBe(text({ content }));
    // One JSON.stringify of the whole string held the core's thread three to ten times as long.
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(2 * STRETCH);
  });

  it('writes a value without long strings in one piece, and null for what JSON cannot write', () => {
    expect(jsonPieces({ a: [1, 'b'] })).toEqual(['{"a":[1,"b"]}']);
    expect(jsonPieces(undefined)).toEqual(['null']);
  });
});
