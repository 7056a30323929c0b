// Gatehouse's service worker: only what the buttons of a notification need. It holds no token and
// no identity: a choice made on a notification is handed to an open Gatehouse page of this origin,
// which checks that the request still waits and that the choice is one it offers, then votes
// through its own authenticated API, as its paired device (audited under that device's name).
/* global self */
'use strict';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

const ACTIONS = new Set(['allow', 'deny']);
const REQUEST_ID = /^[A-Za-z0-9_-]{1,100}$/;

self.addEventListener('notificationclick', (event) => {
  const notification = event.notification;
  const requestId = notification.data && notification.data.requestId;
  const action = ACTIONS.has(event.action) ? event.action : 'open';
  notification.close();
  if (typeof requestId !== 'string' || !REQUEST_ID.test(requestId)) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const page = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (!page) {
        // No page to vote from: open one; the person decides there.
        await self.clients.openWindow('/#/approvals');
        return;
      }
      page.postMessage({ type: 'gatehouse-notification', requestId, action });
      if (action === 'open' && 'focus' in page) await page.focus();
    })(),
  );
});
