import { useEffect, useState } from 'react';
import type { PendingApproval } from '../../../shared/domain';
import { useApi } from '../api/context';

/** The pending queue as the core sees it, kept live by events and re-read on every (re)connect. */
export function useApprovals(): PendingApproval[] {
  const api = useApi();
  const [approvals, setApprovals] = useState<PendingApproval[]>([]);

  useEffect(() => {
    let alive = true;
    const refresh = () => {
      api
        .call('listApprovals', {})
        .then((list) => alive && setApprovals(list))
        .catch(() => {});
    };
    const offEvents = api.subscribe((event) => {
      switch (event.type) {
        case 'permission_requested':
          setApprovals((list) =>
            list.some((a) => a.requestId === event.approval.requestId) ? list : [...list, event.approval],
          );
          break;
        case 'permission_resolved':
          setApprovals((list) => list.filter((a) => a.requestId !== event.requestId));
          break;
        case 'permission_partial_vote':
          setApprovals((list) => list.map((a) => (a.requestId === event.requestId ? { ...a, tally: event.tally } : a)));
          break;
        case 'permission_extended':
          setApprovals((list) =>
            list.map((a) => (a.requestId === event.requestId ? { ...a, expiresAt: event.expiresAt } : a)),
          );
          break;
      }
    });
    const offConnection = api.onConnectionChange((connected) => connected && refresh());
    refresh();
    return () => {
      alive = false;
      offEvents();
      offConnection();
    };
  }, [api]);

  return approvals;
}
