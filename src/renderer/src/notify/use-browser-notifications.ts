// Waiting requests reach the person whose Gatehouse tab is in the background: a notification per
// request (its text from the same summary as the dialog), closed when the request ends, or when the
// event stream opens again and the request no longer waits (its end went unheard while the stream
// was down), with Allow and Deny buttons where the browser offers them. A button's choice comes
// back from the service worker as a message; it is checked against this page's own queue and voted
// through its API.
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { summarizeApproval } from '../../../shared/approval-summary';
import type { PendingSummary } from '../../../shared/domain';
import { useApi } from '../api/context';
import { whenStreamOpens } from '../connection/stream-open';
import { approveOption, denyOption, hasDanger } from '../approvals/queue-order';
import type { ApprovalQueue } from '../approvals/use-approvals';
import { notificationText } from './notification-text';
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
        void shown(event.requestId).then((list) => list.forEach((n) => n.close()));
      }
    });
    // A request decided or cancelled while the stream was down sent an event this page never heard:
    // its notification goes once the core's list says it waits no more. A list the core cut short
    // cannot say that of the requests it left out, so nothing is closed from it.
    const unwatch = whenStreamOpens(api, () => {
      void Promise.all([api.call('listApprovals', {}), serviceWorkerReady()])
        .then(async ([{ items, total }, registration]) => {
          if (!registration || total > items.length) return;
          const waiting = new Set(items.map((a) => a.requestId));
          for (const notification of await registration.getNotifications())
            if (!waiting.has(notification.tag)) notification.close();
        })
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
