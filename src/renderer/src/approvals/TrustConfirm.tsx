import { useEffect, useId, useRef, type ReactNode } from 'react';
import { ShieldIcon } from '../components/icons';
import { Button } from '../ui/Button';
import './BypassConfirm.css';

/**
 * The one confirmation for a decision that allows without asking from now on (Bypass, an allow
 * rule that matches any request): explained, Cancel focused, Escape cancels, and the confirming
 * button unlocks only once the guard is over.
 */
export function TrustConfirm({
  title,
  children,
  confirmLabel,
  armed,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  armed: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const uid = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <section
      className="gh-confirm"
      role="alertdialog"
      aria-labelledby={`${uid}-title`}
      aria-describedby={`${uid}-desc`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          // Only this confirmation closes, not a dialog around it.
          e.preventDefault();
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <div className="gh-confirm-icon">
        <ShieldIcon />
      </div>
      <div className="gh-confirm-text">
        <h3 id={`${uid}-title`}>{title}</h3>
        <div id={`${uid}-desc`}>{children}</div>
      </div>
      <div className="gh-confirm-actions">
        <button type="button" ref={cancel} onClick={onCancel}>
          Cancel
        </button>
        <Button
          variant="danger-solid"
          aria-disabled={armed ? undefined : 'true'}
          onClick={() => armed && onConfirm()}
        >
          {confirmLabel}
        </Button>
      </div>
    </section>
  );
}
