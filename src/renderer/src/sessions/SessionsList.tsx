import { useState } from 'react';
import type { SessionInfo } from '../../../shared/domain';
import { baseName } from '../components/format';
import { shortSession } from '../approvals/RequestDetails';
import { MODE_LABEL, formatDateTime } from '../history/words';
import { foldSessions } from './session-runs';
import { runsIn } from './where';
import { STATUS_LABEL, statusOf, statusWords, type SessionStatus } from './use-sessions';

/** Every session, newest first, filtered by agent and state; a row opens the session. */
export function SessionsList({
  sessions,
  selected,
}: {
  sessions: SessionInfo[];
  selected: string | null;
}) {
  const [agent, setAgent] = useState('');
  const [status, setStatus] = useState<SessionStatus | ''>('');
  const [unfolded, setUnfolded] = useState<ReadonlySet<string>>(new Set());
  const agents = [...new Set(sessions.map((s) => s.agentId))].sort();
  const shown = foldSessions(
    sessions.filter((s) => (!agent || s.agentId === agent) && (!status || statusOf(s) === status)),
  );
  const toggle = (sessionId: string) =>
    setUnfolded((open) => {
      const next = new Set(open);
      if (!next.delete(sessionId)) next.add(sessionId);
      return next;
    });

  const row = (s: SessionInfo) => (
    <a
      href={`#/sessions/${encodeURIComponent(s.sessionId)}`}
      aria-current={s.sessionId === selected ? 'page' : undefined}
      className={`session-row state-${statusOf(s)}`}
    >
      <span className="session-row-head">
        <strong>{s.agentId}</strong> · <span title={s.cwd}>{baseName(s.cwd)}</span>
        {s.via && <span className="dim"> · in {runsIn(s.via)}</span>}
      </span>
      <span className="session-row-state">
        {statusWords(s)}
        {(s.pendingCount ?? 0) > 0 && ` · ${s.pendingCount} waiting`}
      </span>
      <span className="dim session-row-meta">
        {MODE_LABEL[s.mode]} · sandbox {s.sandbox.profile} · started {formatDateTime(s.createdAt)} ·{' '}
        <span title={s.sessionId}>session {shortSession(s.sessionId)}</span>
      </span>
    </a>
  );

  return (
    <nav className="sessions-list" aria-label="sessions">
      <div className="sessions-filters">
        <label>
          Agent
          <select
            value={agent}
            onChange={(e) => setAgent(e.target.value)}
            aria-label="filter by agent"
          >
            <option value="">All</option>
            {agents.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label>
          State
          <select
            value={status}
            onChange={(e) => setStatus(e.target.value as SessionStatus | '')}
            aria-label="filter by state"
          >
            <option value="">All</option>
            {(Object.keys(STATUS_LABEL) as SessionStatus[]).map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {shown.length === 0 && (
        <p className="dim">No sessions{agent || status ? ' match' : ' yet'}.</p>
      )}
      <ul>
        {shown.map(({ session: s, alike }) => {
          const open = unfolded.has(s.sessionId) || alike.some((x) => x.sessionId === selected);
          return (
            <li key={s.sessionId}>
              {row(s)}
              {alike.length > 0 && (
                <button
                  type="button"
                  className="session-alike-toggle"
                  aria-expanded={open}
                  onClick={() => toggle(s.sessionId)}
                >
                  {open ? 'Hide' : 'Show'} {alike.length} earlier{' '}
                  {alike.length === 1 ? 'session' : 'sessions'} that ended the same way
                </button>
              )}
              {open && alike.length > 0 && (
                <ul className="session-alike" aria-label="ended the same way">
                  {alike.map((x) => (
                    <li key={x.sessionId}>{row(x)}</li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
