import { useEffect, useState } from 'react';
import type { GatehouseEvent } from '../../../shared/contract';
import { useApi } from '../api/context';
import { Revealed } from '../components/Revealed';
import './SandboxViolations.css';

type Refusal = Extract<GatehouseEvent, { type: 'write_refused' }>;

/** The newest are enough to see what happened; the history keeps them all. */
const SHOWN = 20;

/** Writes the agent asked of Gatehouse that no decision covered: refused, and said so here. */
export function RefusedWrites({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const [seen, setSeen] = useState<{ sessionId: string; list: Refusal[] }>({
    sessionId,
    list: [],
  });

  useEffect(
    () =>
      api.subscribe((event) => {
        if (event.type !== 'write_refused' || event.sessionId !== sessionId) return;
        setSeen((prev) => ({
          sessionId,
          list: [...(prev.sessionId === sessionId ? prev.list : []), event].slice(-SHOWN),
        }));
      }),
    [api, sessionId],
  );

  const list = seen.sessionId === sessionId ? seen.list : [];
  if (list.length === 0) return null;
  return (
    <ul className="gh-violations" aria-label="writes refused">
      {list.map((refusal, i) => (
        <li key={`${i}:${refusal.path}`} className="gh-violation" role="alert">
          <span>
            Write refused:{' '}
            <code>
              {/* The agent wrote this path. */}
              <Revealed text={refusal.path} />
            </code>{' '}
            — {refusal.reason}
          </span>
        </li>
      ))}
    </ul>
  );
}
