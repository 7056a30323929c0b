import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actionOf, ARIA, isTypingTarget, SHORTCUTS } from './keyboard';

type Keys = Partial<Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>>;
const press = (keys: Keys) =>
  actionOf({ shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...keys } as never);

describe('actionOf', () => {
  it('reaches every shortcut the help lists, with the keys it lists', () => {
    for (const shortcut of SHORTCUTS) {
      const shift = shortcut.keys.includes('Shift');
      const key = shortcut.keys.filter((k) => k !== 'Shift' && k !== '…')[0]!;
      expect(press({ key, shiftKey: shift })?.action, shortcut.description).toBe(shortcut.action);
    }
  });

  it('maps a digit to the option of that number, from 0', () => {
    expect(press({ key: '1' })).toEqual({ action: 'option', index: 0 });
    expect(press({ key: '9' })).toEqual({ action: 'option', index: 8 });
    expect(press({ key: '0' })).toBeNull();
  });

  it('reads a letter the same in either case, except A and D with Shift (the batch)', () => {
    expect(press({ key: 'j' })?.action).toBe('next');
    expect(press({ key: 'J', shiftKey: true })?.action).toBe('next');
    // Caps Lock: an upper-case letter without Shift decides this request only.
    expect(press({ key: 'A' })?.action).toBe('allow');
    expect(press({ key: 'D' })?.action).toBe('deny');
    expect(press({ key: 'A', shiftKey: true })?.action).toBe('batch-approve');
    expect(press({ key: 'D', shiftKey: true })?.action).toBe('batch-deny');
  });

  it('leaves keys with Ctrl, Meta or Alt to the browser and the system', () => {
    expect(press({ key: 'a', ctrlKey: true })).toBeNull();
    expect(press({ key: 'd', metaKey: true })).toBeNull();
    expect(press({ key: '1', altKey: true })).toBeNull();
    expect(press({ key: '?', ctrlKey: true })).toBeNull();
  });

  it('ignores keys it has no action for', () => {
    for (const key of ['q', 'Enter', ' ', 'Tab', 'Escape', 'ArrowDown']) {
      expect(press({ key })).toBeNull();
    }
  });
});

describe('ARIA', () => {
  it('names each action its aria-keyshortcuts value', () => {
    expect(ARIA['batch-approve']).toBe('Shift+A');
    expect(ARIA.help).toBe('Shift+?');
    expect(Object.keys(ARIA).sort()).toEqual(SHORTCUTS.map((s) => s.action).sort());
  });
});

describe('isTypingTarget', () => {
  // The unit tests run without a DOM: just enough of its element classes for instanceof.
  class FakeElement {
    isContentEditable = false;
  }
  class FakeInput extends FakeElement {
    constructor(public type: string) {
      super();
    }
  }
  class FakeTextArea extends FakeElement {}
  class FakeSelect extends FakeElement {}

  beforeEach(() => {
    vi.stubGlobal('HTMLElement', FakeElement);
    vi.stubGlobal('HTMLInputElement', FakeInput);
    vi.stubGlobal('HTMLTextAreaElement', FakeTextArea);
    vi.stubGlobal('HTMLSelectElement', FakeSelect);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('text fields, selects and editable regions keep their keys', () => {
    expect(isTypingTarget(new FakeInput('text') as never)).toBe(true);
    expect(isTypingTarget(new FakeInput('search') as never)).toBe(true);
    expect(isTypingTarget(new FakeTextArea() as never)).toBe(true);
    expect(isTypingTarget(new FakeSelect() as never)).toBe(true);
    const editable = new FakeElement();
    editable.isContentEditable = true;
    expect(isTypingTarget(editable as never)).toBe(true);
  });

  it('checkboxes, buttons and plain elements pass keys on to the shortcuts', () => {
    for (const type of ['checkbox', 'radio', 'button', 'submit', 'reset']) {
      expect(isTypingTarget(new FakeInput(type) as never), type).toBe(false);
    }
    expect(isTypingTarget(new FakeElement() as never)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget({} as never)).toBe(false);
  });
});
