// The Electron side of the checklist: the handlers security.ts and ipc.ts install, exercised on
// hand-made fakes of the few Electron objects they touch (no Electron binary needed).
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ipcChannel, commandNames, IPC_EVENT_CHANNEL } from '../../shared/contract';
import { CONTENT_SECURITY_POLICY } from '../../shared/security-headers';
import { ClientRegistry } from '../core/approvals/clients';
import type { Core } from '../core/core';
import { EventBus } from '../core/events/bus';
import { HEALTH } from '../../../test/support/health';

const electron = vi.hoisted(() => {
  const handlers = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>();
  return {
    handlers,
    shell: { openExternal: vi.fn(async () => undefined) },
    ipcMain: {
      handle: (channel: string, fn: (event: unknown, input: unknown) => Promise<unknown>) =>
        handlers.set(channel, fn),
      removeHandler: (channel: string) => handlers.delete(channel),
    },
  };
});
vi.mock('electron', () => ({ shell: electron.shell, ipcMain: electron.ipcMain }));

const { restrictApp, restrictSession } = await import('./security');
const { wireIpc } = await import('./ipc');
const { APP_ORIGIN, WINDOWS, windowHash } = await import('./security-policy');

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  sent: Array<[string, unknown]> = [];
  mainFrame = { url: '', parent: null };
  constructor(public url = '') {
    super();
    this.mainFrame.url = url;
  }
  setWindowOpenHandler(fn: (details: { url: string }) => { action: string }) {
    this.openHandler = fn;
  }
  isDestroyed() {
    return false;
  }
  getURL() {
    return this.url;
  }
  send(channel: string, payload: unknown) {
    this.sent.push([channel, payload]);
  }
}

const prevented = (emit: (event: { preventDefault(): void; url?: string }) => void) => {
  const event = { preventDefault: vi.fn() };
  emit(event);
  return event.preventDefault.mock.calls.length > 0;
};

