import { useCallback, useEffect, useState } from 'react';
import type { AgentInfo } from '../../../shared/domain';
import type { HistoryItem } from '../../../shared/history';
import { useApi } from '../api/context';
import { useWhenStreamOpens } from '../connection/stream-open';
import type { ApprovalQueue } from '../approvals/use-approvals';
import { baseName, formatClock } from '../components/format';
import { useNow } from '../components/use-now';
import { deciderWords, formatWhen } from '../history/words';
import { openSession } from '../sessions/SessionView';
import { StartSession } from '../sessions/StartSession';
import { statusWords, useSessions } from '../sessions/use-sessions';
import { runsIn } from '../sessions/where';
import { Guide } from './Guide';
import './HomeView.css';

/** How many of the last decisions the first screen shows; the history has them all. */
const LAST_DECISIONS = 5;

/** The first screen: what waits for you, what is running, what was decided; or how to begin. */
export function HomeView({ queue }: { queue: ApprovalQueue }) {
  const api = useApi();
  const now = useNow();
  const { sessions } = useSessions();
  const [agents, setAgents] = useState<AgentInfo[] | null>(null);
  const [decisions, setDecisions] = useState<HistoryItem[]>([]);
  const running = sessions.filter((s) => s.state !== 'closed');
  const oldest = [...queue.items].sort((a, b) => a.issuedAt - b.issuedAt)[0];

  const readDecisions = useCallback(() => {
    api.call('history', { limit: LAST_DECISIONS }).then(
      (page) => setDecisions(page.items),
      () => {},
    );
  }, [api]);

  useEffect(() => {
    api.call('listAgents', {}).then(setAgents, () => setAgents([]));
    readDecisions();
    return api.subscribe((event) => {
      if (event.type === 'permission_resolved') readDecisions();
    });
  }, [api, readDecisions]);
  // What was decided or configured while the stream was down. A failed read keeps what is shown:
  // an empty list here would be the first-run guide.
  useWhenStreamOpens(api, () => {
    api.call('listAgents', {}).then(setAgents, () => undefined);
    readDecisions();
  });

  if (agents && agents.length === 0)
    return <Guide onAdded={() => api.call('listAgents', {}).then(setAgents, () => {})} />;

  return (
    <div className="home">
      <section className="home-card" aria-labelledby="home-pending">
        <h2 id="home-pending">Waiting for you</h2>
        {oldest ? (
          <>
            <p className="home-big">
              {queue.items.length} request{queue.items.length === 1 ? '' : 's'} waiting
            </p>
            <p>
              Oldest: <strong>{oldest.title}</strong> from {oldest.agentName} ·{' '}
              <span role="timer">auto-deny in {formatClock(oldest.expiresAt - now)}</span>
            </p>
            <a href="#/approvals">Review the requests</a>
          </>
        ) : (
          <p className="dim">Nothing waits for a decision.</p>
        )}
      </section>
      <section className="home-card" aria-labelledby="home-running">
        <h2 id="home-running">Running sessions</h2>
        {running.length === 0 && <p className="dim">No session is running.</p>}
        <ul>
          {running.map((s) => (
            <li key={s.sessionId}>
              <a href={`#/sessions/${encodeURIComponent(s.sessionId)}`}>
                {s.agentId} · {baseName(s.cwd)}
              </a>{' '}
              — {statusWords(s)}
              {s.via && ` · in ${runsIn(s.via)}`}
            </li>
          ))}
        </ul>
        {agents && agents.length > 0 && <StartSession agents={agents} onStarted={openSession} />}
      </section>
      <section className="home-card" aria-labelledby="home-decisions">
        <h2 id="home-decisions">Last decisions</h2>
        {decisions.length === 0 && <p className="dim">No decision yet.</p>}
        <ul>
          {decisions.map((d) => (
            <li key={d.requestId}>
              {deciderWords(d.reply, d.decider)}: {d.title}{' '}
              <span className="dim">· {formatWhen(d.decidedAt, now)}</span>
            </li>
          ))}
        </ul>
        <a href="#/history">All decisions</a>
      </section>
    </div>
  );
}
