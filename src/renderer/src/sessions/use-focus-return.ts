import { useEffect, type RefObject } from 'react';

/**
 * Gives `target` the focus when the page around it comes back from behind the approval dialog (a
 * decision emptied the queue, or the dialog was set aside) and nothing else holds the focus. While
 * the dialog is open the page is inert, so nothing here can take the focus from the dialog's safe
 * default.
 */
export function useFocusReturn(target: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const page = target.current?.closest('main');
    if (!page) return;
    let wasInert = page.inert;
    const observer = new MutationObserver(() => {
      const inert = page.inert;
      const returned = wasInert && !inert;
      wasInert = inert;
      if (!returned) return;
      const active = document.activeElement;
      // The dialog's button that had the focus is gone with the dialog: the focus fell to the body.
      if (active && active !== document.body && active.isConnected) return;
      target.current?.focus({ preventScroll: true });
    });
    observer.observe(page, { attributes: true, attributeFilter: ['inert'] });
    return () => observer.disconnect();
  }, [target]);
}
