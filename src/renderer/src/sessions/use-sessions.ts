import { useEffect, useState } from 'react';
import type { SessionInfo } from '../../../shared/domain';
import { useApi } from '../api/context';
import { whenStreamOpens } from '../connection/stream-open';
import { serialRead } from './serial-read';

/** Events after which the list may read differently: a session's state, its waiting requests. */
const CHANGES = new Set(['session_state', 'permission_requested', 'permission_resolved']);

/** Every session of the core (open, and ended today), kept current over the event stream. */
export function useSessions(): { sessions: SessionInfo[]; error: string | null } {
  const api = useApi();
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const read = serialRead(
      () =>
        api.call('listSessions', {}).then(
          (list) => {
            if (!live) return;
            setSessions(list);
            setError(null);
          },
          (e: Error) => live && setError(e.message),
        ),
      () => live,
    );
    read();
    const unsubscribe = api.subscribe((event) => {
      if (CHANGES.has(event.type)) read();
    });
    const unwatch = whenStreamOpens(api, read);
    return () => {
      live = false;
      unsubscribe();
      unwatch();
    };
  }, [api]);

  return { sessions, error };
}

export type SessionStatus = 'starting' | 'idle' | 'working' | 'waiting' | 'ended';

/** The state a person reads: a turn with requests waiting is waiting for them. */
export function statusOf(session: SessionInfo): SessionStatus {
  if (session.state === 'closed') return 'ended';
  if (session.state === 'prompting') return (session.pendingCount ?? 0) > 0 ? 'waiting' : 'working';
  return session.state;
}

export const STATUS_LABEL: Record<SessionStatus, string> = {
  starting: 'Starting',
  idle: 'Idle',
  working: 'Working',
  waiting: 'Waiting for approval',
  ended: 'Ended',
};

export const END_LABEL: Record<NonNullable<SessionInfo['endReason']>, string> = {
  session_closed: 'closed',
  agent_exit: 'the agent exited',
  agent_unresponsive: 'the agent ignored a cancel and was stopped',
  shutdown: 'Gatehouse shut down',
};

/** "Ended — the agent exited", "Waiting for approval". */
export function statusWords(session: SessionInfo): string {
  const status = statusOf(session);
  if (status === 'ended' && session.resumable) return 'Ended with Gatehouse — resumable';
  if (status === 'ended' && session.endReason) return `Ended — ${END_LABEL[session.endReason]}`;
  if (status === 'starting' && session.authMethods) return 'Starting — the agent asks to sign in';
  return STATUS_LABEL[status];
}
