import { describe, expect, it } from 'vitest';
import { clip } from './approval-summary';
import { cutAt } from './utf16';

const FACE = '\u{1F600}'; // two UTF-16 units

describe('cutAt', () => {
  it('moves a cut that would split a surrogate pair before the pair', () => {
    const text = `ab${FACE}cd`;
    expect(cutAt(text, 3)).toBe(2);
    expect(cutAt(text, 4)).toBe(4);
    expect(cutAt(text, 2)).toBe(2);
    expect(cutAt(text, 0)).toBe(0);
  });

  it('leaves a lone second half where it is: a cut after it splits nothing', () => {
    expect(cutAt('a\udc00b', 2)).toBe(2);
  });
});

describe("the queue's clip", () => {
  it('never ends in half a character', () => {
    expect(clip(`abc${FACE}${'x'.repeat(20)}`, 5)).toBe('abc…');
  });
});
