import { Revealed } from '../components/Revealed';
import { useSessionEvents } from './use-session-events';
import './SandboxViolations.css';

/** Build files people run by hand that the agent changed without asking: read them before running. */
export function BuildScriptChanges({ sessionId }: { sessionId: string }) {
  const list = useSessionEvents(sessionId, 'build_script_changed');
  if (list.length === 0) return null;
  return (
    <ul className="gh-violations" aria-label="build scripts changed">
      {list.map((change, i) => (
        <li key={`${i}:${change.path}`} className="gh-violation" role="status">
          <span>
            Build script changed:{' '}
            <code>
              <Revealed text={change.path} />
            </code>{' '}
            {change.before === null ? '(new)' : change.after === null ? '(removed)' : ''} — read it
            before you run it
          </span>
        </li>
      ))}
    </ul>
  );
}
