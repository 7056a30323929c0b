import { describe, expect, it } from 'vitest';
import { ToolCallSnapshot } from '../../../shared/domain';
import { mergeToolCallUpdate, normalizeToolCall, previewRawInput, synthesizedTitle } from '.';
import { MAX_LOCATIONS, MAX_LOCATIONS_CHARS, TITLE_MAX_CHARS } from './limits';

describe('normalizeToolCall', () => {
  it('keeps a well-formed Gemini edit request as sent', () => {
    const raw = {
      kind: 'edit',
      title: 'Writing to test.txt',
      toolCallId: 'write_file-1768220366439',
      status: 'pending',
      locations: [{ path: '/home/user/project/test.txt' }],
      content: [{ type: 'diff', path: 'test.txt', oldText: '', newText: 'test123' }],
    };
    const snap = normalizeToolCall(raw);
    expect(ToolCallSnapshot.parse(snap)).toEqual(snap);
    expect(snap).toEqual({
      toolCallId: 'write_file-1768220366439',
      kind: 'edit',
      title: 'Writing to test.txt',
      locations: [{ path: '/home/user/project/test.txt', line: null }],
      rawInput: undefined,
      content: raw.content,
    });
    expect(snap.content).toBe(raw.content);
  });

  it.each([
    [undefined, 'other'],
    [null, 'other'],
    ['command', 'other'],
    ['agent', 'other'],
    [42, 'other'],
    ['execute', 'execute'],
    ['switch_mode', 'switch_mode'],
  ])('maps kind %j to %s and never infers one from rawInput', (kind, expected) => {
    const snap = normalizeToolCall({
      toolCallId: 'x',
      kind,
      title: 't',
      rawInput: { command: 'rm -rf /' },
    });
    expect(snap.kind).toBe(expected);
  });

  it('builds a neutral title from the raw input when the title is missing or blank', () => {
    expect(
      normalizeToolCall({
        toolCallId: 'a',
        kind: 'execute',
        rawInput: { command: 'npm test', cwd: '/p' },
      }).title,
    ).toBe('Untitled execute request: npm test');
    expect(
      normalizeToolCall({
        toolCallId: 'a',
        kind: 'execute',
        title: '  ',
        rawInput: { command: ['git', 'status'] },
      }).title,
    ).toBe('Untitled execute request: git status');
    expect(
      normalizeToolCall({
        toolCallId: 'a',
        kind: 'edit',
        locations: [{ path: '/p/a.ts' }, { path: '/p/b.ts' }],
      }).title,
    ).toBe('Untitled edit request: /p/a.ts (+1 more)');
    expect(
      normalizeToolCall({
        toolCallId: 'a',
        kind: 'other',
        rawInput: { reason: 'x', permissions: {} },
      }).title,
    ).toBe('Untitled other request with input reason, permissions');
    expect(normalizeToolCall({ toolCallId: 'a' }).title).toBe('Untitled other request');
  });

  it('makes synthesized titles recognisable (deterministic)', () => {
    const snap = normalizeToolCall({
      toolCallId: 'a',
      kind: 'execute',
      rawInput: { command: 'ls' },
    });
    expect(synthesizedTitle(snap)).toBe(snap.title);
  });

  it('keeps a long title whole: warnings see all of it, boundApproval cuts it for display', () => {
    const title = 'x'.repeat(TITLE_MAX_CHARS * 3);
    expect(normalizeToolCall({ toolCallId: 'a', kind: 'execute', title }).title).toBe(title);
  });

  it('keeps a short title byte-for-byte, invisible characters included', () => {
    const title = 'Run\u202e tests\u200b\u001b[2J';
    expect(normalizeToolCall({ toolCallId: 'a', title }).title).toBe(title);
  });

  it('normalizes locations: valid paths only, lines as non-negative integers, no duplicates', () => {
    const snap = normalizeToolCall({
      toolCallId: 'a',
      locations: [
        { path: '/p/a.ts', line: 3 },
        { path: '/p/a.ts', line: 3 },
        { path: '/p/a.ts ' },
        { path: '' },
        { path: 42 },
        null,
        'x',
        { path: '/p/b.ts', line: -1 },
        { path: '/p/c.ts', line: 1.5 },
        { path: '/p/d.ts', line: '7' },
      ],
    });
    expect(snap.locations).toEqual([
      { path: '/p/a.ts', line: 3 },
      { path: '/p/a.ts ', line: null },
      { path: '/p/b.ts', line: null },
      { path: '/p/c.ts', line: null },
      { path: '/p/d.ts', line: null },
    ]);
  });

  it('bounds the number and length of locations, and counts those left out', () => {
    const many = Array.from({ length: MAX_LOCATIONS + 50 }, (_, i) => ({ path: `/p/${i}` }));
    const kept = normalizeToolCall({ toolCallId: 'a', locations: many });
    expect(kept.locations).toHaveLength(MAX_LOCATIONS);
    expect(kept.locationsDropped).toBe(50);
    expect(
      normalizeToolCall({ toolCallId: 'a', locations: many.slice(0, 10) }).locationsDropped,
    ).toBeUndefined();
    // Their text together: once one does not fit, neither does any after it, however short.
    const long = `/${'d/'.repeat(2_000)}`;
    const heavy = [
      ...Array.from({ length: 40 }, (_, i) => ({ path: `${long}${i}` })),
      { path: '/p/short' },
    ];
    const cut = normalizeToolCall({ toolCallId: 'a', locations: heavy });
    const chars = cut.locations.reduce((sum, l) => sum + l.path.length, 0);
    expect(chars).toBeLessThanOrEqual(MAX_LOCATIONS_CHARS);
    expect(cut.locations.length + (cut.locationsDropped ?? 0)).toBe(heavy.length);
    expect(cut.locations.map((l) => l.path)).not.toContain('/p/short');
    const cutPath = normalizeToolCall({
      toolCallId: 'a',
      locations: [{ path: `/${'a'.repeat(10_000)}` }],
    });
    expect(cutPath.locations[0]?.path.length).toBeLessThanOrEqual(4096);
    expect(cutPath.locations[0]?.path).toContain('…[truncated:');
  });

  it('never throws on hostile shapes and always returns a valid snapshot', () => {
    for (const raw of [
      null,
      undefined,
      42,
      'x',
      [],
      { toolCallId: { a: 1 } },
      { content: 'nope', locations: {} },
      { toolCallId: 7 },
    ]) {
      const snap = normalizeToolCall(raw);
      expect(() => ToolCallSnapshot.parse(snap)).not.toThrow();
    }
    expect(normalizeToolCall({ toolCallId: 7 }).toolCallId).toBe('7');
  });

  it('ignores values inherited from the prototype', () => {
    const raw = Object.create({ title: 'inherited', kind: 'execute' }) as Record<string, unknown>;
    raw['toolCallId'] = 'a';
    const snap = normalizeToolCall(raw);
    expect(snap.title).toBe('Untitled other request');
    expect(snap.kind).toBe('other');
  });

  it('keeps rawInput whole (same reference) for the audit', () => {
    const rawInput = { command: 'x'.repeat(3_000_000) };
    expect(
      normalizeToolCall({ toolCallId: 'a', kind: 'execute', title: 't', rawInput }).rawInput,
    ).toBe(rawInput);
  });
});

