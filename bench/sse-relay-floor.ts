// The third floor of bench/sse-latency.ts: Gatehouse's transport with nothing of Gatehouse in it.
// The same agents, driven by plain SDK clients, and the same UI client (bench/sse-client.ts, the
// renderer's HttpApi in its own process), joined by a bare relay: each request goes out on an SSE
// stream as a permission_requested event, and a vote POSTed back answers the agent. No validation,
// no checks, no audit, no transcript. What it costs is what any design that puts the agent, a server
// and a browser in separate processes pays before doing any work of its own.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type * as acp from '@agentclientprotocol/sdk';
import { v7 as uuidv7 } from 'uuid';
import type { GatehouseEvent } from '../src/shared/contract';
import { floorAgent, pacedRound, type FloorRun } from './sse-floors';
import { collect, reset, startClient } from './sse-ui-client';

interface Waiting {
  sessionId: string;
  optionId: string;
  answer: (response: acp.RequestPermissionResponse) => void;
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

/** The relay: SSE out, votes in, the agent answered by the vote. */
function relay(token: string, cwd: string) {
  const streams = new Set<ServerResponse>();
  const waiting = new Map<string, Waiting>();
  const publish = (event: GatehouseEvent) => {
    const frame = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    for (const stream of streams) stream.write(frame);
  };
  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  };
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) return json(res, 401, {});
    const vote = /^\/api\/approvals\/([^/]+)\/vote$/.exec(req.url ?? '');
    if (req.method === 'GET' && req.url === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': connected\n\n');
      res.socket?.setNoDelay(true);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    void body(req).then((text) => {
      if (req.method === 'POST' && req.url === '/api/clients') {
        return json(res, 200, {
          clientId: `bench-${uuidv7()}`,
          clientToken: randomBytes(16).toString('hex'),
        });
      }
      const requestId = vote?.[1];
      const held = requestId === undefined ? undefined : waiting.get(requestId);
      if (requestId === undefined || held === undefined) return json(res, 404, {});
      waiting.delete(requestId);
      const { optionId } = JSON.parse(text) as { optionId: string };
      held.answer({ outcome: { outcome: 'selected', optionId } });
      json(res, 200, { kind: 'resolved', resolvedOptionId: optionId });
      publish({
        type: 'permission_resolved',
        requestId,
        sessionId: held.sessionId,
        reply: { outcome: 'selected', optionId, optionKind: 'allow_once' },
        decider: { type: 'person', clientId: null, surface: 'api' },
        reason: 'first-responder',
      });
    });
  });
  /** An agent's request, shown on every stream; resolves with the vote that answers it. */
  const ask = (sessionId: string, params: acp.RequestPermissionRequest) =>
    new Promise<acp.RequestPermissionResponse>((answer) => {
      const requestId = uuidv7();
      const issuedAt = Date.now();
      waiting.set(requestId, { sessionId, optionId: params.options[0]!.optionId, answer });
      const raw = params.toolCall.rawInput as { command?: string } | undefined;
      publish({
        type: 'permission_requested',
        approval: {
          requestId,
          sessionId,
          agentId: 'ts',
          agentName: 'ts',
          cwd,
          toolCall: {
            toolCallId: params.toolCall.toolCallId,
            kind: 'execute',
            title: params.toolCall.title ?? '',
            locations: [],
            rawInput: params.toolCall.rawInput,
            content: [],
          },
          options: params.options,
          policy: 'first-responder',
          issuedAt,
          expiresAt: issuedAt + 3_600_000,
          warnings: [],
          diffs: [],
          command: { command: raw?.command ?? '', args: null, cwd: null, source: 'rawInput' },
          tally: null,
        },
      });
    });
  return { server, ask };
}

/** `sessions` agents at the measured run's pace, relayed to the UI client, which votes every `voteMs`. */
export async function relayFloor(
  cwd: string,
  options: { sessions: number; perSession: number; voteMs: number; thinkMs: number },
): Promise<FloorRun> {
  const token = randomBytes(16).toString('hex');
  const { server, ask } = relay(token, cwd);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agents: Awaited<ReturnType<typeof floorAgent>>[] = [];
  let client: Awaited<ReturnType<typeof startClient>> | null = null;
  try {
    for (let i = 0; i < options.sessions; i++) {
      const sessionId = `relay-${i}`;
      agents.push(await floorAgent(cwd, (params) => ask(sessionId, params)));
    }
    client = await startClient(url, token, options.voteMs);
    const round = () =>
      pacedRound(agents, options.voteMs, (agent) =>
        agent.prompt(options.perSession, options.thinkMs),
      );
    await round();
    await reset(client);
    const cpu = process.cpuUsage();
    await round();
    const used = process.cpuUsage(cpu);
    return {
      samples: await collect(client),
      cpuUsPerRequest: (used.user + used.system) / (options.sessions * options.perSession),
    };
  } finally {
    client?.kill();
    for (const agent of agents) agent.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
