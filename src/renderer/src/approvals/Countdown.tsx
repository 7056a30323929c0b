import type { PendingApproval } from '../../../shared/domain';
import { ClockIcon } from '../components/icons';
import { formatClock, spokenDuration } from '../components/format';
import { EXPIRING_MS } from './queue-order';
import './Countdown.css';

/** Time left before the fail-closed timeout denies the request, and a way to push it back. */
export function Countdown({
  approval,
  now,
  onExtend,
}: {
  approval: PendingApproval;
  now: number;
  onExtend: () => void;
}) {
  const left = approval.expiresAt - now;
  const expiring = left < EXPIRING_MS;
  return (
    <div className={`gh-countdown${expiring ? ' expiring' : ''}`}>
      <span role="timer" aria-label={`Denied automatically in ${spokenDuration(left)}`}>
        <ClockIcon />
        <span aria-hidden="true">
          {expiring ? 'Expiring — auto-deny in ' : 'Auto-deny in '}
          <strong>{formatClock(left)}</strong>
        </span>
      </span>
      <button type="button" className="gh-extend" onClick={onExtend} aria-keyshortcuts="E">
        Extend 5 min
      </button>
    </div>
  );
}
