// Waiting requests reach the person whose Gatehouse tab is in the background: a notification per
// request (its text from the same summary as the dialog), closed when the request ends, set right
// from the core's list whenever the event stream opens again (what began or ended while it was
// down went unheard), with Allow and Deny buttons where the browser offers them. A button's choice
// comes back from the service worker as a message; it is checked against this page's own queue and
// voted through its API.
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { summarizeApproval } from '../../../shared/approval-summary';
import type { PendingSummary } from '../../../shared/domain';
import { useApi } from '../api/context';
import { ReadClock } from '../connection/read-order';
import { whenStreamOpens } from '../connection/stream-open';
import { approveOption, denyOption, hasDanger } from '../approvals/queue-order';
import type { ApprovalQueue } from '../approvals/use-approvals';
import { notificationText } from './notification-text';
import { reconcileNotifications } from './reconcile';
import { serviceWorkerReady } from './service-worker';

const WorkerMessage = z
  .object({
    type: z.literal('gatehouse-notification'),
    requestId: z.string().min(1).max(100),
    action: z.enum(['allow', 'deny', 'open']),
  })
  .strict();

/** The option a notification's button stands for, if the request still offers it safely. */
export function optionForAction(a: PendingSummary, action: 'allow' | 'deny') {
  if (action === 'deny') return denyOption(a);
  // Danger is never allowed from outside the dialog, even if an old notification offered it.
  return hasDanger(a) ? undefined : approveOption(a);
}

export function useBrowserNotifications(queue: ApprovalQueue, enabled: boolean): void {
  const api = useApi();
  const queueRef = useRef(queue);
  useEffect(() => {
    queueRef.current = queue;
  }, [queue]);

  useEffect(() => {
    if (!enabled) return;
    // Registered now, not at the first request: its buttons need it answering when one comes.
    void serviceWorkerReady();
    const heard = new Set<string>();
    // Ends heard while a reconcile reads the list, so it never shows a request that just ended.
    const clock = new ReadClock<Record<string, never>>();
    const shown = async (requestId: string) =>
      (await serviceWorkerReady())?.getNotifications({ tag: requestId }) ?? [];
    const show = (summary: PendingSummary, renotify: boolean) => {
      const text = notificationText(summary);
      void serviceWorkerReady().then((registration) =>
        registration?.showNotification(text.title, {
          body: text.body,
          tag: summary.requestId,
          data: { requestId: summary.requestId },
          requireInteraction: true,
          // Not in every browser's typings, nor every browser: where absent, a click opens the page.
          ...({ actions: text.actions, renotify } as NotificationOptions),
        }),
      );
    };
    const off = api.subscribe((event) => {
      if (event.type === 'permission_requested') {
        heard.add(event.approval.requestId);
        // The page in front shows the dialog itself.
        if (document.visibilityState === 'visible') return;
        show(summarizeApproval(event.approval), false);
      } else if (event.type === 'permission_previewed') {
        // Replaces the one shown (same tag) with what the preview found; a danger alerts again.
        const summary = summarizeApproval(event.approval);
        void shown(summary.requestId).then((list) => {
          if (list.length > 0) show(summary, hasDanger(summary));
        });
      } else if (event.type === 'permission_resolved') {
        heard.delete(event.requestId);
        clock.touch(event.requestId, null);
        void shown(event.requestId).then((list) => list.forEach((n) => n.close()));
      }
    });
    const unwatch = whenStreamOpens(api, () => {
      void serviceWorkerReady()
        .then((registration) =>
          registration
            ? reconcileNotifications({
                getNotifications: () => registration.getNotifications(),
                listWaiting: () => api.call('listApprovals', {}),
                heard,
                clock,
                hidden: () => document.visibilityState !== 'visible',
                show: (summary) => show(summary, false),
              })
            : undefined,
        )
        .catch(() => undefined);
    });
    const onMessage = (message: MessageEvent) => {
      const parsed = WorkerMessage.safeParse(message.data);
      if (!parsed.success) return;
      const { requestId, action } = parsed.data;
      if (action === 'open') {
        window.location.hash = '#/approvals';
        return;
      }
      const current = queueRef.current;
      const summary = current.items.find((a) => a.requestId === requestId);
      const option = summary && optionForAction(summary, action);
      if (option) void current.vote(requestId, option.optionId);
    };
    navigator.serviceWorker?.addEventListener('message', onMessage);
    return () => {
      off();
      unwatch();
      navigator.serviceWorker?.removeEventListener('message', onMessage);
    };
  }, [api, enabled]);
}
