import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
  type ReadableLogRecord,
} from '@opentelemetry/sdk-logs';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../../test/support/steps';
import { ClosingAgents } from './closing-agent';
import { createLogExporter } from './exporters';

/** A collector that counts the requests it takes and answers each with an empty success. */
function collector() {
  let server: Server | null = null;
  const state = { requests: 0 };
  const listen = (port = 0) =>
    new Promise<number>((resolve) => {
      server = createServer((req, res) => {
        state.requests++;
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
      });
      server.listen(port, '127.0.0.1', () => resolve((server!.address() as AddressInfo).port));
    });
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
      server = null;
    });
  return { state, listen, close };
}

function oneRecord(): ReadableLogRecord[] {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    processors: [new SimpleLogRecordProcessor({ exporter: memory })],
  });
  provider.getLogger('test').emit({ body: 'decided', attributes: { 'gatehouse.audit.seq': 1 } });
  return memory.getFinishedLogRecords();
}

describe('ClosingAgents', () => {
  const cleanup = cleanupAfterEach();

  it('connects until closed; then a request fails without a network error code and opens nothing', async () => {
    const c = collector();
    cleanup.push(c.close);
    const port = await c.listen();
    const agents = new ClosingAgents();
    const agent = agents.factory('http:');
    const get = () =>
      new Promise<{ status?: number; error?: NodeJS.ErrnoException }>((resolve) => {
        const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode }));
        });
        req.on('error', (error) => resolve({ error }));
        req.end();
      });
    expect(await get()).toEqual({ status: 200 });
    agents.close();
    const refused = await get();
    expect(refused.error?.message).toBe('the exporter was shut down');
    expect(refused.error?.code).toBeUndefined();
    expect(c.state.requests).toBe(1);
  });

  it('an exporter shut down while the collector is down never delivers its batch later, by its own retries', async () => {
    // The port of a collector that is down: taken, then let go.
    const c = collector();
    cleanup.push(c.close);
    const port = await c.listen();
    await c.close();
    const exporter = createLogExporter({
      endpoint: `http://127.0.0.1:${port}`,
      protocol: 'http/json',
      headers: {},
    } as Parameters<typeof createLogExporter>[0]);
    const result = new Promise<number>((resolve) =>
      exporter.export(oneRecord(), (r) => resolve(r.code)),
    );
    // The first attempt is refused; its retry is on a timer. Shut down, then the collector is back.
    await exporter.shutdown();
    await c.listen(port);
    // ExportResultCode.FAILED is 1: the retry failed for good instead of reaching the collector.
    expect(await result).toBe(1);
    expect(c.state.requests).toBe(0);
  });
});
