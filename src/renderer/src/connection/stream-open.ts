// What a view shows of the core is read once and then kept current by events, and an event stream
// that drops (a cut-off, a sleeping phone, a network gone, the core restarted) misses every event
// published meanwhile: none is replayed. So each such view reads again whenever its stream opens,
// the first time (what changed between its first read and the stream's start) and after each loss.
import { useEffect, useRef } from 'react';
import type { GatehouseApi } from '../../../shared/contract';

/** Calls `read` each time the event stream (re)opens; returns the unsubscribe function. */
export function whenStreamOpens(api: GatehouseApi, read: () => void): () => void {
  return api.onConnectionChange((connected) => {
    if (connected) read();
  });
}

/** The same for a view: the `read` of its latest render, subscribed once per api. */
export function useWhenStreamOpens(api: GatehouseApi, read: () => void): void {
  const latest = useRef(read);
  useEffect(() => {
    latest.current = read;
  });
  useEffect(() => whenStreamOpens(api, () => latest.current()), [api]);
}
