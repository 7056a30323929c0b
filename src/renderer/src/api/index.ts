import type { GatehouseApi, GatehouseBridge } from '../../../shared/contract';
import { download } from '../ui/download';
import { BridgeApi } from './bridge-client';
import { HttpApi } from './http-client';

declare global {
  interface Window {
    gatehouse?: GatehouseBridge;
  }
}

const TOKEN_KEY = 'gatehouse.token';

/** The page was opened without the token its address carries. */
export class MissingTokenError extends Error {
  constructor() {
    super('This address carries no access token.');
  }
}
/** This browser's pairing, per Gatehouse address; it outlives the tab (the bearer token does not). */
const IDENTITY_KEY = `gatehouse.identity:${window.location.origin}`;

interface StoredIdentity {
  clientId: string;
  clientToken: string;
}

function storedIdentity(): StoredIdentity | null {
  try {
    const value = JSON.parse(
      localStorage.getItem(IDENTITY_KEY) ?? 'null',
    ) as Partial<StoredIdentity> | null;
    return typeof value?.clientId === 'string' && typeof value.clientToken === 'string'
      ? { clientId: value.clientId, clientToken: value.clientToken }
      : null;
  } catch {
    return null;
  }
}

const deviceLabel = () => `Browser (${navigator.platform || 'unknown platform'})`.slice(0, 100);

/**
 * The same screens run in Electron (preload bridge) and in a browser (HTTP + SSE). In the browser
 * the token arrives in the URL fragment once and is kept for this tab only; a pairing secret in the
 * fragment is exchanged at once for this browser's paired identity, kept in localStorage.
 */
export async function connectApi(): Promise<GatehouseApi> {
  if (window.gatehouse) return new BridgeApi(window.gatehouse);
  // A new address opened in this tab differs only in its fragment, which does not load the page
  // again: a new token arriving that way (after a rotation) is taken up by loading it again.
  window.addEventListener('hashchange', () => {
    const arrived = new URLSearchParams(window.location.hash.slice(1)).get('token');
    if (arrived && arrived !== sessionStorage.getItem(TOKEN_KEY)) window.location.reload();
  });
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const fromHash = fragment.get('token');
  const pairing = fragment.get('pair');
  if (fromHash) sessionStorage.setItem(TOKEN_KEY, fromHash);
  if (fromHash || pairing)
    history.replaceState(null, '', window.location.pathname + window.location.search);
  const token = fromHash ?? sessionStorage.getItem(TOKEN_KEY);
  if (!token) throw new MissingTokenError();
  const api = new HttpApi(window.location.origin, token, 'Bearer', download);
  if (pairing) {
    // The pairing this browser already holds goes with the new one, which then takes its place:
    // a browser that opens a fresh link after a restart is still one device, listed once.
    api.actAs(storedIdentity());
    try {
      localStorage.setItem(IDENTITY_KEY, JSON.stringify(await api.pair(pairing, deviceLabel())));
    } catch {
      // A used or expired secret: a pairing this browser already holds still applies.
      api.actAs(null);
    }
  }
  // Paired just now: the core took this tab's token and made the pairing; nothing to check.
  if (api.paired) return api;
  const stored = storedIdentity();
  if (stored) api.resume(stored);
  // The first answer also tells whether the core still accepts this tab's token: a refused one
  // puts the page in its "open the new address" state before any view reads an empty answer.
  const clients = await api.call('listClients', {}).catch(() => null);
  // A revoked pairing is dropped, so the page says it is not paired rather than pretend.
  if (stored && clients && !clients.some((c) => c.clientId === stored.clientId && c.paired)) {
    api.resume(null);
    localStorage.removeItem(IDENTITY_KEY);
  }
  return api;
}
