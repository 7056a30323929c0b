import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { promptKeyAction } from './prompt-keys';
import { useFocusReturn } from './use-focus-return';
import './PromptBox.css';

/**
 * The prompt box of a session Gatehouse runs: in view and focused when the session opens, Enter
 * sends and Shift+Enter breaks the line, and the focus comes back to it once the approval dialog is
 * done with or set aside.
 */
export function PromptBox({
  turning,
  onSend,
  onCancel,
}: {
  /** A turn runs: nothing is sent until it ends (the text stays). */
  turning: boolean;
  onSend: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  useFocusReturn(box);

  // The box is where a new session goes on: brought into view and focused, unless the page is
  // behind the dialog (inert: the focus stays with the dialog).
  useEffect(() => {
    form.current?.scrollIntoView({ block: 'end' });
    box.current?.focus({ preventScroll: true });
  }, []);

  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (turning || !text.trim()) return;
    onSend(text);
    setText('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = promptKeyAction({
      key: e.key,
      shiftKey: e.shiftKey,
      isComposing: e.nativeEvent.isComposing,
      keyCode: e.nativeEvent.keyCode,
    });
    if (action !== 'send') return;
    e.preventDefault();
    send();
  };

  return (
    <form ref={form} className="prompt-form" onSubmit={send}>
      <textarea
        ref={box}
        aria-label="prompt"
        aria-describedby="prompt-keys-hint"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Ask the agent…"
        rows={3}
      />
      <div className="row">
        <button type="submit" disabled={turning || !text.trim()}>
          Send
        </button>
        <button type="button" disabled={!turning} onClick={onCancel}>
          Cancel turn
        </button>
        <p id="prompt-keys-hint" className="dim prompt-keys-hint">
          <kbd>Enter</kbd> sends · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line
        </p>
      </div>
    </form>
  );
}
