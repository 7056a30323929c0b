// The core as an entry starts it: what stops a start is known before anything listens, the core's
// own modules are loaded only once begin() is called, and until the core is made nothing answers
// but /api/health ("starting"). A core whose modules cannot load ends the start with why: a refusal
// the entry reports, never an unhandled rejection or an answer made without the core.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCore } from './core-start';
import type { Caller } from './approvals/clients';
import { SettingsError } from './config/settings-file';

const ANONYMOUS: Caller = {
  clientId: null,
  identityProven: false,
  paired: false,
  fromLoopback: true,
  surface: 'browser',
  transport: 'http',
};

const homes: string[] = [];
afterEach(() => {
  vi.doUnmock('./core');
  vi.doUnmock('@agentclientprotocol/sdk');
  vi.resetModules();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-core-start-'));
  homes.push(dir);
  return dir;
}

/** 'pending' unless the promise has already settled (then its value, or 'rejected'). */
async function state<T>(promise: Promise<T>): Promise<T | 'pending' | 'rejected'> {
  return Promise.race([
    promise.catch(() => 'rejected' as const),
    new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending'))),
  ]);
}

describe('startCore', () => {
  it('says "starting" and makes nothing until begin(); then the core answers as health "ready"', async () => {
    const starting = startCore({ home: home(), managed: null });
    expect(starting.health()).toMatchObject({ status: 'starting', starting: ['decisions'] });
    expect(await state(starting.ready)).toBe('pending');

    starting.begin();
    starting.begin(); // once only: a second call makes no second core
    const core = await starting.ready;
    try {
      const health = await core.handlers.health({}, ANONYMOUS);
      expect(health).toMatchObject({ status: 'ready', starting: [] });
    } finally {
      await core.close();
    }
  });

  it("the core's own modules are loaded by begin(), not with the entry", async () => {
    vi.resetModules();
    let loaded = false;
    vi.doMock('./core', async () => {
      loaded = true;
      return vi.importActual('./core');
    });
    const { startCore: start } = await import('./core-start');
    const starting = start({ home: home(), managed: null });
    expect(loaded).toBe(false);
    starting.begin();
    const core = await starting.ready;
    expect(loaded).toBe(true);
    await core.close();
  });

  it('a request already there when begin() is called is answered before the core loads', async () => {
    // Loading a module graph holds the event loop from its first file to its last evaluation: the
    // load waits until a connection already there is accepted and its request read and answered.
    vi.resetModules();
    const order: string[] = [];
    const loads = (name: string) => async (importOriginal: () => Promise<unknown>) => {
      order.push(name);
      return importOriginal();
    };
    vi.doMock('@agentclientprotocol/sdk', loads('acp sdk'));
    vi.doMock('./core', loads('core'));
    const { startCore: start } = await import('./core-start');
    const server = createServer((_, res) => {
      order.push('answered');
      res.end('starting');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.end('GET /api/health HTTP/1.1\r\nhost: localhost\r\n\r\n');
      const starting = start({ home: home(), managed: null });
      starting.begin();
      const core = await starting.ready;
      await core.close();
      socket.destroy();
      expect(order).toEqual(['answered', 'acp sdk', 'core']);
    } finally {
      server.close();
    }
  });

  it('settings that do not validate stop the start before anything is loaded or listens', () => {
    const dir = home();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ policy: 'no-such-policy' }));
    expect(() => startCore({ home: dir, managed: null })).toThrow(SettingsError);
  });

  it('a core whose modules cannot load rejects ready with why, and nothing is left unhandled', async () => {
    vi.resetModules();
    vi.doMock('./core', () => {
      throw new Error('the core module is missing');
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { startCore: start } = await import('./core-start');
      const starting = start({ home: home(), managed: null });
      starting.begin();
      await expect(starting.ready).rejects.toBeInstanceOf(Error);
      expect(starting.health()).toMatchObject({ status: 'starting' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
