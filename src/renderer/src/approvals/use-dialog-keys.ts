import { useEffect, useRef, type RefObject } from 'react';
import { actionOf, isTypingTarget, type ShortcutAction } from './keyboard';

interface Handlers {
  variant: 'modal' | 'page';
  /** A confirmation is open: it takes Escape, no other shortcut applies. */
  blocked: boolean;
  escape(): void;
  action(hit: { action: ShortcutAction; index?: number }): void;
}

/**
 * The dialog's shortcuts, heard on the whole document. Over the sessions page only keys typed in
 * the dialog count; the dialog window also takes keys that reach the page itself. The handlers
 * are read afresh on each key (they close over the dialog's current state).
 */
export function useDialogKeys(root: RefObject<HTMLElement | null>, handlers: Handlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      const el = root.current;
      const { variant, blocked, escape, action } = latest.current;
      if (!el || event.defaultPrevented || isTypingTarget(event.target)) return;
      const target = event.target instanceof Node ? event.target : null;
      const inside = !!target && el.contains(target);
      if (!inside && (variant === 'modal' || target !== document.body)) return;
      if (event.key === 'Escape') return escape();
      if (blocked) return;
      const hit = actionOf(event);
      if (!hit) return;
      event.preventDefault();
      action(hit);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [root]);
}
