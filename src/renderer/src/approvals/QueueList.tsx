import { useState } from 'react';
import type { PendingSummary } from '../../../shared/domain';
import { revealInvisibles } from '../../../shared/invisible';
import { baseName, formatClock } from '../components/format';
import { Revealed } from '../components/Revealed';
import { ARIA } from './keyboard';
import { KindBadge } from './KindBadge';
import { Button } from '../ui/Button';
import { Count } from '../ui/Count';
import { hasDanger, isExpiring } from './queue-order';
import './QueueList.css';

interface Props {
  ordered: PendingSummary[];
  /** Waiting requests the core did not list (its list is bounded). */
  unlisted: number;
  currentId: string | null;
  now: number;
  selected: ReadonlySet<string>;
  myVotes: ReadonlyMap<string, string>;
  likeCount: number;
  likeLabel: string;
  batchConfirm: 'approve' | 'deny' | null;
  onJump: (requestId: string) => void;
  onToggle: (requestId: string) => void;
  onSelectLike: () => void;
  onBatch: (kind: 'approve' | 'deny') => void;
  onBatchCancel: () => void;
  onClear: () => void;
}

/** Every pending request, to jump to and to select for a batch decision. */
export function QueueList(props: Props) {
  const { ordered, currentId, now, selected, myVotes } = props;
  // Narrow windows (200 % zoom) show the list on demand; wide ones always (the toggle is hidden).
  const [open, setOpen] = useState(false);
  const dangerSelected = ordered.filter((a) => selected.has(a.requestId) && hasDanger(a)).length;
  return (
    <nav className={`gh-queue${open ? ' open' : ''}`} aria-label="Pending requests">
      <div className="gh-queue-head">
        <h3>
          Queue <Count>{ordered.length + props.unlisted}</Count>
        </h3>
        <Button
          variant="link"
          className="gh-queue-toggle"
          aria-expanded={open}
          aria-controls="gh-queue-list"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide list' : 'Show list'}
        </Button>
        <Button
          variant="link"
          onClick={props.onSelectLike}
          aria-keyshortcuts={ARIA['select-like']}
          title={`Same agent, same kind, same ${props.likeLabel}`}
          disabled={props.likeCount === 0}
        >
          Select {props.likeCount} like this
        </Button>
      </div>
      <ol className="gh-queue-list" id="gh-queue-list">
        {ordered.map((a) => {
          const current = a.requestId === currentId;
          const expiring = isExpiring(a, now);
          const danger = hasDanger(a);
          const voted = myVotes.has(a.requestId);
          return (
            <li
              key={a.requestId}
              className={`gh-queue-row${current ? ' current' : ''}${expiring ? ' expiring' : ''}${selected.has(a.requestId) ? ' selected' : ''}`}
            >
              <input
                type="checkbox"
                checked={selected.has(a.requestId)}
                onChange={() => props.onToggle(a.requestId)}
                aria-label={`Select for batch: ${revealInvisibles(a.title)}`}
              />
              <button
                type="button"
                className="gh-queue-item"
                aria-current={current ? 'true' : undefined}
                onClick={() => props.onJump(a.requestId)}
              >
                <span className="gh-queue-line">
                  <KindBadge kind={a.kind} question={!!a.question} />
                  <span className="gh-queue-title">
                    <Revealed text={a.title} />
                  </span>
                </span>
                <span className="gh-queue-line meta">
                  <span className="gh-queue-agent">
                    {a.agentName} · {baseName(a.cwd) || a.cwd}
                  </span>
                  {danger && <span className="gh-flag danger">danger</span>}
                  {a.warnings.length > 0 && !danger && (
                    <span className="gh-flag caution">caution</span>
                  )}
                  {voted && <span className="gh-flag">voted</span>}
                  {expiring && <span className="gh-flag expiring">expiring</span>}
                  <span className="gh-queue-time">
                    <span className="visually-hidden">time left </span>
                    {formatClock(a.expiresAt - now)}
                  </span>
                </span>
                {a.effects && (
                  <span className="gh-queue-line effects">
                    <span className="visually-hidden">preview: </span>
                    <Revealed text={a.effects} />
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ol>
      {props.unlisted > 0 && (
        <p className="dim gh-queue-more">
          and {props.unlisted} more waiting, listed as these are decided
        </p>
      )}
      {selected.size > 0 && (
        <div className="gh-batch" role="group" aria-label="Batch decision">
          {props.batchConfirm ? (
            <>
              <p className="gh-batch-warning" role="alert">
                {dangerSelected} of the selected requests {dangerSelected === 1 ? 'has' : 'have'} a
                danger warning.
              </p>
              <div className="gh-batch-buttons">
                <button type="button" onClick={props.onBatchCancel}>
                  Cancel
                </button>
                <Button variant="danger-solid" onClick={() => props.onBatch('approve')}>
                  Approve {selected.size} anyway
                </Button>
              </div>
            </>
          ) : (
            <>
              <p className="gh-batch-count">
                <span>
                  <strong>{selected.size}</strong> selected
                </span>
                <Button variant="link" onClick={props.onClear}>
                  Clear
                </Button>
              </p>
              <div className="gh-batch-buttons">
                <button
                  type="button"
                  className="gh-batch-deny"
                  onClick={() => props.onBatch('deny')}
                  aria-keyshortcuts={ARIA['batch-deny']}
                >
                  Deny {selected.size}
                </button>
                <Button
                  variant="allow"
                  onClick={() => props.onBatch('approve')}
                  aria-keyshortcuts={ARIA['batch-approve']}
                >
                  Approve {selected.size}
                </Button>
              </div>
              <p className="gh-batch-note">
                Each is decided on its own: allow once or reject, one vote per request.
              </p>
            </>
          )}
        </div>
      )}
    </nav>
  );
}
