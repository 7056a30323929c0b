// The page's client (the renderer's HttpApi, run here against a server it cannot tell from the
// core's) tells a silent core from a live one (the core beats every second) and a refused token
// from an empty answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpApi, SILENCE_MS, type ConnectionState } from '../../renderer/src/api/http-client';

let server: Server | undefined;
let api: HttpApi | undefined;
afterEach(async () => {
  api?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** A server whose event stream answers once and then says nothing; every other route is 401. */
async function silentCore(): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': connected\n\n');
      return;
    }
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { name: 'Unauthorized', message: 'wrong bearer token' } }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const next = (client: HttpApi, wanted: ConnectionState) =>
  new Promise<number>((resolve) => {
    const off = client.onStateChange((state, since) => {
      if (state !== wanted) return;
      off();
      resolve(since);
    });
  });

describe('the connection as the page sees it', () => {
  it('online while the stream speaks, lost once it is silent, since when it was last heard', async () => {
    api = new HttpApi(await silentCore(), 'token');
    const online = next(api, 'online');
    const lost = next(api, 'lost');
    await online;
    const since = await lost;
    // Said as lost a silence after the last byte, and dated from that byte (timers may round a
    // millisecond early).
    expect(Date.now() - since).toBeGreaterThanOrEqual(SILENCE_MS - 5);
    expect(api.state).toEqual({ state: 'lost', since });
  });

  it('a refused token is unauthorized, not an empty answer', async () => {
    api = new HttpApi(await silentCore(), 'old-token');
    await expect(api.call('listAgents', {})).rejects.toMatchObject({ status: 401 });
    expect(api.state.state).toBe('unauthorized');
  });
});
