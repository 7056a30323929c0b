// The HTTP router over a fake core: who may call, which statuses a malformed request gets, and that
// a well-formed one reaches its handler with the path parameters and the caller.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_ID_HEADER, CLIENT_TOKEN_HEADER } from '../../shared/contract';
import { CONTENT_SECURITY_POLICY } from '../../shared/security-headers';
import { ClientRegistry, type Caller, type Core, installLogSink, type LogSink } from '../core';
import { HEALTH } from '../../../test/support/health';
import { startHttpServer, type HttpServerOptions, type RunningServer } from './http-server';

const TOKEN = 'router-test-token';
const REQUEST_ID = '0190f0a0-0000-7000-8000-000000000001';

/** The few commands these tests call; the input and the caller are what the router passed. */
const fakeHandlers = () => ({
  health: vi.fn((_input: unknown, _caller: Caller): unknown => HEALTH),
  extendApproval: vi.fn((_input: unknown, _caller: Caller) => ({ expiresAt: 42 })),
  registerClient: vi.fn((_input: unknown, _caller: Caller) => ({
    clientId: 'c1',
    clientToken: 't1',
  })),
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: { name: string; message: string } } & Record<string, unknown>;
}

describe('the HTTP router', () => {
  let server: RunningServer;
  let handlers: ReturnType<typeof fakeHandlers>;
  let clients: ClientRegistry;
  let logged: Parameters<LogSink>[];
  let restoreSink: LogSink;

  const start = async (options: Partial<HttpServerOptions> = {}) => {
    const core = { clients, handlers, links: { resolve: () => null }, now: Date.now };
    server = await startHttpServer({
      core: core as unknown as Core,
      token: TOKEN,
      port: 0,
      agentProcesses: () => [],
      ...options,
    });
  };

  /** One raw request: any method, Host, content type and body. */
  const call = (
    method: string,
    path: string,
    {
      auth = `Bearer ${TOKEN}`,
      headers = {},
      body,
    }: { auth?: string | null; headers?: Record<string, string>; body?: string } = {},
  ) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${server.url}${path}`, {
        method,
        headers: {
          ...(auth ? { authorization: auth } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: text ? JSON.parse(text) : {},
          }),
        );
      });
      req.end(body);
    });

  beforeEach(async () => {
    logged = [];
    restoreSink = installLogSink((...line) => logged.push(line));
    clients = new ClientRegistry();
    handlers = fakeHandlers();
    await start();
  });

  afterEach(async () => {
    await server.close();
    installLogSink(restoreSink);
  });

  describe('authentication', () => {
    it('every /api route needs the bearer token, unknown ones too (no route is revealed)', async () => {
      for (const auth of [null, 'Bearer wrong', TOKEN, `Basic ${TOKEN}`]) {
        for (const path of ['/api/health', '/api/nope']) {
          const answer = await call('GET', path, { auth });
          expect(answer.status, `${auth} ${path}`).toBe(401);
          expect(answer.headers['www-authenticate']).toBe('Bearer');
          expect(answer.body.error?.name).toBe('Unauthorized');
        }
      }
      expect(handlers.health).not.toHaveBeenCalled();
    });

    it('with the token, the handler runs for an anonymous caller on this machine', async () => {
      const answer = await call('GET', '/api/health');
      expect(answer).toMatchObject({ status: 200, body: HEALTH });
      expect(handlers.health).toHaveBeenCalledWith(
        {},
        {
          clientId: null,
          identityProven: false,
          paired: false,
          fromLoopback: true,
          surface: 'api',
          transport: 'http',
        },
      );
    });

    it('a client proves its id with its token; an id without it stays anonymous', async () => {
      const { clientId, clientToken } = clients.register('api', 'laptop');
      await call('GET', '/api/health', {
        headers: { [CLIENT_ID_HEADER]: clientId, [CLIENT_TOKEN_HEADER]: clientToken },
      });
      await call('GET', '/api/health', { headers: { [CLIENT_ID_HEADER]: clientId } });
      expect(
        handlers.health.mock.calls.map(([, caller]) => [caller.clientId, caller.identityProven]),
      ).toEqual([
        [clientId, true],
        [null, false],
      ]);
    });

    it('the approval-link route refuses the bearer token', async () => {
      const answer = await call('GET', '/api/link');
      expect(answer).toMatchObject({ status: 401, body: { error: { name: 'Unauthorized' } } });
      expect(answer.headers['www-authenticate']).toBe('Link');
    });
  });

  describe('routes', () => {
    it('an unknown route is 404', async () => {
      expect(await call('GET', '/api/nope')).toMatchObject({
        status: 404,
        body: { error: { name: 'NotFound' } },
      });
    });

    it('a known route with another method is 405 with the methods it has', async () => {
      const answer = await call('DELETE', '/api/health');
      expect(answer).toMatchObject({ status: 405, body: { error: { name: 'MethodNotAllowed' } } });
      expect(answer.headers.allow).toBe('GET');
      expect((await call('POST', '/api/events', { body: '{}' })).status).toBe(405);
    });

    it('outside /api only GET and HEAD are served', async () => {
      expect((await call('POST', '/index.html', { auth: null })).status).toBe(405);
    });

    it('a request for another Host is 421 (DNS rebinding)', async () => {
      const answer = await call('GET', '/api/health', { headers: { host: 'evil.example' } });
      expect(answer).toMatchObject({
        status: 421,
        body: { error: { name: 'MisdirectedRequest' } },
      });
      expect(handlers.health).not.toHaveBeenCalled();
    });
  });

  describe('bodies', () => {
    const extend = `/api/approvals/${REQUEST_ID}/extend`;

    it('reach the handler with the path parameters', async () => {
      expect(await call('POST', extend, { body: JSON.stringify({ seconds: 30 }) })).toMatchObject({
        status: 200,
        body: { expiresAt: 42 },
      });
      expect(handlers.extendApproval.mock.calls[0]?.[0]).toEqual({
        requestId: REQUEST_ID,
        seconds: 30,
      });
    });

    it.each([
      ['{"seconds":', 'body is not valid JSON'],
      ['[1]', 'body must be a JSON object'],
      ['null', 'body must be a JSON object'],
      [
        JSON.stringify({ requestId: '0190f0a0-0000-7000-8000-000000000002', seconds: 1 }),
        'requestId in the body differs from the path',
      ],
    ])('%s is 400', async (body, message) => {
      expect(await call('POST', extend, { body })).toMatchObject({
        status: 400,
        body: { error: { name: 'BadRequest', message } },
      });
      expect(handlers.extendApproval).not.toHaveBeenCalled();
    });

    it('input outside the contract is 400 ValidationError', async () => {
      const answer = await call('POST', extend, { body: JSON.stringify({ seconds: 0 }) });
      expect(answer).toMatchObject({ status: 400, body: { error: { name: 'ValidationError' } } });
      expect(handlers.extendApproval).not.toHaveBeenCalled();
    });

    it('anything but application/json is 415', async () => {
      const answer = await call('POST', extend, {
        headers: { 'content-type': 'text/plain' },
        body: 'seconds=1',
      });
      expect(answer).toMatchObject({
        status: 415,
        body: { error: { name: 'UnsupportedMediaType' } },
      });
    });

    it('a body over the limit is 413', async () => {
      await server.close();
      await start({ maxBodyBytes: 64 });
      const answer = await call('POST', extend, {
        body: JSON.stringify({ seconds: 1, pad: 'x'.repeat(100) }),
      });
      expect(answer).toMatchObject({ status: 413, body: { error: { name: 'PayloadTooLarge' } } });
      expect(handlers.extendApproval).not.toHaveBeenCalled();
    });

    it('a body sent in pieces is read whole', async () => {
      const answer = await new Promise<number>((resolve, reject) => {
        const req = request(`${server.url}${extend}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.flushHeaders();
        req.write('{"seconds"');
        setTimeout(() => req.end(': 30}'), 20);
      });
      expect(answer).toBe(200);
      expect(handlers.extendApproval).toHaveBeenCalledWith(
        expect.objectContaining({ seconds: 30 }),
        expect.anything(),
      );
    });
  });

  it('registrations past the limit are 429 with Retry-After', async () => {
    await server.close();
    await start({ registrationsPerMinute: 1 });
    const register = () =>
      call('POST', '/api/clients', { body: JSON.stringify({ surface: 'api' }) });
    expect((await register()).status).toBe(200);
    const refused = await register();
    expect(refused).toMatchObject({ status: 429, body: { error: { name: 'TooManyRequests' } } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(handlers.registerClient).toHaveBeenCalledTimes(1);
  });

  it('a failure is 500 with nothing of it in the answer, and is logged', async () => {
    handlers.health.mockImplementation(() => {
      throw new Error('secret detail');
    });
    expect(await call('GET', '/api/health')).toMatchObject({
      status: 500,
      body: { error: { name: 'InternalError', message: 'internal error' } },
    });
    vi.spyOn(clients, 'identify').mockImplementation(() => {
      throw new Error('registry broke');
    });
    expect((await call('GET', '/api/health')).status).toBe(500);
    expect(logged.map(([level, scope, message]) => [level, scope, message])).toEqual([
      ['error', 'commands', 'command failed:'],
      ['error', 'http', 'request failed:'],
    ]);
  });

  it('every answer carries the security headers and is not cached', async () => {
    for (const answer of [
      await call('GET', '/api/health'),
      await call('GET', '/api/nope'),
      await call('GET', '/api/health', { auth: null }),
    ]) {
      expect(answer.headers).toMatchObject({
        'cache-control': 'no-store',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
      });
    }
  });
});
