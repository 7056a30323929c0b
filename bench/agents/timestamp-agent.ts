// The smallest useful ACP agent for benchmarks, built on the SDK's agent side. A prompt whose text is
// "N" or "N T" makes it ask `session/request_permission` N times in a row, each T ms (default 0)
// after the previous answer, as an agent does some work between two tool calls. Each request carries the moment it was sent, process.hrtime.bigint() (CLOCK_MONOTONIC on
// Linux, so comparable across processes), in rawInput.sentAtNs and in the title; whoever receives it
// computes the one-way delay. Before the turn ends the agent reports its own round trips (send to
// answer, ns) as one agent_message_chunk "rtt_ns [..]".
//
//   node bench/agents/timestamp-agent.ts      (type stripping: erasable syntax only, no relative imports)

import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { PROTOCOL_VERSION, agent, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import type { PermissionOption } from '@agentclientprotocol/sdk';

const OPTIONS: PermissionOption[] = [
  { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
];

const sessions = new Set<string>();

const app = agent({ name: 'timestamp-agent' })
  .onRequest(methods.agent.initialize, ({ params }) => ({
    protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
    agentInfo: { name: 'timestamp-agent', version: '0.0.0' },
    agentCapabilities: { loadSession: false },
    authMethods: [],
  }))
  .onRequest(methods.agent.session.new, () => {
    const sessionId = randomUUID();
    sessions.add(sessionId);
    return { sessionId };
  })
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const [count = 0, thinkMs = 0] = text
      .trim()
      .split(/\s+/)
      .map((n) => Math.max(0, Number(n) || 0));
    const rtt: number[] = [];
    for (let i = 0; i < count; i++) {
      if (i > 0 && thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs));
      const sent = process.hrtime.bigint();
      await client.request(methods.client.session.requestPermission, {
        sessionId: params.sessionId,
        toolCall: {
          toolCallId: `call-${i}`,
          kind: 'execute',
          title: `npm test (sent ${sent})`,
          rawInput: { command: 'npm test', sentAtNs: String(sent) },
        },
        options: OPTIONS,
      });
      rtt.push(Number(process.hrtime.bigint() - sent));
    }
    await client.notify(methods.client.session.update, {
      sessionId: params.sessionId,
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: `rtt_ns ${JSON.stringify(rtt)}` },
      },
    });
    return { stopReason: 'end_turn' as const };
  });

const connection = app.connect(
  ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  ),
);
void connection.closed.finally(() => process.exit(0));
