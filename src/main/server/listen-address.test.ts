// Who reaches the server: loopback unless a person serves it on the network, and then a request is
// answered only for a name the server has (a page elsewhere that made its name resolve here, or a
// page of another origin, is refused).
import { request } from 'node:http';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientRegistry, type Core } from '../core';
import { startHttpServer, type RunningServer } from './http-server';
import { hostAllowed, isLoopbackHost, networkUrls } from './listen-address';
import { checkListenHost, listenOptions, ListenOptionsError } from './listen-options';
import { HEALTH } from '../../../test/support/health';

const TOKEN = 'listen-test-token';

const iface = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({ address, family, internal }) as NetworkInterfaceInfo;
const INTERFACES = {
  lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
  wlan0: [iface('fd00::7', 'IPv6'), iface('fe80::1', 'IPv6'), iface('192.168.1.20', 'IPv4')],
};

describe('where the server can be reached', () => {
  it('loopback is reachable from nowhere else; a wildcard lists every external address', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost', 'LOCALHOST']) {
      expect(isLoopbackHost(host), host).toBe(true);
      expect(networkUrls(host, 7878, INTERFACES)).toEqual([]);
    }
    expect(networkUrls('0.0.0.0', 7878, INTERFACES)).toEqual(['http://192.168.1.20:7878']);
    expect(networkUrls('::', 7878, INTERFACES)).toEqual([
      'http://192.168.1.20:7878',
      'http://[fd00::7]:7878',
    ]);
    expect(networkUrls('192.168.1.20', 80, INTERFACES)).toEqual(['http://192.168.1.20:80']);
    expect(networkUrls('fd00::7', 7878, INTERFACES)).toEqual(['http://[fd00::7]:7878']);
  });

  it('a Host header is answered for loopback names, the bound name, and the connection’s own address', () => {
    const on = (boundHost: string, localAddress: string) => ({
      boundHost,
      port: 7878,
      localAddress,
    });
    const loopback = on('127.0.0.1', '127.0.0.1');
    for (const host of ['127.0.0.1:7878', 'localhost:7878', 'LocalHost:7878', '[::1]:7878']) {
      expect(hostAllowed(host, loopback), host).toBe(true);
    }
    for (const host of [
      undefined,
      '',
      'evil.example:7878',
      '127.0.0.1',
      '127.0.0.1:7879',
      '192.168.1.20:7878', // served on loopback, a network address is no name of this server
      '0.0.0.0:7878',
      '127.0.0.1:7878.evil.example',
    ]) {
      expect(hostAllowed(host, loopback), String(host)).toBe(false);
    }
    // Served on every address: a phone's request names the address it connected to.
    const wildcard = on('0.0.0.0', '::ffff:192.168.1.20');
    expect(hostAllowed('192.168.1.20:7878', wildcard)).toBe(true);
    expect(hostAllowed('0.0.0.0:7878', wildcard)).toBe(false);
    expect(hostAllowed('192.168.1.21:7878', wildcard)).toBe(false);
    expect(hostAllowed('rebound.evil.example:7878', wildcard)).toBe(false);
    expect(hostAllowed('[fd00::7]:7878', on('::', 'fd00::7'))).toBe(true);
    expect(hostAllowed('gatehouse.lan:7878', on('gatehouse.lan', '192.168.1.20'))).toBe(true);
    expect(hostAllowed('192.168.1.20', { ...on('192.168.1.20', '192.168.1.20'), port: 80 })).toBe(
      true,
    );
  });

  it('--host takes an address or a name, and nothing else', () => {
    expect(listenOptions([])).toEqual({});
    expect(listenOptions(['--host', '0.0.0.0'])).toEqual({ host: '0.0.0.0' });
    expect(listenOptions(['--host=fd00::7'])).toEqual({ host: 'fd00::7' });
    expect(listenOptions(['--host', 'gatehouse.lan'])).toEqual({ host: 'gatehouse.lan' });
    for (const argv of [
      ['--host'],
      ['--hots', '0.0.0.0'],
      ['extra'],
      ['--host', 'http://0.0.0.0'],
      ['--host', 'a b'],
      ['--host', '-x'],
      ['--host', `${'a'.repeat(64)}.lan`],
    ]) {
      expect(() => listenOptions(argv), argv.join(' ')).toThrow(ListenOptionsError);
    }
    expect(() => checkListenHost('evil.example/x', 'server.host')).toThrow(/^server\.host: /);
  });
});

/** An address of this machine another device could reach, if it has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

describe('the server', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (host?: string) => {
    const handlers = { health: vi.fn(() => HEALTH) };
    const core = { clients: new ClientRegistry(), handlers, links: { resolve: () => null } };
    server = await startHttpServer({
      core: core as unknown as Core,
      token: TOKEN,
      ...(host ? { host } : {}),
      port: 0,
      agentProcesses: () => [],
    });
    return handlers;
  };

  /** A raw request to `address`, naming `host` in its Host header. */
  const status = (address: string, host: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve, reject) => {
      const req = request(`http://${address}:${server!.port}/api/health`, {
        headers: { host, authorization: `Bearer ${TOKEN}`, ...headers },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.end();
    });

  it('listens on loopback by default: no network address, and a foreign Host or Origin is refused', async () => {
    const handlers = await start();
    expect(server!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server!.networkUrls).toEqual([]);
    const own = `127.0.0.1:${server!.port}`;
    expect(await status('127.0.0.1', own)).toBe(200);
    expect(await status('127.0.0.1', `evil.example:${server!.port}`)).toBe(421);
    if (external) expect(await status('127.0.0.1', `${external}:${server!.port}`)).toBe(421);
    expect(await status('127.0.0.1', own, { origin: 'http://evil.example' })).toBe(403);
    expect(await status('127.0.0.1', own, { origin: `http://localhost:${server!.port}` })).toBe(
      403,
    );
    expect(await status('127.0.0.1', own, { origin: 'null' })).toBe(403);
    expect(await status('127.0.0.1', own, { origin: `http://${own}` })).toBe(200);
    expect(handlers.health).toHaveBeenCalledTimes(2);
    // Nothing answers on the machine's network address.
    if (external) await expect(status(external, `${external}:${server!.port}`)).rejects.toThrow();
  });

  it.skipIf(!external)(
    'served on a network address, it answers that address and refuses a rebound name',
    async () => {
      await start(external);
      const port = server!.port;
      expect(server!.networkUrls).toEqual([`http://${external}:${port}`]);
      expect(await status(external!, `${external}:${port}`)).toBe(200);
      expect(await status(external!, `rebound.evil.example:${port}`)).toBe(421);
      expect(await status(external!, `0.0.0.0:${port}`)).toBe(421);
      expect(
        await status(external!, `${external}:${port}`, { origin: `http://evil.example:${port}` }),
      ).toBe(403);
    },
  );
});
