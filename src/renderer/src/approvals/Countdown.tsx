import type { PendingApproval } from '../../../shared/domain';
import { ClockIcon } from '../components/icons';
import { formatClock, spokenDuration } from '../components/format';
import { useConnection } from '../connection/connection';
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
  // Unheard from, the core may have denied or cancelled the request already: the time shown is
  // the time left when it was last heard, stopped and marked as such (`now` stops with it).
  const stale = useConnection().state === 'lost';
  const left = approval.expiresAt - now;
  const expiring = left < EXPIRING_MS;
  return (
    <div className={`gh-countdown${expiring ? ' expiring' : ''}${stale ? ' stale' : ''}`}>
      <span
        role="timer"
        aria-label={
          stale
            ? `Not current: ${spokenDuration(left)} were left when Gatehouse was last heard`
            : `Denied automatically in ${spokenDuration(left)}`
        }
      >
        <ClockIcon />
        <span aria-hidden="true">
          {stale ? 'Stale — ' : expiring ? 'Expiring — ' : ''}
          {stale || expiring ? 'auto-deny in ' : 'Auto-deny in '}
          <strong>{formatClock(left)}</strong>
          {stale && ' when last heard'}
        </span>
      </span>
      <button
        type="button"
        className="gh-extend"
        onClick={onExtend}
        aria-keyshortcuts="E"
        disabled={stale}
      >
        Extend 5 min
      </button>
    </div>
  );
}
