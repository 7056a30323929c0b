import { describe, expect, it } from 'vitest';
import { clip, clipLeft, safeLine } from './text';

describe('safeLine', () => {
  it('reveals every invisible or control character, keeps ordinary text as is', () => {
    expect(safeLine('git commit -m "ok"')).toBe('git commit -m "ok"');
    expect(safeLine('a\u202Eb\u2066c\u200Dd\u0007e\u009bf')).toBe(
      'a⟨U+202E⟩b⟨U+2066⟩c⟨U+200D⟩d⟨U+0007⟩e⟨U+009B⟩f',
    );
    expect(safeLine('tag\u{E0041}')).toBe('tag⟨U+E0041⟩');
    expect(safeLine('one\r\ntwo\nthree\tfour\rfive')).toBe('one ⏎ two ⏎ three four⟨U+000D⟩five');
  });

  it('bounds the length, never splitting a marker or a surrogate pair', () => {
    const text = `${'a'.repeat(8)}\u202E${'b'.repeat(20)}`;
    for (let max = 5; max < 30; max++) {
      const line = safeLine(text, max);
      expect(line.length).toBeLessThanOrEqual(max);
      expect(line).not.toMatch(/⟨[^⟩]*$/);
    }
    expect(clip('ab😀cd', 4)).toBe('ab…');
    expect(clip('abcdef', 6)).toBe('abcdef');
  });

  it('cuts paths from the left so the file name stays', () => {
    expect(safeLine('/very/long/path/to/some/file.ts', 16, 'end')).toBe('…to/some/file.ts');
    expect(clipLeft('😀abcdef', 4)).toBe('…def');
    const huge = `${'d/'.repeat(100_000)}name.txt`;
    expect(safeLine(huge, 20, 'end')).toMatch(/name\.txt$/);
  });
});
