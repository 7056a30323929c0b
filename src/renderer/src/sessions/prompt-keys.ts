// What a key does in the prompt box: the chat convention, Enter sends and Shift+Enter breaks the
// line. No DOM: the component hands over the fields of its keyboard event.

export interface PromptKey {
  key: string;
  shiftKey: boolean;
  /** An input method is composing (Japanese, Chinese…): its Enter confirms the candidate. */
  isComposing: boolean;
  /** 229: the key went to an input method (Chromium and Safari report Enter so during composition). */
  keyCode: number;
}

export type PromptKeyAction = 'send' | 'newline' | 'type';

export function promptKeyAction(event: PromptKey): PromptKeyAction {
  if (event.key !== 'Enter' || event.isComposing || event.keyCode === 229) return 'type';
  return event.shiftKey ? 'newline' : 'send';
}
