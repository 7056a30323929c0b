import { useEffect, useState } from 'react';
import type { AgentInfo } from '../../../shared/domain';
import { useApi } from '../api/context';
import { SessionDetail } from './SessionDetail';
import { SessionsList } from './SessionsList';
import { StartSession } from './StartSession';
import { useSessions } from './use-sessions';
import './SessionView.css';

import { openSession } from './session-address';

export { openSession, sessionOfHash } from './session-address';

/** Every session, one of them open; and a form to start another. */
export function SessionView({ selected }: { selected: string | null }) {
  const api = useApi();
  const { sessions, error } = useSessions();
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const session = sessions.find((s) => s.sessionId === selected) ?? null;

  useEffect(() => {
    api
      .call('listAgents', {})
      .then(setAgents)
      .catch(() => setAgents([]));
  }, [api]);

  return (
    <div className="sessions-page">
      <SessionsList sessions={sessions} selected={selected} />
      <section className="sessions" aria-label="session">
        <StartSession agents={agents} onStarted={openSession} />
        {agents.length === 0 && (
          <p className="dim">
            No agents yet: add one in Settings → Agents, or under &quot;agents&quot; in
            settings.json.
          </p>
        )}
        {session && <SessionDetail key={session.sessionId} session={session} />}
        {selected && !session && sessions.length > 0 && (
          <p className="dim">This session is no longer listed.</p>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </section>
    </div>
  );
}
