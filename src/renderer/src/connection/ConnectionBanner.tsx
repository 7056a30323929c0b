import { useConnection } from './connection';
import './ConnectionBanner.css';

const clock = (at: number) =>
  new Date(at).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

/**
 * Said at once when the core stops answering, above everything (the dialog included): what is on
 * screen is what was true when it was last heard, and nothing can be decided until it is back.
 * It goes by itself when the core answers again.
 */
export function ConnectionBanner() {
  const { state, since } = useConnection();
  if (state !== 'lost') return null;
  return (
    <div className="gh-connection-lost" role="alert">
      <strong>Gatehouse is not answering.</strong>{' '}
      <span>
        Reconnecting… Nothing shown here is current (last heard at {clock(since)}): countdowns are
        stopped and votes are off until it answers again.
      </span>
    </div>
  );
}
