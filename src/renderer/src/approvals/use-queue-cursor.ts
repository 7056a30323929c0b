import { useState } from 'react';
import type { PendingSummary } from '../../../shared/domain';

/**
 * Which request of the ordered queue is on screen. It stays put by id while the queue reorders
 * around it; when it leaves, the one that takes its place in the list is shown.
 */
export function useQueueCursor(ordered: readonly PendingSummary[]) {
  const [cursor, setCursor] = useState<{ id: string | null; index: number }>({
    id: null,
    index: 0,
  });
  const found = ordered.findIndex((a) => a.requestId === cursor.id);
  const index = found >= 0 ? found : Math.min(cursor.index, ordered.length - 1);
  const current: PendingSummary | null = index >= 0 ? (ordered[index] ?? null) : null;
  if (current && (cursor.id !== current.requestId || cursor.index !== index)) {
    setCursor({ id: current.requestId, index });
  }

  /** Shows `requestId`, which sits at `at` in the list. */
  const moveTo = (requestId: string | null, at: number) => setCursor({ id: requestId, index: at });

  /** The next (1) or previous (-1) request, round the end of the list. */
  const go = (delta: number) => {
    if (ordered.length === 0) return;
    const at = (index + delta + ordered.length) % ordered.length;
    moveTo(ordered[at]!.requestId, at);
  };

  /** Moves past `leaving` to what takes their place, before their votes are sent. */
  const advancePast = (leaving: ReadonlySet<string>) => {
    if (!current || !leaving.has(current.requestId)) return;
    const rest = ordered.filter((a) => !leaving.has(a.requestId));
    const at = Math.max(0, Math.min(index, rest.length - 1));
    moveTo(rest[at]?.requestId ?? null, at);
  };

  return { index, current, moveTo, go, advancePast };
}
