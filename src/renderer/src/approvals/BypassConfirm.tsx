import { useEffect, useRef } from 'react';
import type { PendingApproval } from '../../../shared/domain';
import { ShieldIcon } from '../components/icons';
import { Button } from '../ui/Button';
import './BypassConfirm.css';

/** Bypass trusts an agent everywhere until turned off: so it is explained and confirmed first. */
export function BypassConfirm({
  approval,
  armed,
  onConfirm,
  onCancel,
}: {
  approval: PendingApproval;
  armed: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const agent = approval.agentName;
  return (
    <section
      className="gh-confirm"
      role="alertdialog"
      aria-labelledby="gh-bypass-title"
      aria-describedby="gh-bypass-desc"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <div className="gh-confirm-icon">
        <ShieldIcon />
      </div>
      <div className="gh-confirm-text">
        <h3 id="gh-bypass-title">Bypass permissions for {agent}?</h3>
        <div id="gh-bypass-desc">
          <p>
            From now on, every request from <strong>{agent}</strong> is allowed without asking — in
            every session and every folder — except what an explicit deny rule blocks. It is saved
            in settings and stays until you turn it off there.
          </p>
          <p>This request is allowed once, now.</p>
        </div>
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
          Bypass {agent}
        </Button>
      </div>
    </section>
  );
}
