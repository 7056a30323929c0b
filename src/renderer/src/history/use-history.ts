// The decisions of one filter, newest first: the first page, more pages as the list scrolls (the
// core's keyset cursor), and the head refreshed when a new decision lands or the stream opens.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { GatehouseApi } from '../../../shared/contract';
import type { HistoryFilter, HistoryItem } from '../../../shared/history';
import { whenStreamOpens } from '../connection/stream-open';

export const PAGE_SIZE = 100;

interface ListState {
  /** The filter these items belong to (JSON); differs from the asked one while it loads. */
  key: string;
  items: HistoryItem[];
  cursor: string | null;
  error: string | null;
  /** Decisions that arrived live since the filter was loaded. */
  arrived: number;
}

export interface HistoryList {
  items: HistoryItem[];
  /** The first page of the current filter is on its way. */
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  error: string | null;
  arrived: number;
  loadMore(): void;
  /** Fetches the first page again and puts what is new on top (what is loaded stays). */
  refreshHead(): void;
}

const EMPTY: ListState = { key: '', items: [], cursor: null, error: null, arrived: 0 };

function unique(items: HistoryItem[]): HistoryItem[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.requestId) && seen.add(item.requestId));
}

export function useHistoryList(api: GatehouseApi, filter: HistoryFilter): HistoryList {
  const key = JSON.stringify(filter);
  const [state, setState] = useState<ListState>(EMPTY);
  const [loadingMore, setLoadingMore] = useState(false);
  const busy = useRef(false);
  const keyRef = useRef(key);

  useEffect(() => {
    keyRef.current = key;
    let stale = false;
    const query = JSON.parse(key) as HistoryFilter;
    api.call('history', { ...query, limit: PAGE_SIZE }).then(
      (page) => {
        if (!stale)
          setState({ key, items: page.items, cursor: page.nextCursor, error: null, arrived: 0 });
      },
      (error: Error) => {
        if (!stale) setState({ ...EMPTY, key, error: error.message });
      },
    );
    return () => {
      stale = true;
    };
  }, [api, key]);

  const loadMore = useCallback(() => {
    const { key: loadedKey, cursor } = state;
    if (!cursor || busy.current || loadedKey !== keyRef.current) return;
    busy.current = true;
    setLoadingMore(true);
    api
      .call('history', { ...(JSON.parse(loadedKey) as HistoryFilter), cursor, limit: PAGE_SIZE })
      .then(
        (page) =>
          setState((s) =>
            s.key !== loadedKey || s.cursor !== cursor
              ? s
              : { ...s, items: unique([...s.items, ...page.items]), cursor: page.nextCursor },
          ),
        (error: Error) =>
          setState((s) => (s.key === loadedKey ? { ...s, error: error.message } : s)),
      )
      .finally(() => {
        busy.current = false;
        setLoadingMore(false);
      });
  }, [api, state]);

  const refreshHead = useCallback(() => {
    const asked = keyRef.current;
    api.call('history', { ...(JSON.parse(asked) as HistoryFilter), limit: PAGE_SIZE }).then(
      (page) =>
        setState((s) => {
          if (s.key !== asked) return s;
          const known = new Set(s.items.map((i) => i.requestId));
          const fresh = page.items.filter((i) => !known.has(i.requestId)).length;
          if (fresh === 0) return s;
          const items = unique([...page.items, ...s.items]);
          // Past the first page the old cursor still points where the loaded list ends.
          const cursor = s.items.length > page.items.length ? s.cursor : page.nextCursor;
          return { ...s, items, cursor, arrived: s.arrived + fresh };
        }),
      () => undefined,
    );
  }, [api]);

  const current = state.key === key;
  return {
    // While another filter loads, the last list stays (dimmed) rather than flashing empty.
    items: state.items,
    loading: !current,
    loadingMore,
    hasMore: current && state.cursor !== null,
    error: current ? state.error : null,
    arrived: current ? state.arrived : 0,
    loadMore,
    refreshHead,
  };
}

/**
 * Calls `onDecision` (coalesced) whenever a request is decided, and whenever the event stream
 * (re)opens: requests decided while it was down sent no event that reached this page.
 */
export function useDecisions(api: GatehouseApi, onDecision: () => void, delayMs = 120): void {
  const callback = useRef(onDecision);
  useEffect(() => {
    callback.current = onDecision;
  });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      timer ??= setTimeout(() => {
        timer = null;
        callback.current();
      }, delayMs);
    };
    const unsubscribe = api.subscribe((event) => {
      if (event.type === 'permission_resolved') soon();
    });
    const unwatch = whenStreamOpens(api, soon);
    return () => {
      unsubscribe();
      unwatch();
      if (timer) clearTimeout(timer);
    };
  }, [api, delayMs]);
}
