// An agent runs as the same user and may find the bearer token: a request from its process tree
// is refused whatever it carries, and audited once per connection.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentProcessInfo } from '../../src/main/server/peer-process';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

/** Two GETs over one keep-alive connection; prints both statuses and the body of the first. */
const CHILD = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = () => new Promise((resolve, reject) => {
  http.get(process.env.URL + '/api/approvals', { agent, headers: { authorization: 'Bearer ' + process.env.TOKEN } }, (res) => {
    let body = '';
    res.on('data', (c) => (body += c));
    res.on('end', () => resolve({ status: res.statusCode, body }));
  }).on('error', reject);
});
(async () => {
  const first = await get();
  const second = await get();
  process.stdout.write(JSON.stringify({ statuses: [first.status, second.status], body: JSON.parse(first.body) }));
  agent.destroy();
})();
`;

function runChild(
  url: string,
  token: string,
  onSpawn: (pid: number) => void,
): Promise<{ statuses: number[]; body: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD], {
      env: { ...process.env, URL: url, TOKEN: token },
      // Its own process group, as every agent is spawned.
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    onSpawn(child.pid!);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out) as { statuses: number[]; body: unknown });
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

describe.skipIf(process.platform !== 'linux')('requests from an agent process', () => {
  let gh: TestGatehouse | undefined;
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
  });

  it('are refused (403 AgentForbidden) with the valid token and audited once per connection; others pass', async () => {
    const agents: AgentProcessInfo[] = [];
    gh = await startGatehouse({}, { agentProcesses: () => agents });
    const result = await runChild(gh.server.url, gh.token, (pid) =>
      agents.push({ pid, agentId: 'a', sessionId: 's1' }),
    );
    expect(result).toEqual({
      statuses: [403, 403],
      body: { error: { name: 'AgentForbidden', message: expect.any(String) } },
    });
    await gh.core.store.flush();
    const refused = await gh.core.store.events({ type: 'api_refused_agent' });
    expect(refused).toEqual([
      expect.objectContaining({
        agentId: 'a',
        sessionId: 's1',
        payload: {
          pid: agents[0]!.pid,
          agentPid: agents[0]!.pid,
          method: 'GET',
          path: '/api/approvals',
        },
      }),
    ]);
    // The same call from this process (not an agent's) is answered, while the agent still runs.
    const mine = await fetch(`${gh.server.url}/api/approvals`, {
      headers: { authorization: `Bearer ${gh.token}` },
    });
    expect(mine.status).toBe(200);
  });

  it('a request sent by an agent that closes its connection at once is refused too', async () => {
    const agents: AgentProcessInfo[] = [];
    gh = await startGatehouse(
      { agents: { x: { command: 'x' } } },
      { agentProcesses: () => agents },
    );
    const { port } = new URL(gh.server.url);
    // Twenty connections, each writes its request and is gone before the server can look at it.
    const script = `
      const net = require('node:net');
      const body = JSON.stringify({ enabled: true });
      let left = 20;
      for (let i = 0; i < 20; i++) {
        const socket = net.connect(${port}, '127.0.0.1', () => {
          socket.write('POST /api/agents/x/bypass HTTP/1.1\\r\\nhost: 127.0.0.1:${port}\\r\\n' +
            'authorization: Bearer ${gh.token}\\r\\ncontent-type: application/json\\r\\n' +
            'content-length: ' + body.length + '\\r\\nconnection: close\\r\\n\\r\\n' + body, () => {
            socket.destroy();
            if (--left === 0) process.exit(0);
          });
        });
      }`;
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', script], {
        detached: true,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      agents.push({ pid: child.pid!, agentId: 'x', sessionId: 's1' });
      child.on('error', reject);
      child.on('exit', () => resolve());
    });
    // Each request that reaches the server is either refused or applied, both audited (a connection
    // gone before it was accepted never becomes a request): wait for all twenty, or two seconds.
    const outcomes = async () =>
      Promise.all(
        ['api_refused_agent', 'api_refused_unknown_peer', 'bypass_changed'].map(
          async (type) => (await gh!.core.store.events({ type })).length,
        ),
      );
    for (let i = 0; i < 100 && (await outcomes()).reduce((a, b) => a + b) < 20; i++) {
      await gh.core.store.flush();
      await new Promise((r) => setTimeout(r, 20));
    }
    const [agent, unknown, applied] = await outcomes();
    expect(applied).toBe(0);
    expect(agent! + unknown!).toBeGreaterThan(0);
    expect(gh.core.settings.agents.x!.bypassPermissions).toBeFalsy();
  });

  it('a process not in an agent tree is answered even while agents run', async () => {
    gh = await startGatehouse(
      {},
      { agentProcesses: () => [{ pid: 999_999_999, agentId: 'a', sessionId: 's1' }] },
    );
    const result = await runChild(gh.server.url, gh.token, () => {});
    expect(result.statuses).toEqual([200, 200]);
  });
});
