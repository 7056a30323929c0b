// gatehouse:// links, parsed strictly (no Electron here). A link can open a view or a request, or
// carry a notification activation token; it can never vote by itself, because any web page can
// open a gatehouse:// link.
import { APP_SCHEME } from './security-policy';

export type DeepLink =
  /** gatehouse://approve/<requestId>: the dialog, on that request. */
  | { type: 'approve'; requestId: string }
  /** gatehouse://open/<view> */
  | { type: 'open'; view: 'approvals' | 'history' | 'settings' }
  /** gatehouse://notification/<token>: a Windows toast button (see ActivationTokens). */
  | { type: 'activation'; token: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;
const VIEWS = new Set(['approvals', 'history', 'settings']);
const MAX_LENGTH = 512;

export function parseDeepLink(raw: string): DeepLink | null {
  if (typeof raw !== 'string' || raw.length > MAX_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.username || url.password || url.port) return null;
  const segments = url.pathname.split('/').filter((s) => s.length > 0);
  if (segments.length !== 1) return null;
  const value = segments[0]!;
  switch (url.hostname) {
    case 'approve':
      return UUID.test(value) ? { type: 'approve', requestId: value.toLowerCase() } : null;
    case 'open':
      return VIEWS.has(value)
        ? { type: 'open', view: value as 'approvals' | 'history' | 'settings' }
        : null;
    case 'notification':
      return TOKEN.test(value) ? { type: 'activation', token: value } : null;
    default:
      return null;
  }
}

/** The deep link in a command line (first launch, or a second instance's argv), if any. */
export function deepLinkFromArgv(argv: readonly string[]): DeepLink | null {
  for (const arg of argv) {
    if (typeof arg === 'string' && arg.toLowerCase().startsWith(`${APP_SCHEME}://`)) {
      const link = parseDeepLink(arg);
      if (link) return link;
    }
  }
  return null;
}

export const approveLink = (requestId: string) => `${APP_SCHEME}://approve/${requestId}`;
export const activationLink = (token: string) => `${APP_SCHEME}://notification/${token}`;
