import { useEffect, useRef, useState, type RefObject } from 'react';
import type { PendingSummary } from '../../../shared/domain';
import { denyOption } from './queue-order';
import type { ReasonBox } from './reject-reason';

export interface RejectReasonState {
  /** The box as typed, for whichever request it was opened (null: closed). */
  box: ReasonBox | null;
  inputRef: RefObject<HTMLInputElement | null>;
  /** Open on the request on screen. */
  open: boolean;
  /** Open for a request that has left the screen while the person typed in it. */
  stale: boolean;
  /** On screen: open on this request, or stale and still holding the focus. */
  shown: boolean;
  focused(focused: boolean): void;
  show(): void;
  close(): void;
  setText(text: string): void;
  /** A vote carrying the words of `requestId` was taken: the box has done its work. */
  sent(requestId: string): void;
}

/**
 * The reason box of the dialog. It belongs to the request it was opened for and takes the focus
 * only when the person opens it. It stays on screen (read-only) when that request leaves while the
 * person types, so the rest of their words do not become shortcuts on the next one.
 */
export function useRejectReason(
  rootRef: RefObject<HTMLElement | null>,
  current: PendingSummary | null | undefined,
  voted: boolean,
): RejectReasonState {
  const [box, setBox] = useState<ReasonBox | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const [hasFocus, setHasFocus] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusTick > 0) inputRef.current?.focus();
  }, [focusTick]);
  const currentId = current?.requestId ?? '';
  const open = !!current && box?.requestId === currentId;
  const stale = !!box && !open;
  return {
    box,
    inputRef,
    open,
    stale,
    // A person who moved to another request themselves left the box: it waits, hidden, for them
    // to come back to its request.
    shown: open || (stale && hasFocus),
    focused(focused) {
      setHasFocus(focused);
      if (!focused && stale) setBox(null);
    },
    show() {
      if (!current || !denyOption(current) || voted) return;
      if (!open) setBox({ requestId: currentId, text: '' });
      setFocusTick((n) => n + 1);
    },
    close() {
      setBox(null);
      // Back to the button that opened it, never to an option.
      requestAnimationFrame(() =>
        rootRef.current?.querySelector<HTMLElement>('.gh-reason-toggle')?.focus(),
      );
    },
    setText(text) {
      setBox((b) => b && { ...b, text });
    },
    sent(requestId) {
      setBox((b) => (b?.requestId === requestId ? null : b));
    },
  };
}
