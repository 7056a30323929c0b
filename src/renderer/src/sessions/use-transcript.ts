import { useEffect, useState } from 'react';
import type { Transcript, TranscriptEntry } from '../../../shared/transcript';
import { useApi } from '../api/context';
import { whenStreamOpens } from '../connection/stream-open';
import { serialRead } from './serial-read';

export interface TranscriptState {
  entries: TranscriptEntry[];
  /** Earlier entries the core dropped to keep the transcript bounded. */
  dropped: number;
  error: string | null;
}

/** Entries by id, in order, with what changed since applied over them. */
function merge(entries: TranscriptEntry[], change: Transcript): TranscriptEntry[] {
  const byId = new Map<number, TranscriptEntry>();
  for (const entry of entries) if (entry.id >= change.firstId) byId.set(entry.id, entry);
  for (const entry of change.entries) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * The session's transcript as the core keeps it: read whole once, then only what changed after
 * the last revision seen, whenever the core says it changed (and again after a reconnect).
 */
export function useTranscript(sessionId: string): TranscriptState {
  const api = useApi();
  const [state, setState] = useState<TranscriptState & { sessionId: string }>({
    sessionId,
    entries: [],
    dropped: 0,
    error: null,
  });

  useEffect(() => {
    let live = true;
    let rev = 0;
    const read = serialRead(
      () =>
        api.call('getTranscript', { sessionId, since: rev }).then(
          (change) => {
            if (!live) return;
            rev = change.rev;
            setState((prev) => ({
              sessionId,
              entries: merge(prev.sessionId === sessionId ? prev.entries : [], change),
              dropped: change.dropped,
              error: null,
            }));
          },
          (e: Error) => live && setState((prev) => ({ ...prev, error: e.message })),
        ),
      () => live,
    );
    read();
    const unsubscribe = api.subscribe((event) => {
      if (event.type === 'transcript_changed' && event.sessionId === sessionId && event.rev > rev)
        read();
    });
    const unwatch = whenStreamOpens(api, read);
    return () => {
      live = false;
      unsubscribe();
      unwatch();
    };
  }, [api, sessionId]);

  return state.sessionId === sessionId ? state : { entries: [], dropped: 0, error: null };
}
