import { useState } from 'react';
import { notificationsSupported, serviceWorkerReady } from './service-worker';
import './NotificationOffer.css';

const DISMISSED_KEY = 'gatehouse.notifications.dismissed';

/** Whether this browser shows notifications now (the person said yes). */
export const notificationsOn = () =>
  notificationsSupported() && Notification.permission === 'granted';

/**
 * A visible offer, never a prompt on load: the browser asks for permission only when the person
 * presses the button. Gone once answered, or once dismissed (remembered by this browser).
 */
export function NotificationOffer({ onAnswered }: { onAnswered: () => void }) {
  const [hidden, setHidden] = useState(
    () =>
      !notificationsSupported() ||
      Notification.permission !== 'default' ||
      localStorage.getItem(DISMISSED_KEY) === '1',
  );
  if (hidden) return null;
  const turnOn = async () => {
    const answer = await Notification.requestPermission();
    if (answer === 'granted') await serviceWorkerReady();
    setHidden(true);
    onAnswered();
  };
  const dismiss = () => {
    localStorage.setItem(DISMISSED_KEY, '1');
    setHidden(true);
  };
  return (
    <section className="gh-notify-offer" aria-label="Notifications">
      <p>
        Get a notification when an agent asks while this tab is in the background, with Allow and
        Deny where your browser offers them.
      </p>
      <div className="gh-notify-buttons">
        <button type="button" className="primary" onClick={() => void turnOn()}>
          Turn on notifications
        </button>
        <button type="button" onClick={dismiss}>
          Not now
        </button>
      </div>
    </section>
  );
}
