import type { SessionInfo } from '../../../shared/domain';

const HOW: Record<'resume' | 'load', string> = {
  resume: 'its agent takes it up where it was, without replaying it',
  load: 'its agent replays it; what it replays is not shown or asked again',
};

/**
 * What resuming a session that ended with Gatehouse does, and, once resumed, what runs differently
 * from before: today's settings apply, not those it ran with.
 */
export function ResumeNote({ session }: { session: SessionInfo }) {
  if (session.resumable)
    return (
      <p className="resume-note dim">
        This session ended when Gatehouse stopped. Resuming starts its agent again in the same
        folder, with today&apos;s settings, sandbox and checks; {HOW[session.resumable]}.
      </p>
    );
  const resumed = session.resumed;
  if (!resumed) return null;
  return (
    <div className="resume-note" role="status">
      <p className="dim">
        Resumed after Gatehouse restarted ({resumed.how === 'load' ? 'loaded' : 'resumed'} by its
        agent).{' '}
        {resumed.changes.length === 0
          ? 'It runs with the same settings as before.'
          : 'Today’s settings apply, not those it ran with:'}
      </p>
      {resumed.changes.length > 0 && (
        <ul aria-label="what changed since it ran">
          {resumed.changes.map((change) => (
            <li key={change}>{change}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
