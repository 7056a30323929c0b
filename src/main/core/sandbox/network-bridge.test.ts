import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBridge, type NetworkViolation } from './network-bridge';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Sends CONNECT host:port to the proxy's unix socket and returns the status code. */
function connectThrough(socketPath: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: 'CONNECT', path: target, headers: { host: target } });
    req.once('connect', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end();
  });
}

describe('network bridge proxy', () => {
  it('refuses hosts outside the list, and allowed names that resolve to this machine', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bridge-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const violations: NetworkViolation[] = [];
    // `localhost` stands for an allowed name whose DNS answer points back at loopback.
    const bridge = await startBridge(dir, [], [{ host: 'localhost', port: 443 }], (v) =>
      violations.push(v),
    );
    cleanups.push(() => bridge.close());
    expect(await connectThrough(bridge.proxySocket!, 'evil.example.com:443')).toBe(403);
    expect(await connectThrough(bridge.proxySocket!, 'localhost:443')).toBe(403);
    expect(violations).toEqual([
      { kind: 'network', host: 'evil.example.com', port: 443, reason: 'not-allowed' },
      { kind: 'network', host: 'localhost', port: 443, reason: 'resolves-to-local-address' },
    ]);
  });
});
