import type { RefObject } from 'react';
import { REJECT_MESSAGE_MAX } from '../../../shared/contract';
import type { PermissionOption } from '../../../shared/domain';
import { reasonCounter } from './reject-reason';
import './RejectReason.css';

interface Props {
  inputRef: RefObject<HTMLInputElement | null>;
  text: string;
  /** The request it was opened for has left the screen: nothing typed here is sent. */
  stale: boolean;
  /** The reject option the words go with. */
  option: PermissionOption | undefined;
  /** Whether an option can be sent now (the click guard is over, no vote yet, the core heard). */
  canUse: (option: PermissionOption) => boolean;
  onText: (text: string) => void;
  onSubmit: (option: PermissionOption) => void;
  onClose: () => void;
  onFocusChange: (focused: boolean) => void;
}

/**
 * One line under the action bar for what the agent should do instead. It opens only when the
 * person asks for it (a key or a click) and takes the focus then, never when a request arrives: an
 * agent must not be able to time a request so that a person types into it. Enter rejects with the
 * words; Escape closes it without deciding anything.
 */
export function RejectReason({
  inputRef,
  text,
  stale,
  option,
  canUse,
  onText,
  onSubmit,
  onClose,
  onFocusChange,
}: Props) {
  const counter = stale ? null : reasonCounter(text);
  const send = !stale && option && canUse(option) ? option : null;
  return (
    <div
      className={`gh-reason${stale ? ' stale' : ''}`}
      role="group"
      aria-label="Reject with a reason"
    >
      <label className="gh-reason-label" htmlFor="gh-reason-input">
        Tell the agent what to do instead
      </label>
      <div className="gh-reason-row">
        <input
          id="gh-reason-input"
          ref={inputRef}
          type="text"
          value={stale ? '' : text}
          readOnly={stale}
          maxLength={REJECT_MESSAGE_MAX}
          autoComplete="off"
          placeholder={stale ? '' : 'e.g. use the test database, not production'}
          aria-describedby="gh-reason-help"
          onChange={(e) => onText(e.target.value)}
          onFocus={() => onFocusChange(true)}
          onBlur={() => onFocusChange(false)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
              e.preventDefault();
              if (send) onSubmit(send);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              onClose();
            }
          }}
        />
        <button
          type="button"
          className="gh-option kind-reject_once gh-reason-send"
          aria-disabled={send ? undefined : 'true'}
          onClick={() => send && onSubmit(send)}
        >
          {option?.name.trim() || 'Reject'}
        </button>
      </div>
      <p id="gh-reason-help" className="gh-reason-help">
        {stale ? (
          <span role="status">
            The request you were answering is no longer waiting (decided elsewhere, or timed out):
            nothing typed here is sent. Escape closes this.
          </span>
        ) : (
          <span>
            <kbd>Enter</kbd> rejects with these words · <kbd>Esc</kbd> closes without deciding
          </span>
        )}
        {counter && (
          <span className="gh-reason-count" aria-live="polite">
            {counter}
          </span>
        )}
      </p>
    </div>
  );
}
