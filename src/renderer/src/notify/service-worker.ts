/** Where notifications and their buttons are possible: a secure context with both APIs. */
export const notificationsSupported = () =>
  typeof Notification !== 'undefined' && 'serviceWorker' in navigator && window.isSecureContext;

let registering: Promise<ServiceWorkerRegistration | null> | null = null;

/** The service worker, registered once (same origin, the path the CSP's worker-src allows). */
export function serviceWorkerReady(): Promise<ServiceWorkerRegistration | null> {
  if (!notificationsSupported() || Notification.permission !== 'granted')
    return Promise.resolve(null);
  registering ??= navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .then(() => navigator.serviceWorker.ready)
    .catch(() => {
      registering = null;
      return null;
    });
  return registering;
}
