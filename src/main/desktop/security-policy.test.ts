// The Electron security checklist, rule by rule, for every window — as data, under plain Node.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveStatic } from '../server/static-files';
import {
  APP_ORIGIN,
  WINDOWS,
  appProtocolPath,
  contentSecurityPolicy,
  downloadAllowed,
  ipcSenderAllowed,
  isAllowedExternal,
  isAppUrl,
  navigationAllowed,
  permissionDecision,
  secureWebPreferences,
  windowHash,
  windowOpenDecision,
  windowOptions,
  type WindowKind,
} from './security-policy';

const KINDS = Object.keys(WINDOWS) as WindowKind[];

/** The checklist's web preferences, each with what it keeps from a page that was taken over. */
const CHECKLIST: [string, boolean, string][] = [
  ['contextIsolation', true, "the preload's objects out of the page's reach"],
  ['sandbox', true, "the renderer in Chromium's OS sandbox"],
  ['nodeIntegration', false, 'no Node in the page'],
  ['nodeIntegrationInWorker', false, 'nor in its workers'],
  ['nodeIntegrationInSubFrames', false, 'nor in its frames'],
  ['webSecurity', true, 'the same-origin policy'],
  ['allowRunningInsecureContent', false, 'no http script in an https page'],
  ['experimentalFeatures', false, 'no Chromium feature still in trial'],
  ['webviewTag', false, 'no <webview> to open other content with other preferences'],
  ['navigateOnDragDrop', false, 'a dropped file or link does not replace the app'],
];
const DEV = 'http://localhost:5173';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

describe('windows', () => {
  it('are the approvals dialog, history and settings, each on its own route', () => {
    expect(KINDS).toEqual(['approvals', 'history', 'settings']);
    expect(KINDS.map((k) => windowHash(k))).toEqual(['#/approvals', '#/history', '#/settings']);
    expect(windowHash('approvals', '0190f0a0-0000-7000-8000-000000000001')).toBe(
      '#/approvals/0190f0a0-0000-7000-8000-000000000001',
    );
    expect(windowHash('history', 'ignored')).toBe('#/history');
  });

  it.each(KINDS)('%s: created hidden, with the secure web preferences and the preload', (kind) => {
    const options = windowOptions(kind, '/app/out/preload/index.cjs');
    expect(options.show).toBe(false);
    expect(options.title).toBe(WINDOWS[kind].title);
    expect(options.webPreferences).toEqual(secureWebPreferences('/app/out/preload/index.cjs'));
    const prefs = options.webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      ...Object.fromEntries(CHECKLIST.map(([name, value]) => [name, value])),
    });
    // Nothing in the preferences may weaken the defaults.
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs).not.toHaveProperty('additionalArguments');
    expect(prefs).not.toHaveProperty('partition');
  });

  it('restores saved bounds, keeps minimum sizes', () => {
    const options = windowOptions('history', '/p', { x: 10, y: 20, width: 900, height: 700 });
    expect(options).toMatchObject({ x: 10, y: 20, width: 900, height: 700, minWidth: 640 });
    expect(windowOptions('settings', '/p', { width: 800, height: 600 })).not.toHaveProperty('x');
  });
});

