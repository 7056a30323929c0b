import { useState } from 'react';
import type { SessionInfo } from '../../../shared/domain';
import { baseName } from '../components/format';
import { MODE_LABEL, formatDateTime } from '../history/words';
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
  const agents = [...new Set(sessions.map((s) => s.agentId))].sort();
  const shown = sessions
    .filter((s) => (!agent || s.agentId === agent) && (!status || statusOf(s) === status))
    .sort((a, b) => b.createdAt - a.createdAt);

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
        {shown.map((s) => (
          <li key={s.sessionId}>
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
                {MODE_LABEL[s.mode]} · sandbox {s.sandbox.profile} · started{' '}
                {formatDateTime(s.createdAt)}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
