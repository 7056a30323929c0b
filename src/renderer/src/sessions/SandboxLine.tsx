import { useEffect, useState } from 'react';
import type { SessionInfo, SessionSandbox } from '../../../shared/domain';
import { useApi } from '../api/context';
import { whenStreamOpens } from '../connection/stream-open';
import './SandboxLine.css';

/** One line on what confines a session's agent; a warning when nothing does. */
export function SandboxSummary({ sandbox }: { sandbox: SessionSandbox }) {
  if (sandbox.profile === 'off') {
    return (
      <p className="gh-sandbox off" role="note" title={sandbox.reason}>
        <strong>Not sandboxed</strong>
        {sandbox.reason && <span className="gh-sandbox-reason"> · {sandbox.reason}</span>}
      </p>
    );
  }
  return (
    <p className="gh-sandbox" role="note">
      Sandbox: {sandbox.profile} · writes: {sandbox.writable.join(', ') || 'nothing'} · network:{' '}
      {sandbox.network}
      {sandbox.package && (
        <span title="Fetched by Gatehouse outside the sandbox, pinned, read-only to the agent">
          {' '}
          · runs {sandbox.package}
        </span>
      )}
    </p>
  );
}

/** An agent that approves by itself and could not be set back: nothing it does is asked. */
export function UnguardedNote({ reason }: { reason: string }) {
  return (
    <p className="gh-sandbox off gh-unguarded" role="alert">
      <strong>Unguarded</strong>
      <span className="gh-sandbox-reason">
        {' '}
        · {reason}. Gatehouse sees none of its requests: stop the session or change its mode.
      </span>
    </p>
  );
}

/**
 * What confines an open session's agent (its sandbox, and whether it still asks), kept current
 * from the session's state events, and read again whenever the event stream (re)opens.
 */
export function SessionSandboxLine({ sessionId }: { sessionId: string }) {
  const api = useApi();
  // Kept whole with its id, so a line never shows another session's state.
  const [known, setKnown] = useState<SessionInfo | null>(null);

  useEffect(() => {
    let live = true;
    const unsubscribe = api.subscribe((event) => {
      if (event.type === 'session_state' && event.session.sessionId === sessionId)
        setKnown(event.session);
    });
    const read = () =>
      api
        .call('listSessions', {})
        .then((sessions) => {
          const found = sessions.find((s) => s.sessionId === sessionId);
          if (live && found) setKnown(found);
        })
        .catch(() => undefined);
    void read();
    const unwatch = whenStreamOpens(api, () => void read());
    return () => {
      live = false;
      unsubscribe();
      unwatch();
    };
  }, [api, sessionId]);

  if (known?.sessionId !== sessionId) return null;
  return (
    <>
      {known.unguarded && <UnguardedNote reason={known.unguarded} />}
      <SandboxSummary sandbox={known.sandbox} />
    </>
  );
}
