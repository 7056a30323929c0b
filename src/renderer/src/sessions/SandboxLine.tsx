import { useEffect, useState } from 'react';
import type { SessionSandbox } from '../../../shared/domain';
import { useApi } from '../api/context';
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
    </p>
  );
}

/** The sandbox of an open session, kept current from the session's state events. */
export function SessionSandboxLine({ sessionId }: { sessionId: string }) {
  const api = useApi();
  // Kept with its session id, so a line never shows another session's sandbox.
  const [known, setKnown] = useState<{ sessionId: string; sandbox: SessionSandbox } | null>(null);

  useEffect(() => {
    let live = true;
    const unsubscribe = api.subscribe((event) => {
      if (event.type === 'session_state' && event.session.sessionId === sessionId)
        setKnown({ sessionId, sandbox: event.session.sandbox });
    });
    api
      .call('listSessions', {})
      .then((sessions) => {
        const found = sessions.find((s) => s.sessionId === sessionId);
        if (live && found) setKnown({ sessionId, sandbox: found.sandbox });
      })
      .catch(() => undefined);
    return () => {
      live = false;
      unsubscribe();
    };
  }, [api, sessionId]);

  return known?.sessionId === sessionId ? <SandboxSummary sandbox={known.sandbox} /> : null;
}
