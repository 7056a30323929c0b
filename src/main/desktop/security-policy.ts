// The Electron security checklist as data and pure decisions, so each rule is a unit test under
// plain Node. security.ts wires these into Electron; it decides nothing itself.
// (Type-only Electron import: erased at build, nothing of Electron loads with this file.)
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import {
  CONTENT_SECURITY_POLICY,
  CSP_DIRECTIVES,
  serializeCsp,
} from '../../shared/security-headers';

export const APP_SCHEME = 'gatehouse';
/** Where the renderer is served from: a custom protocol, never file://. */
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export type WindowKind = 'approvals' | 'history' | 'settings';

export interface WindowSpec {
  kind: WindowKind;
  title: string;
  /** The renderer route of the window. */
  hash: `#/${string}`;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
}

/** Every window Gatehouse opens. Each gets the same web preferences (secureWebPreferences). */
export const WINDOWS: Record<WindowKind, WindowSpec> = {
  approvals: {
    kind: 'approvals',
    title: 'Gatehouse — Approvals',
    hash: '#/approvals',
    width: 980,
    height: 760,
    minWidth: 560,
    minHeight: 420,
  },
  history: {
    kind: 'history',
    title: 'Gatehouse — History',
    hash: '#/history',
    width: 1120,
    height: 800,
    minWidth: 640,
    minHeight: 420,
  },
  settings: {
    kind: 'settings',
    title: 'Gatehouse — Settings',
    hash: '#/settings',
    width: 760,
    height: 680,
    minWidth: 520,
    minHeight: 420,
  },
};

/** The renderer route of a window, optionally on one request (`#/approvals/<requestId>`). */
export function windowHash(kind: WindowKind, requestId?: string): string {
  const base = WINDOWS[kind].hash;
  return kind === 'approvals' && requestId ? `${base}/${encodeURIComponent(requestId)}` : base;
}

/** The one set of web preferences of every window: isolated, sandboxed, no Node. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
    disableDialogs: true,
    autoplayPolicy: 'user-gesture-required',
    enableWebSQL: false,
  };
}

export interface Bounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

/** Constructor options of a window: created hidden (shown on ready-to-show), secure preferences. */
export function windowOptions(
  kind: WindowKind,
  preload: string,
  bounds?: Bounds,
): BrowserWindowConstructorOptions {
  const spec = WINDOWS[kind];
  return {
    width: bounds?.width ?? spec.width,
    height: bounds?.height ?? spec.height,
    ...(bounds?.x !== undefined && bounds?.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: spec.minWidth,
    minHeight: spec.minHeight,
    show: false,
    title: spec.title,
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preload),
  };
}

/**
 * The page CSP. Production: the same strict policy the HTTP server sends (scripts only from
 * Gatehouse itself, no eval, nothing framed). The dev server (npm start) additionally needs Vite's
 * inline React-refresh preamble and its HMR websocket.
 */
export function contentSecurityPolicy(devServerUrl?: string): string {
  if (!devServerUrl) return CONTENT_SECURITY_POLICY;
  const dev = new URL(devServerUrl);
  const ws = `${dev.protocol === 'https:' ? 'wss' : 'ws'}://${dev.host}`;
  return serializeCsp({
    ...CSP_DIRECTIVES,
    'script-src': [...CSP_DIRECTIVES['script-src'], "'unsafe-inline'"],
    'connect-src': [...CSP_DIRECTIVES['connect-src'], ws],
  });
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Gatehouse's own UI: the app protocol's host, or (in development only) the dev server's origin. */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) return true;
  if (!devServerUrl) return false;
  const dev = parse(devServerUrl);
  return (
    !!dev && (dev.protocol === 'http:' || dev.protocol === 'https:') && parsed.origin === dev.origin
  );
}

/** External links a window may open in the system browser; everything else is refused. */
export const EXTERNAL_LINK_ALLOWLIST: readonly string[] = [
  'https://agentclientprotocol.com/',
  'https://github.com/',
  'https://www.electronjs.org/docs/',
];

export function isAllowedExternal(url: string): boolean {
  const parsed = parse(url);
  // Compared after parsing, so "https://github.com.evil/" or credentials tricks do not pass.
  if (!parsed || parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  return EXTERNAL_LINK_ALLOWLIST.some((prefix) => {
    const allowed = new URL(prefix);
    return parsed.origin === allowed.origin && parsed.pathname.startsWith(allowed.pathname);
  });
}

/** will-navigate / will-redirect: a window never leaves Gatehouse's own UI. */
export function navigationAllowed(url: string, devServerUrl?: string): boolean {
  return isAppUrl(url, devServerUrl);
}

/**
 * will-download: only files the app itself made (a history export, a blob: URL of an app page)
 * may be saved, through the system save dialog. Nothing from the network is ever downloaded.
 */
export function downloadAllowed(url: string, devServerUrl?: string): boolean {
  if (!url.startsWith('blob:')) return false;
  return isAppUrl(url.slice('blob:'.length), devServerUrl);
}

export type WindowOpenDecision = { action: 'deny'; openExternal: string | null };

/** setWindowOpenHandler: no new windows, ever; allowlisted https links go to the system browser. */
export function windowOpenDecision(url: string): WindowOpenDecision {
  return { action: 'deny', openExternal: isAllowedExternal(url) ? url : null };
}

/** Permission requests and checks (camera, notifications from pages, geolocation, …): all denied. */
export function permissionDecision(_permission: string, _requestingUrl?: string): boolean {
  return false;
}

export interface IpcSender {
  /** URL of the frame that sent the message (null when the frame is gone). */
  frameUrl: string | null;
  /** Whether that frame is the top frame of its page (no iframe may call the API). */
  isMainFrame: boolean;
  /** Whether the page belongs to a window Gatehouse created. */
  knownWindow: boolean;
}

/** Every IPC handler asks this before the core sees the call. */
export function ipcSenderAllowed(sender: IpcSender, devServerUrl?: string): boolean {
  return (
    sender.knownWindow &&
    sender.isMainFrame &&
    sender.frameUrl !== null &&
    isAppUrl(sender.frameUrl, devServerUrl)
  );
}

/**
 * The file the app protocol serves for a request URL, or null (404): only GET, only the app host,
 * never outside the renderer folder. Unknown routes fall back to index.html (hash routing).
 */
export function appProtocolPath(requestUrl: string, method = 'GET'): string | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const parsed = parse(requestUrl);
  if (!parsed || parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  const segments = path.split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.')) return null;
  return segments.length === 0 ? 'index.html' : segments.join('/');
}