describe('every window gets the navigation, window-open and webview restrictions', () => {
  let sandboxed = 0;
  const app = Object.assign(new EventEmitter(), { enableSandbox: () => (sandboxed += 1) });
  restrictApp(app as never);

  it('sandboxes every renderer', () => {
    expect(sandboxed).toBe(1);
  });

  it.each(Object.keys(WINDOWS))('%s window', (kind) => {
    const contents = new FakeContents(
      `${APP_ORIGIN}/index.html${windowHash(kind as keyof typeof WINDOWS)}`,
    );
    app.emit('web-contents-created', {}, contents);

    for (const event of ['will-navigate', 'will-redirect']) {
      expect(prevented((e) => contents.emit(event, e, 'https://evil.example/'))).toBe(true);
      expect(prevented((e) => contents.emit(event, e, 'file:///etc/passwd'))).toBe(true);
      expect(prevented((e) => contents.emit(event, e, `${APP_ORIGIN}/index.html#/history`))).toBe(
        false,
      );
    }
    expect(
      prevented((e) =>
        contents.emit('will-frame-navigate', Object.assign(e, { url: 'https://evil.example/' })),
      ),
    ).toBe(true);
    expect(prevented((e) => contents.emit('will-attach-webview', e))).toBe(true);

    electron.shell.openExternal.mockClear();
    expect(contents.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: `${APP_ORIGIN}/index.html` })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).not.toHaveBeenCalled();
    expect(contents.openHandler!({ url: 'https://github.com/x/y' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://github.com/x/y');
  });
});

describe('the session', () => {
  type RequestHandler = (
    contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: { requestingUrl: string },
  ) => void;
  type HeadersHandler = (
    details: { responseHeaders: Record<string, string[]> },
    callback: (response: { responseHeaders: Record<string, string[]> }) => void,
  ) => void;

  class FakeSession {
    request: RequestHandler | null = null;
    check: ((contents: unknown, permission: string, origin: string) => boolean) | null = null;
    device: (() => boolean) | null = null;
    display: ((request: unknown, callback: (streams: unknown) => void) => void) | null = null;
    headers: HeadersHandler | null = null;
    readonly events = new EventEmitter();
    readonly webRequest = {
      onHeadersReceived: (fn: HeadersHandler) => {
        this.headers = fn;
      },
    };
    setPermissionRequestHandler(fn: RequestHandler) {
      this.request = fn;
    }
    setPermissionCheckHandler(fn: FakeSession['check']) {
      this.check = fn;
    }
    setDevicePermissionHandler(fn: FakeSession['device']) {
      this.device = fn;
    }
    setDisplayMediaRequestHandler(fn: FakeSession['display']) {
      this.display = fn;
    }
    on(event: string, fn: (...args: unknown[]) => void) {
      this.events.on(event, fn);
    }
  }

  it('denies every permission request and check, devices, screen capture and downloads; sends the CSP', () => {
    const s = new FakeSession();
    restrictSession(s as never);
    for (const permission of [
      'media',
      'notifications',
      'geolocation',
      'clipboard-sanitized-write',
      'fullscreen',
    ]) {
      const answers: boolean[] = [];
      s.request!({}, permission, (ok) => answers.push(ok), {
        requestingUrl: `${APP_ORIGIN}/index.html`,
      });
      expect(answers).toEqual([false]);
      expect(s.check!({}, permission, APP_ORIGIN)).toBe(false);
    }
    expect(s.device!()).toBe(false);
    const streams: unknown[] = [];
    s.display!({}, (x) => streams.push(x));
    expect(streams).toEqual([{}]);
    const item = (url: string) => ({ getURL: () => url });
    expect(
      prevented((e) => s.events.emit('will-download', e, item('https://evil.example/x.exe'))),
    ).toBe(true);
    expect(
      prevented((e) => s.events.emit('will-download', e, item('blob:https://evil.example/1'))),
    ).toBe(true);
    expect(prevented((e) => s.events.emit('will-download', e, item(`blob:${APP_ORIGIN}/1`)))).toBe(
      false,
    );

    const responses: Array<{ responseHeaders: Record<string, string[]> }> = [];
    s.headers!({ responseHeaders: { 'content-type': ['text/html'] } }, (r) => responses.push(r));
    expect(responses[0]!.responseHeaders).toEqual({
      'content-type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
  });
});

describe('IPC', () => {
  const known = new FakeContents(`${APP_ORIGIN}/index.html#/approvals`);
  const stranger = new FakeContents(`${APP_ORIGIN}/index.html`);
  let calls: Array<{ name: string; caller: unknown }>;
  let bus: EventBus;
  let unwire: () => void;

  beforeEach(() => {
    calls = [];
    bus = new EventBus();
    const handlers = Object.fromEntries(
      commandNames.map((name) => [
        name,
        (_input: unknown, caller: unknown) => {
          calls.push({ name, caller });
          return HEALTH;
        },
      ]),
    );
    const core = { clients: new ClientRegistry(), handlers, bus } as unknown as Core;
    unwire?.();
    unwire = wireIpc(core, {
      owns: (c) => c === (known as never),
      contents: () => [known as never],
    });
  });

  const invoke = (frame: { url: string; parent: unknown } | null, sender: FakeContents = known) =>
    electron.handlers.get(ipcChannel('health'))!({ sender, senderFrame: frame }, {});

  it('registers one handler per command of the contract', () => {
    for (const name of commandNames) expect(electron.handlers.has(ipcChannel(name))).toBe(true);
  });

  it('answers the top frame of a Gatehouse window as the desktop person on the dialog surface', async () => {
    expect(
      await invoke({ url: `${APP_ORIGIN}/index.html#/approvals`, parent: null }),
    ).toMatchObject({ ok: true });
    expect(calls).toEqual([
      {
        name: 'health',
        caller: {
          clientId: 'desktop',
          identityProven: true,
          paired: true,
          fromLoopback: true,
          surface: 'dialog',
          transport: 'ipc',
        },
      },
    ]);
  });

  it('refuses iframes, foreign pages, unknown windows and vanished frames before the core sees them', async () => {
    const forbidden = {
      ok: false,
      error: { name: 'ForbiddenError', message: 'IPC from a frame outside Gatehouse' },
    };
    expect(await invoke({ url: `${APP_ORIGIN}/index.html`, parent: {} })).toEqual(forbidden);
    expect(await invoke({ url: 'https://evil.example/', parent: null })).toEqual(forbidden);
    expect(await invoke({ url: `${APP_ORIGIN}/index.html`, parent: null }, stranger)).toEqual(
      forbidden,
    );
    expect(await invoke(null)).toEqual(forbidden);
    expect(calls).toEqual([]);
  });

  it('forwards core events to Gatehouse windows, and unwires cleanly', () => {
    bus.publish({
      type: 'permission_extended',
      requestId: '0190f0a0-0000-7000-8000-000000000001',
      expiresAt: 5,
    });
    expect(known.sent.at(-1)).toEqual([
      IPC_EVENT_CHANNEL,
      expect.objectContaining({ type: 'permission_extended' }),
    ]);
    unwire();
    expect(electron.handlers.size).toBe(0);
    const before = known.sent.length;
    bus.publish({
      type: 'permission_extended',
      requestId: '0190f0a0-0000-7000-8000-000000000001',
      expiresAt: 6,
    });
    expect(known.sent.length).toBe(before);
  });
});