describe('mergeToolCallUpdate', () => {
  it('keeps earlier fields the update leaves absent or null (ACP ToolCallUpdate semantics)', () => {
    const earlier = {
      toolCallId: 'c1',
      kind: 'execute',
      title: 'bash',
      rawInput: { command: 'rm -rf build' },
    };
    const update = {
      toolCallId: 'c1',
      status: 'pending',
      title: null,
      rawInput: undefined,
      kind: 'execute',
    };
    expect(mergeToolCallUpdate(earlier, update)).toEqual({
      toolCallId: 'c1',
      kind: 'execute',
      title: 'bash',
      rawInput: { command: 'rm -rf build' },
      status: 'pending',
    });
    expect(mergeToolCallUpdate(undefined, { toolCallId: 'x' })).toEqual({ toolCallId: 'x' });
  });
});

describe('previewRawInput', () => {
  it('is bounded with a marker and survives cycles, BigInt and depth', () => {
    const cyclic: Record<string, unknown> = { a: 1n, s: 'x'.repeat(100_000) };
    cyclic['self'] = cyclic;
    const out = previewRawInput(cyclic, 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out).toContain('…[truncated:');
    expect(previewRawInput({ a: [1, { b: null }], self: undefined })).toBe(
      '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "self": undefined\n}',
    );
    const c: Record<string, unknown> = {};
    c['me'] = c;
    expect(previewRawInput(c)).toBe('{\n  "me": [Circular]\n}');
    let deep: unknown = 'end';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(previewRawInput(deep)).toContain('[…]');
  });

  it('escapes control characters so an ANSI sequence cannot act', () => {
    expect(previewRawInput({ c: '\u001b[2J' })).toContain('\\u001b[2J');
  });
});
