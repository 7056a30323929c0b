// The server while the core starts: /api/health answers "starting" at once, with the token only;
// every other request waits for the core and is answered by it, never before; a core that cannot
// start leaves them refused (503), never answered by anything else.
import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commands, type CommandOutput } from '../../shared/contract';
import { HEALTH_ROUTE } from '../../shared/health-route';
import { ClientRegistry, type Core } from '../core';
import { HEALTH } from '../../../test/support/health';
import { startHttpServer, type RunningServer } from './http-server';

const TOKEN = 'starting-test-token';
const REQUEST_ID = '0190f0a0-0000-7000-8000-000000000001';

const STARTING: CommandOutput<'health'> = {
  ...HEALTH,
  policy: 'first-responder',
  status: 'starting',
  starting: ['decisions'],
} as CommandOutput<'health'>;

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: { name: string } };
}

describe('the server while the core starts', () => {
  let server: RunningServer;
  afterEach(() => server.close());

  const call = (method: string, path: string, auth: string | null = `Bearer ${TOKEN}`) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${server.url}${path}`, {
        method,
        headers: {
          ...(auth ? { authorization: auth } : {}),
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} }),
        );
      });
      req.end(method === 'POST' ? JSON.stringify({ seconds: 60 }) : undefined);
    });

  /** A started core's few handlers; each records whether the core was ready when it ran. */
  const fakeCore = (isReady: () => boolean) => {
    const handlers = {
      health: vi.fn(() => HEALTH),
      extendApproval: vi.fn(() => {
        expect(isReady()).toBe(true);
        return { expiresAt: 42 };
      }),
    };
    const core = { clients: new ClientRegistry(), handlers, links: { resolve: () => null } };
    return { core: { ...core, now: Date.now } as unknown as Core, handlers };
  };

  it('health says starting at once; a request sent meanwhile waits and is answered by the ready core', async () => {
    const ready = deferred<Core>();
    let resolved = false;
    const { core, handlers } = fakeCore(() => resolved);
    server = await startHttpServer({
      core: { ready: ready.promise, health: () => STARTING },
      token: TOKEN,
      port: 0,
      agentProcesses: () => [],
    });

    expect(await call('GET', '/api/health')).toEqual({ status: 200, body: STARTING });
    // Without the token, nothing: not even whether it is starting.
    expect((await call('GET', '/api/health', null)).status).toBe(401);

    let answered = false;
    const extend = call('POST', `/api/approvals/${REQUEST_ID}/extend`).then((answer) => {
      answered = true;
      return answer;
    });
    // Asked after it, health is still "starting": the request has not been answered meanwhile.
    expect((await call('GET', '/api/health')).body).toMatchObject({ status: 'starting' });
    expect(answered).toBe(false);
    expect(handlers.extendApproval).not.toHaveBeenCalled();

    resolved = true;
    ready.resolve(core);
    expect(await extend).toMatchObject({ status: 200, body: { expiresAt: 42 } });
    expect(handlers.extendApproval).toHaveBeenCalledTimes(1);
    // From now on health is the core's own.
    expect(await call('GET', '/api/health')).toMatchObject({ status: 200, body: { version: '0' } });
    expect(handlers.health).toHaveBeenCalledTimes(1);
  });

  it("health while starting is answered without the contract's modules; the first routed request loads them", async () => {
    vi.resetModules();
    let loaded = 0;
    vi.doMock('./api-modules', async (importOriginal: () => Promise<object>) => {
      loaded++;
      return importOriginal();
    });
    try {
      const { startHttpServer: start } = await import('./http-server');
      const ready = deferred<Core>();
      const { core } = fakeCore(() => true);
      server = await start({
        core: { ready: ready.promise, health: () => STARTING },
        token: TOKEN,
        port: 0,
        agentProcesses: () => [],
      });
      expect(await call('GET', '/api/health')).toEqual({ status: 200, body: STARTING });
      expect((await call('GET', '/api/health', 'Bearer wrong')).status).toBe(401);
      expect(loaded).toBe(0);
      // Any other request is routed by the contract: refused at once without the token, as before.
      expect((await call('POST', `/api/approvals/${REQUEST_ID}/extend`, null)).status).toBe(401);
      expect(loaded).toBe(1);
      ready.resolve(core);
      expect(await call('POST', `/api/approvals/${REQUEST_ID}/extend`)).toMatchObject({
        status: 200,
      });
    } finally {
      vi.doUnmock('./api-modules');
    }
  });

  it("the route answered while starting is the contract's health route, with the bearer token", () => {
    expect(commands.health.http).toEqual(HEALTH_ROUTE);
    expect(commands.health.http.auth ?? 'bearer').toBe('bearer');
  });

  it('a core that cannot start: what waited and what comes later is refused (503), health too', async () => {
    const ready = deferred<Core>();
    const { handlers } = fakeCore(() => false);
    server = await startHttpServer({
      core: { ready: ready.promise, health: () => STARTING },
      token: TOKEN,
      port: 0,
      agentProcesses: () => [],
    });
    const waiting = call('POST', `/api/approvals/${REQUEST_ID}/extend`);
    expect((await call('GET', '/api/health')).body).toMatchObject({ status: 'starting' });
    ready.reject(new Error('the audit cannot be opened'));
    expect(await waiting).toMatchObject({ status: 503, body: { error: { name: 'Unavailable' } } });
    expect((await call('GET', '/api/health')).status).toBe(503);
    expect(handlers.extendApproval).not.toHaveBeenCalled();
  });
});
