// The dialog's keyboard map: one table drives both the key handler and the help it shows.

export type ShortcutAction =
  | 'option'
  | 'allow'
  | 'deny'
  | 'reason'
  | 'next'
  | 'previous'
  | 'toggle-select'
  | 'select-like'
  | 'batch-approve'
  | 'batch-deny'
  | 'extend'
  | 'diff-mode'
  | 'bypass'
  | 'help';

export interface Shortcut {
  action: ShortcutAction;
  /** As shown in the help. */
  keys: string[];
  /** aria-keyshortcuts value. */
  aria: string;
  description: string;
}

export const SHORTCUTS: Shortcut[] = [
  {
    action: 'option',
    keys: ['1', '…', '9'],
    aria: '1',
    description: 'Choose the option with that number',
  },
  { action: 'allow', keys: ['A'], aria: 'A', description: 'Allow once' },
  { action: 'deny', keys: ['D'], aria: 'D', description: 'Deny (reject once)' },
  {
    action: 'reason',
    keys: ['R'],
    aria: 'R',
    description:
      'Reject with a reason: a line to tell the agent what to do instead (Enter rejects, Escape closes)',
  },
  { action: 'next', keys: ['J'], aria: 'J', description: 'Next request in the queue' },
  { action: 'previous', keys: ['K'], aria: 'K', description: 'Previous request' },
  {
    action: 'toggle-select',
    keys: ['X'],
    aria: 'X',
    description: 'Select or unselect this request for a batch',
  },
  {
    action: 'select-like',
    keys: ['L'],
    aria: 'L',
    description: 'Select every request like this one',
  },
  {
    action: 'batch-approve',
    keys: ['Shift', 'A'],
    aria: 'Shift+A',
    description: 'Approve the selected requests (each once)',
  },
  {
    action: 'batch-deny',
    keys: ['Shift', 'D'],
    aria: 'Shift+D',
    description: 'Deny the selected requests',
  },
  {
    action: 'extend',
    keys: ['E'],
    aria: 'E',
    description: 'Add 5 minutes before the automatic deny',
  },
  {
    action: 'diff-mode',
    keys: ['U'],
    aria: 'U',
    description: 'Switch the diff between unified and side by side',
  },
  {
    action: 'bypass',
    keys: ['B'],
    aria: 'B',
    description: 'Bypass: trust this agent (asks to confirm)',
  },
  { action: 'help', keys: ['?'], aria: 'Shift+?', description: 'Show or hide these shortcuts' },
];

export const ARIA: Record<ShortcutAction, string> = Object.fromEntries(
  SHORTCUTS.map((s) => [s.action, s.aria]),
) as Record<ShortcutAction, string>;

/** The action a key press asks for, or null. Digits carry the option number. */
export function actionOf(event: KeyboardEvent): { action: ShortcutAction; index?: number } | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key;
  if (/^[1-9]$/.test(key)) return { action: 'option', index: Number(key) - 1 };
  if (key === '?') return { action: 'help' };
  switch (key) {
    case 'a':
      return { action: 'allow' };
    case 'd':
      return { action: 'deny' };
    case 'A':
      return { action: event.shiftKey ? 'batch-approve' : 'allow' };
    case 'D':
      return { action: event.shiftKey ? 'batch-deny' : 'deny' };
    case 'r':
    case 'R':
      return { action: 'reason' };
    case 'j':
    case 'J':
      return { action: 'next' };
    case 'k':
    case 'K':
      return { action: 'previous' };
    case 'x':
    case 'X':
      return { action: 'toggle-select' };
    case 'l':
    case 'L':
      return { action: 'select-like' };
    case 'e':
    case 'E':
      return { action: 'extend' };
    case 'u':
    case 'U':
      return { action: 'diff-mode' };
    case 'b':
    case 'B':
      return { action: 'bypass' };
    default:
      return null;
  }
}

/** Keys typed into a text field, a select or an editable region are the field's, not ours. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  }
  return false;
}
