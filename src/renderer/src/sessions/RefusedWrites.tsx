import { Revealed } from '../components/Revealed';
import { useSessionEvents } from './use-session-events';
import './SandboxViolations.css';

/** Writes the agent asked of Gatehouse that no decision covered: refused, and said so here. */
export function RefusedWrites({ sessionId }: { sessionId: string }) {
  const list = useSessionEvents(sessionId, 'write_refused');
  if (list.length === 0) return null;
  return (
    <ul className="gh-violations" aria-label="writes refused">
      {list.map((refusal, i) => (
        <li key={`${i}:${refusal.path}`} className="gh-violation" role="alert">
          <span>
            Write refused:{' '}
            <code>
              {/* The agent wrote this path: nothing in it may hide or reorder itself. */}
              <Revealed text={refusal.path} />
            </code>{' '}
            — {refusal.reason}
          </span>
        </li>
      ))}
    </ul>
  );
}
