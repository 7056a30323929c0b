import type { PendingApproval } from '../../../shared/domain';
import { TrustConfirm } from './TrustConfirm';

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
  const agent = approval.agentName;
  return (
    <TrustConfirm
      title={`Bypass permissions for ${agent}?`}
      confirmLabel={`Bypass ${agent}`}
      armed={armed}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        From now on, every request from <strong>{agent}</strong> is allowed without asking — in
        every session and every folder — except what an explicit deny rule blocks. It is saved in
        settings and stays until you turn it off there.
      </p>
      <p>This request is allowed once, now.</p>
    </TrustConfirm>
  );
}