describe('content security policy', () => {
  /** The policy itself, written out as the header a browser reads: a change to it must show up here. */
  const PRODUCTION = Object.fromEntries(
    directives(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
  );

  it('production: nothing but Gatehouse itself, no eval, no inline script, no framing', () => {
    expect(Object.fromEntries(directives(contentSecurityPolicy()))).toEqual(PRODUCTION);
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-eval|\*|http:|https:/);
  });

  it("the HTTP server sends the desktop windows' policy, with the same security headers", async () => {
    const root = mkdtempSync(join(tmpdir(), 'gatehouse-csp-'));
    try {
      writeFileSync(join(root, 'index.html'), '<!doctype html>');
      const res = Object.assign(new PassThrough(), {
        headers: {} as Record<string, unknown>,
        writeHead(status: number, headers: Record<string, unknown>) {
          this.headers = { status, ...headers };
          return this;
        },
      });
      await serveStatic(root, '/', res as unknown as ServerResponse);
      expect((await res.toArray()).join('')).toBe('<!doctype html>');
      expect(res.headers).toMatchObject({
        status: 200,
        'content-security-policy': contentSecurityPolicy(),
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('development adds only the dev server websocket and the refresh preamble', () => {
    expect(Object.fromEntries(directives(contentSecurityPolicy(DEV)))).toEqual({
      ...PRODUCTION,
      'script-src': ["'self'", "'unsafe-inline'"],
      'connect-src': ["'self'", 'ws://localhost:5173'],
    });
    expect(directives(contentSecurityPolicy('https://localhost:5173')).get('connect-src')).toEqual([
      "'self'",
      'wss://localhost:5173',
    ]);
    expect(contentSecurityPolicy(DEV)).not.toContain('unsafe-eval');
  });
});

describe('navigation', () => {
  it('stays inside the app protocol (or the dev server in development)', () => {
    expect(navigationAllowed(`${APP_ORIGIN}/index.html#/history`)).toBe(true);
    for (const url of [
      'https://github.com/',
      'file:///etc/passwd',
      'gatehouse://approve/x',
      'gatehouse://app.evil/',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'about:blank',
      'not a url',
      `${DEV}/`,
    ]) {
      expect(navigationAllowed(url), url).toBe(false);
    }
    expect(navigationAllowed(`${DEV}/index.html`, DEV)).toBe(true);
    // Compared by origin, not by prefix.
    expect(navigationAllowed('http://localhost:5173.evil.com/', DEV)).toBe(false);
    expect(navigationAllowed('http://localhost:51730/', DEV)).toBe(false);
    expect(isAppUrl(`${APP_ORIGIN}/x`, 'file:///dev')).toBe(true);
    expect(isAppUrl('file:///dev/x', 'file:///dev')).toBe(false);
  });
});

describe('window.open', () => {
  it('is always denied; only allowlisted https links go to the system browser', () => {
    expect(windowOpenDecision('https://github.com/agentclientprotocol')).toEqual({
      action: 'deny',
      openExternal: 'https://github.com/agentclientprotocol',
    });
    for (const url of [
      'http://github.com/',
      'https://github.com.evil.example/',
      'https://evil.example/https://github.com/',
      'https://user:pw@github.com/',
      'file:///etc/passwd',
      `${APP_ORIGIN}/index.html`,
      'gatehouse://approve/abc',
      'javascript:alert(1)',
    ]) {
      expect(windowOpenDecision(url), url).toEqual({ action: 'deny', openExternal: null });
      expect(isAllowedExternal(url)).toBe(false);
    }
  });
});

describe('permissions', () => {
  it.each([
    'media',
    'geolocation',
    'notifications',
    'clipboard-read',
    'openExternal',
    'fullscreen',
    'unknown',
  ])('%s is denied', (permission) => {
    expect(permissionDecision(permission, `${APP_ORIGIN}/index.html`)).toBe(false);
  });
});

describe('IPC sender check', () => {
  const ok = {
    frameUrl: `${APP_ORIGIN}/index.html#/approvals`,
    isMainFrame: true,
    knownWindow: true,
  };
  it('accepts only the top frame of a Gatehouse window showing Gatehouse', () => {
    expect(ipcSenderAllowed(ok)).toBe(true);
    expect(ipcSenderAllowed({ ...ok, isMainFrame: false })).toBe(false);
    expect(ipcSenderAllowed({ ...ok, knownWindow: false })).toBe(false);
    expect(ipcSenderAllowed({ ...ok, frameUrl: null })).toBe(false);
    expect(ipcSenderAllowed({ ...ok, frameUrl: 'https://evil.example/' })).toBe(false);
    expect(ipcSenderAllowed({ ...ok, frameUrl: `${DEV}/` })).toBe(false);
    expect(ipcSenderAllowed({ ...ok, frameUrl: `${DEV}/` }, DEV)).toBe(true);
  });
});

describe('app protocol', () => {
  it('serves files of the renderer build only, GET only, never outside it', () => {
    expect(appProtocolPath(`${APP_ORIGIN}/index.html`)).toBe('index.html');
    expect(appProtocolPath(`${APP_ORIGIN}/`)).toBe('index.html');
    expect(appProtocolPath(`${APP_ORIGIN}/assets/index-abc.js`)).toBe('assets/index-abc.js');
    expect(appProtocolPath(`${APP_ORIGIN}/assets/index-abc.js`, 'POST')).toBeNull();
    // The URL parser resolves dot segments first: what is left is inside the renderer folder.
    expect(appProtocolPath(`${APP_ORIGIN}/%2e%2e/%2e%2e/etc/passwd`)).toBe('etc/passwd');
    expect(appProtocolPath(`${APP_ORIGIN}/..%2f..%2fetc/passwd`)).toBeNull();
    expect(appProtocolPath(`${APP_ORIGIN}/a%5c..%5cb`)).toBeNull();
    expect(appProtocolPath(`${APP_ORIGIN}/a%00.js`)).toBeNull();
    expect(appProtocolPath(`${APP_ORIGIN}/%E0%A4%A`)).toBeNull();
    expect(appProtocolPath('gatehouse://approve/0190f0a0-0000-7000-8000-000000000001')).toBeNull();
    expect(appProtocolPath('https://app/index.html')).toBeNull();
  });
});

describe('downloads', () => {
  it('saves only blob: files made by an app page (history export), never anything from the network', () => {
    expect(downloadAllowed(`blob:${APP_ORIGIN}/8f1c`)).toBe(true);
    expect(downloadAllowed(`blob:${DEV}/8f1c`, DEV)).toBe(true);
    expect(downloadAllowed(`blob:${DEV}/8f1c`)).toBe(false);
    expect(downloadAllowed('blob:https://evil.example/8f1c')).toBe(false);
    expect(downloadAllowed('https://evil.example/payload.exe')).toBe(false);
    expect(downloadAllowed(`${APP_ORIGIN}/index.html`)).toBe(false);
    expect(downloadAllowed('data:text/plain,hi')).toBe(false);
  });
});
