// prepareDiffs on arbitrary input, and its timing on large edits (printed, not asserted).
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { PreparedDiff, type ToolCallSnapshot } from '../../../shared/domain';
import { computeWarnings, countLines, looksBinary, normalizeToolCall, prepareDiffs } from '.';
import { diffEdit as edit } from './helpers.test-support';

// Property runs are thousands of cases: seconds each on a machine that is busy with other work.
vi.setConfig({ testTimeout: 60_000 });

describe('prepareDiffs — properties', () => {
  it('never throws on arbitrary input', () => {
    const item = fc.oneof(
      fc.anything(),
      fc.record({
        type: fc.constantFrom('diff', 'content', 'terminal', 'x'),
        path: fc.oneof(fc.string(), fc.anything()),
        oldText: fc.oneof(fc.string({ unit: 'binary' }), fc.constant(null), fc.anything()),
        newText: fc.oneof(fc.string({ unit: 'binary' }), fc.anything()),
      }),
    );
    const call = fc.record({
      toolCallId: fc.anything(),
      kind: fc.oneof(fc.constantFrom('edit', 'delete', 'move', 'execute'), fc.anything()),
      rawInput: fc.oneof(
        fc.anything(),
        fc.record({ source: fc.string(), destination: fc.string(), changes: fc.anything() }),
      ),
      locations: fc.oneof(
        fc.anything(),
        fc.array(fc.record({ path: fc.anything(), line: fc.anything() })),
      ),
      content: fc.oneof(fc.anything(), fc.array(item)),
    });
    fc.assert(
      fc.property(
        call,
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 0, max: 8 }),
        (raw, maxBytes, maxLines) => {
          // Both straight from the wire and after normalization.
          for (const tc of [raw as unknown as ToolCallSnapshot, normalizeToolCall(raw)]) {
            for (const d of prepareDiffs(tc, { maxBytes, maxLines })) {
              PreparedDiff.parse(d);
              if (d.truncated && d.newText !== null)
                expect(Buffer.byteLength(d.newText)).toBeLessThanOrEqual(maxBytes);
            }
          }
          expect(() => prepareDiffs(null as unknown as ToolCallSnapshot)).not.toThrow();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never reports plain ASCII text as binary, and never exceeds the limits', () => {
    const ascii = fc.string({
      unit: fc.constantFrom(
        ...' \t\n\r!"#$%&()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~'.split(''),
      ),
      maxLength: 400,
    });
    fc.assert(
      fc.property(
        ascii,
        ascii,
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 20 }),
        (oldText, newText, maxBytes, maxLines) => {
          const [d] = prepareDiffs(
            normalizeToolCall(edit([{ type: 'diff', path: '/p/a.txt', oldText, newText }])),
            { maxBytes, maxLines },
          );
          expect(d?.binary).toBe(false);
          expect(looksBinary(newText)).toBe(false);
          expect(d?.newBytes).toBe(newText.length);
          expect(d?.newLines).toBe(countLines(newText));
          const shown = d?.newText ?? '';
          expect(newText.startsWith(shown)).toBe(true);
          if (d?.truncated) {
            expect(shown.length).toBeLessThanOrEqual(maxBytes);
            expect(countLines(shown)).toBeLessThanOrEqual(maxLines);
          } else {
            expect(shown).toBe(newText);
            expect(d?.oldText).toBe(oldText);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('prepareDiffs — timing (printed, not asserted)', () => {
  it('prepares 10k and 100k line edits', () => {
    for (const lines of [10_000, 100_000]) {
      const oldText = Array.from(
        { length: lines },
        (_, i) => `export const value${i} = ${i}; // some typical source line`,
      ).join('\n');
      const newText = oldText.replace(/value(\d*5) =/g, 'renamed$1 =');
      const raw = edit([{ type: 'diff', path: '/p/big.ts', oldText, newText }]);
      const tc = normalizeToolCall(raw);
      prepareDiffs(tc); // warm up
      const runs = 5;
      const start = performance.now();
      let d: ReturnType<typeof prepareDiffs> = [];
      for (let i = 0; i < runs; i++) d = prepareDiffs(tc);
      const ms = (performance.now() - start) / runs;
      const wStart = performance.now();
      const warnings = computeWarnings({
        toolCall: tc,
        command: null,
        diffs: d,
        sessionCwd: '/p',
        homeDir: '/h',
      });
      const wMs = performance.now() - wStart;
      console.log(
        `prepareDiffs ${lines} lines (${(Buffer.byteLength(oldText) / 1024 / 1024).toFixed(1)} MiB/side): ${ms.toFixed(1)} ms, truncated=${d[0]?.truncated}; computeWarnings on it: ${wMs.toFixed(1)} ms`,
      );
      expect(d).toHaveLength(1);
      expect(warnings).toEqual([]);
    }
  });
});
