// The Windows toast of a notification model: text elements, one protocol-activation button per
// action. Built as a string so it is tested here; Electron's Notification takes it as `toastXml`.
import type { NotificationModel } from './notification-plan';

/** XML 1.0 text: the five entities escaped, characters XML cannot carry dropped. */
export function xmlEscape(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/**
 * `urlFor(action)` gives the activation URL of a button ('default' = clicking the toast body).
 * ToastGeneric shows at most three text lines: the title and two of the body.
 */
export function toastXml(model: NotificationModel, urlFor: (action: string) => string): string {
  const lines = [model.title, ...model.body.split('\n').slice(0, 2)];
  const texts = lines.map((line) => `<text>${xmlEscape(line)}</text>`).join('');
  const actions = model.actions
    .map(
      (a) =>
        `<action content="${xmlEscape(a.label)}" arguments="${xmlEscape(urlFor(a.id))}" activationType="protocol"/>`,
    )
    .join('');
  // scenario="reminder" keeps a request on screen until acted on (it has its own fail-closed
  // timeout, and is withdrawn when decided elsewhere); Windows honours it only with buttons.
  const scenario = model.actions.length > 0 ? ' scenario="reminder"' : '';
  return (
    `<toast launch="${xmlEscape(urlFor('default'))}" activationType="protocol"${scenario}>` +
    `<visual><binding template="ToastGeneric">${texts}</binding></visual>` +
    `<actions>${actions}</actions>` +
    `</toast>`
  );
}
