import { describe, expect, it } from 'vitest';
import { promptKeyAction } from './prompt-keys';

const key = (over: Partial<Parameters<typeof promptKeyAction>[0]>) =>
  promptKeyAction({ key: 'Enter', shiftKey: false, isComposing: false, keyCode: 13, ...over });

describe('the prompt box keys', () => {
  it('Enter sends', () => {
    expect(key({})).toBe('send');
  });

  it('Shift+Enter breaks the line', () => {
    expect(key({ shiftKey: true })).toBe('newline');
  });

  it('an Enter that confirms an input method candidate never sends', () => {
    expect(key({ isComposing: true })).toBe('type');
    expect(key({ keyCode: 229 })).toBe('type');
    expect(key({ isComposing: true, shiftKey: true })).toBe('type');
  });

  it('other keys type', () => {
    expect(key({ key: 'a' })).toBe('type');
    expect(key({ key: 'Tab' })).toBe('type');
  });
});
