// While the event stream was down, requests ended and began unheard. When it opens again the
// notifications are set right from the core's list: those of requests that wait no more close, and
// a request that began unheard while the tab is in the background is shown.
import type { PendingSummary } from '../../../shared/domain';
import type { ReadClock } from '../connection/read-order';

interface Shown {
  readonly tag: string;
  close(): void;
}

export interface Reconcile {
  getNotifications(): Promise<readonly Shown[]>;
  listWaiting(): Promise<{ items: readonly PendingSummary[]; total: number }>;
  /** Requests this page already heard of by event (shown, or put in front of the person). */
  heard: Set<string>;
  /** Where the page notes the ends it hears of by event, so that a list read meanwhile is not
   *  taken for the newer word. */
  clock: ReadClock<Record<string, never>>;
  hidden(): boolean;
  show(summary: PendingSummary): void;
}

export async function reconcileNotifications(r: Reconcile): Promise<void> {
  // Read before the list: a notification shown after the list was read is never judged by it.
  const before = await r.getNotifications();
  const heardBefore = [...r.heard];
  const read = r.clock.begin();
  const { items, total } = await r.listWaiting().catch((error: unknown) => {
    r.clock.end(read);
    throw error;
  });
  const since = r.clock.end(read);
  const waiting = new Set(items.map((a) => a.requestId));
  // A list the core cut short cannot say the requests it left out wait no more.
  if (total === items.length) {
    for (const notification of before) if (!waiting.has(notification.tag)) notification.close();
    for (const id of heardBefore) if (!waiting.has(id)) r.heard.delete(id);
  }
  const tagged = new Set(before.map((n) => n.tag));
  for (const summary of items) {
    if (r.heard.has(summary.requestId) || since.get(summary.requestId) === null) continue;
    r.heard.add(summary.requestId);
    if (r.hidden() && !tagged.has(summary.requestId)) r.show(summary);
  }
}
