// An ACP agent that floods its session with updates, for bench/fair-streams.ts. A prompt "D P" makes
// it stream agent_message_chunk updates for D ms, as fast as its stdout takes them (written raw in
// batches, each taken before the next: the reader decides the pace), and ask permission after every
// P updates without stopping the stream. Each request carries the moment it was sent,
// process.hrtime.bigint(), in rawInput.sentAtNs (CLOCK_MONOTONIC, comparable across processes), and
// goes out right after the batch before it, in the same stream. Before the turn ends it reports
// `stats {"updates":…,"ms":…,"requests":…}`, once every request was answered.
//
//   node bench/agents/flood-agent.ts      (type stripping: erasable syntax only, no relative imports)

import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { PROTOCOL_VERSION, agent, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import type { PermissionOption } from '@agentclientprotocol/sdk';

const OPTIONS: PermissionOption[] = [
  { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
];
const BATCH = 512;

const write = (text: string) =>
  new Promise<void>((done, fail) =>
    process.stdout.write(text, (error) => (error ? fail(error) : done())),
  );

const app = agent({ name: 'flood-agent' })
  .onRequest(methods.agent.initialize, ({ params }) => ({
    protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
    agentInfo: { name: 'flood-agent', version: '0.0.0' },
    agentCapabilities: { loadSession: false },
    authMethods: [],
  }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: randomUUID() }))
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const [durationMs = 1000, every = 10_000, unpaced = 0] = text
      .trim()
      .split(/\s+/)
      .map((n) => Math.max(0, Number(n) || 0));
    const sessionId = params.sessionId;
    const line = (i: number) =>
      `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${sessionId}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"step ${i} "}}}}\n`;
    const answers: Promise<unknown>[] = [];
    const started = performance.now();
    let sent = 0;
    while (performance.now() - started < durationMs) {
      let batch = '';
      for (let i = 0; i < BATCH; i++) batch += line(sent + i);
      sent += BATCH;
      // Unpaced: queued in this process's own stream, as an agent that never waits for its reader.
      if (unpaced) {
        process.stdout.write(batch);
        if (sent % (BATCH * 8) === 0) await new Promise((done) => setImmediate(done));
      } else await write(batch);
      if (sent % Math.max(BATCH, every) < BATCH) {
        const at = process.hrtime.bigint();
        answers.push(
          client.request(methods.client.session.requestPermission, {
            sessionId,
            toolCall: {
              toolCallId: `flood-${answers.length}`,
              kind: 'execute',
              title: 'npm test',
              rawInput: { command: 'npm test', sentAtNs: String(at) },
            },
            options: OPTIONS,
          }),
        );
        // The SDK writes it a few promise turns later: let it, before the next batch.
        await new Promise((done) => setImmediate(done));
      }
    }
    const ms = performance.now() - started;
    await Promise.all(answers);
    await client.notify(methods.client.session.update, {
      sessionId,
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: {
          type: 'text',
          text: `stats ${JSON.stringify({ updates: sent, ms, requests: answers.length })}`,
        },
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
