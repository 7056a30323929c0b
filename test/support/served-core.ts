// A core a test built itself, served over HTTP on 127.0.0.1 under a fresh token, with one client of
// it connected (registered, not paired) and its raw requests.
import { randomBytes } from 'node:crypto';
import type { Core } from '../../src/main/core/core';
import { startHttpServer } from '../../src/main/server/http-server';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { rawRequest } from './raw-request';

export async function serveCore(core: Core, label: string) {
  const token = randomBytes(16).toString('hex');
  const server = await startHttpServer({ core, token, host: '127.0.0.1', port: 0 });
  const api = new HttpApi(server.url, token);
  const { clientId, clientToken } = await api.connect(label, 'browser');
  return {
    server,
    api,
    clientId,
    raw: rawRequest(server.url, token, { clientId, clientToken }),
    /** The client, the server, then the core. */
    async close() {
      api.close();
      await server.close();
      await core.close();
    },
  };
}
