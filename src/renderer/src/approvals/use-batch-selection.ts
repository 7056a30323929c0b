import { useMemo, useState } from 'react';
import type { PendingSummary } from '../../../shared/domain';
import type { BatchKind } from './batch';

function without(set: ReadonlySet<string>, ids: Iterable<string>): ReadonlySet<string> {
  const next = new Set(set);
  for (const id of ids) next.delete(id);
  return next;
}

/**
 * The requests selected for a batch decision, and the batch awaiting a second click (an approve
 * that includes a danger warning). Changing the selection cancels that confirmation.
 */
export function useBatchSelection(ordered: readonly PendingSummary[]) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  // Only requests still in the queue count as selected.
  const selected = useMemo(
    () => new Set(ordered.filter((a) => chosen.has(a.requestId)).map((a) => a.requestId)),
    [ordered, chosen],
  );
  const [confirm, setConfirm] = useState<BatchKind | null>(null);

  const toggle = (requestId: string) => {
    setConfirm(null);
    setChosen((s) => (s.has(requestId) ? without(s, [requestId]) : new Set(s).add(requestId)));
  };
  const add = (requestIds: readonly string[]) => {
    setConfirm(null);
    setChosen((s) => new Set([...s, ...requestIds]));
  };
  /** Decided requests leave the selection (the confirmation stays as it is). */
  const remove = (requestIds: Iterable<string>) => setChosen((s) => without(s, requestIds));
  const clear = () => {
    setConfirm(null);
    setChosen(new Set());
  };

  return { selected, confirm, setConfirm, toggle, add, remove, clear };
}
