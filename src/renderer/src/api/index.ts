import type { GatehouseApi, GatehouseBridge } from '../../../shared/contract';
import { BridgeApi } from './bridge-client';
import { HttpApi } from './http-client';

declare global {
  interface Window {
    gatehouse?: GatehouseBridge;
  }
}

const TOKEN_KEY = 'gatehouse.token';

/**
 * The same screens run in Electron (preload bridge) and in a browser (HTTP + SSE). In the browser
 * the token arrives in the URL fragment once and is kept for this tab only.
 */
export async function connectApi(): Promise<GatehouseApi> {
  if (window.gatehouse) return new BridgeApi(window.gatehouse);
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  const token = fromHash ?? sessionStorage.getItem(TOKEN_KEY);
  if (!token) throw new Error('No access token: open the URL that `npm run headless` printed.');
  const api = new HttpApi(window.location.origin, token);
  await api.connect();
  return api;
}
