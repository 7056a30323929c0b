import { useEffect, useState, type RefObject } from 'react';
import { isTypingTarget } from './keyboard';

/**
 * What a request coming on screen does: the audit records that a person saw it (only when it is on
 * a visible screen), and it takes the focus. Returns what makes the focus go to it again (a jump
 * from the queue).
 */
export function useOnScreen(
  rootRef: RefObject<HTMLElement | null>,
  currentId: string,
  { loaded, danger }: { loaded: boolean; danger: boolean },
  markDisplayed: (requestId: string) => void,
): () => void {
  useEffect(() => {
    if (!currentId) return;
    const mark = () => {
      if (document.visibilityState === 'visible') markDisplayed(currentId);
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [currentId, markDisplayed]);

  // A new request on screen takes the focus (its safe default), unless the person is busy
  // elsewhere, or typing in the dialog (a reason for the request that just left); so does one the
  // person jumps to from the queue, once it is loaded, and the safe default again when a danger
  // warning appears on it. What the modal made inert (the prompt box the person just sent from)
  // is not elsewhere: it can take no input now.
  const [focusTick, setFocusTick] = useState(0);
  useEffect(() => {
    const root = rootRef.current;
    if (!root || !currentId) return;
    const active = document.activeElement;
    const busy =
      active &&
      active !== document.body &&
      (root.contains(active) ? isTypingTarget(active) : !active.closest('[inert]'));
    if (busy) return;
    const target = root.querySelector<HTMLElement>('[data-default-option]') ?? root;
    target.focus({ preventScroll: true });
  }, [rootRef, currentId, focusTick, loaded, danger]);
  return () => setFocusTick((n) => n + 1);
}
