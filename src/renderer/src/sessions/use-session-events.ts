import { useEffect, useState } from 'react';
import type { GatehouseEvent } from '../../../shared/contract';
import { useApi } from '../api/context';

type SessionEventType = 'sandbox_violation' | 'write_refused' | 'build_script_changed';
type SessionEvent<T extends SessionEventType> = Extract<GatehouseEvent, { type: T }>;

/** The newest are enough to act on; the history keeps them all. */
const SHOWN = 20;

/**
 * The events of one kind a session has had since the view opened, newest last. Kept with their
 * session id, so a view never shows another session's.
 */
export function useSessionEvents<T extends SessionEventType>(
  sessionId: string,
  type: T,
): SessionEvent<T>[] {
  const api = useApi();
  const [seen, setSeen] = useState<{ sessionId: string; list: SessionEvent<T>[] }>({
    sessionId,
    list: [],
  });

  useEffect(
    () =>
      api.subscribe((event) => {
        if (event.type !== type || event.sessionId !== sessionId) return;
        const mine = event as SessionEvent<T>;
        setSeen((prev) => ({
          sessionId,
          list: [...(prev.sessionId === sessionId ? prev.list : []), mine].slice(-SHOWN),
        }));
      }),
    [api, sessionId, type],
  );

  return seen.sessionId === sessionId ? seen.list : [];
}
