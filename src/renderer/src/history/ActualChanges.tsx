// For an allowed request: what it really changed (a command observed in Gatehouse's sandbox), next
// to what its preview said, with the difference flagged; and "Undo these file changes", whose
// refusal the core words itself (a file changed since, protected, not kept).
import { useState } from 'react';
import { changedTotal, type ActualEffects } from '../../../shared/effects';
import type { HistoryDetail } from '../../../shared/history';
import type { PreviewChange, PreviewCounts } from '../../../shared/preview';
import { useApi } from '../api/context';
import { FileIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { Button } from '../ui/Button';
import { Stack } from '../ui/Stack';
import { useReportedAction } from '../ui/use-action';
import { DetailSection } from './DetailSection';
import { formatDateTime } from './words';
import './ActualChanges.css';

/** Changes listed at once; the rest behind "more". */
const SHOWN = 12;

const ENDED_BY: Record<ActualEffects['endedBy'], string> = {
  completed: 'compared when the agent reported the command finished',
  failed: 'compared when the agent reported the command failed',
  turn_end: 'compared when the agent’s turn ended',
  session_end: 'compared when the session ended',
  write: 'the writes Gatehouse made',
};

const CHANGE_WORDS: Record<PreviewChange['change'], string> = {
  created: 'created',
  modified: 'changed',
  deleted: 'deleted',
  renamed: 'renamed',
};

function countWords(counts: PreviewCounts): string {
  const parts = (['created', 'modified', 'deleted', 'renamed'] as const)
    .filter((k) => counts[k] > 0)
    .map((k) => `${counts[k]} ${CHANGE_WORDS[k]}`);
  if (counts.protected > 0) parts.push(`${counts.protected} protected`);
  return parts.length === 0 ? 'no changes' : parts.join(', ');
}

/** A path inside the session folder shown from there. */
function shown(path: string, cwd: string): string {
  const base = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

function ChangeLine({ change, cwd }: { change: PreviewChange; cwd: string }) {
  return (
    <li className={`hv-change ${change.change}${change.place === 'protected' ? ' protected' : ''}`}>
      <FileIcon />
      <span className="hv-change-kind">{CHANGE_WORDS[change.change]}</span>
      <code>
        {change.oldPath && (
          <>
            <Revealed text={shown(change.oldPath, cwd)} /> →{' '}
          </>
        )}
        <Revealed text={shown(change.path, cwd)} />
        {change.entry === 'folder' ? '/' : ''}
      </code>
      {change.place === 'protected' && <span className="hv-change-flag">protected</span>}
    </li>
  );
}

function Observed({ effects, cwd }: { effects: ActualEffects; cwd: string }) {
  const total = changedTotal(effects.counts);
  const more = effects.changes.slice(SHOWN);
  return (
    <>
      <dl className="hv-effects-compare">
        <dt>Preview</dt>
        <dd>{effects.previewed ? countWords(effects.previewed) : 'none ran'}</dd>
        <dt>Actually</dt>
        <dd>
          {countWords(effects.counts)} <span className="dim">({ENDED_BY[effects.endedBy]})</span>
        </dd>
      </dl>
      {effects.difference && (
        <p className="hv-effects-differs" data-testid="effects-difference">
          Differs from the preview: {effects.difference}
        </p>
      )}
      {effects.reason && <p className="dim">Not wholly known: {effects.reason}.</p>}
      {total > 0 && (
        <Stack className="hv-paths">
          {effects.changes.slice(0, SHOWN).map((c, i) => (
            <ChangeLine key={i} change={c} cwd={cwd} />
          ))}
        </Stack>
      )}
      {more.length > 0 && (
        <details className="hv-effects-more">
          <summary>
            {total - SHOWN} more
            {total > effects.changes.length ? ` (the first ${effects.changes.length} listed)` : ''}
          </summary>
          <Stack className="hv-paths">
            {more.map((c, i) => (
              <ChangeLine key={i} change={c} cwd={cwd} />
            ))}
          </Stack>
        </details>
      )}
    </>
  );
}

/** Shown for a request whose effects were observed or whose previous contents were kept. */
export function ActualChanges({ detail }: { detail: HistoryDetail }) {
  const api = useApi();
  const { busy, report, notice } = useReportedAction();
  const [undoneAt, setUndoneAt] = useState<number | null>(detail.undo?.undoneAt ?? null);
  const { effects, undo } = detail;
  if (!effects && !undo) return null;
  const undoNow = () =>
    report('undo', async () => {
      const outcome = await api.call('undoChanges', { requestId: detail.requestId });
      setUndoneAt(Date.now());
      const removed = outcome.removed > 0 ? `, removed ${outcome.removed}` : '';
      return `Undone: put back ${outcome.restored} ${outcome.restored === 1 ? 'file' : 'files'}${removed}.`;
    });
  return (
    <DetailSection titleId="hv-effects-title" title="What it changed">
      {effects ? (
        <Observed effects={effects} cwd={detail.cwd} />
      ) : (
        <p className="dim">The writes above are what it changed.</p>
      )}
      {undo && (
        <div className="hv-undo">
          {undoneAt !== null ? (
            <p className="dim">Its file changes were undone {formatDateTime(undoneAt)}.</p>
          ) : (
            <>
              <Button
                variant="danger"
                disabled={busy === 'undo' || !undo.available}
                onClick={undoNow}
              >
                Undo these file changes
              </Button>
              {!undo.available && undo.reason && (
                <span className="dim">Not possible now: {undo.reason}.</span>
              )}
            </>
          )}
          {notice('undo')}
        </div>
      )}
    </DetailSection>
  );
}
