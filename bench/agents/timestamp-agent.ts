// The smallest useful ACP agent for benchmarks, built on the SDK's agent side. A prompt whose text is
// "N" or "N T" makes it ask `session/request_permission` N times in a row, each T ms (default 0)
// after the previous answer, as an agent does some work between two tool calls. A third word picks
// what it asks about: `command` (default: `npm test`), `compound` (a shell line of several commands
// joined by `&&` and a pipe) or `edit` (an edit of `src/app.ts` in the session folder with its diff,
// as Gemini CLI sends one: the whole old and new text, ~60 lines) or `paths` (an edit naming 1,000
// paths of 2,000 folders that are not there, as a hostile agent would) or `protected` (the same
// count and length, each a protected name at every level, `.git/.git/…`) or `bulky` (one path, and
// a raw input as large as those paths together: one string) or `file` (the same, lines of text). A fourth word `updates` makes it
// tell its client of each tool call as real agents do: a `tool_call` update before the request, a
// `tool_call_update` that completes it after the answer. Each request carries the moment it
// was sent, process.hrtime.bigint() (CLOCK_MONOTONIC on Linux, so comparable across processes), in
// rawInput.sentAtNs and in the title; whoever receives it computes the one-way delay. Before the turn
// ends the agent reports its own round trips (send to answer, ns) as one agent_message_chunk
// "rtt_ns [..]".
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

/** Each session's folder, where an edit's file lies. */
const sessions = new Map<string, string>();

const COMPOUND =
  'npm run build && npm test -- --reporter=dot 2>&1 | tail -n 40 && git status --short';
const EDITED = 'src/app.ts';
const OLD_TEXT = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i} * 2;`).join(
  '\n',
);
const NEW_TEXT = OLD_TEXT.replace('value30 = 30 * 2', 'value30 = 30 * 3');

const SHAPES = ['command', 'compound', 'edit', 'paths', 'protected', 'bulky', 'file'] as const;
type Shape = (typeof SHAPES)[number];

/** As many locations as a request may name, each as long as a path may be. */
const HOSTILE_LOCATIONS = 1_000;
const HOSTILE_DEPTH = 2_000;

function toolCallOf(shape: Shape, cwd: string, i: number, sent: bigint) {
  const sentAtNs = String(sent);
  const toolCallId = `call-${i}`;
  if (shape === 'paths' || shape === 'protected') {
    const deep = `${cwd}/${shape === 'paths' ? 'a/'.repeat(HOSTILE_DEPTH) : '.git/'.repeat((HOSTILE_DEPTH * 2) / 5)}`;
    return {
      toolCallId,
      kind: 'edit' as const,
      title: `Writing ${HOSTILE_LOCATIONS} files (sent ${sent})`,
      locations: Array.from({ length: HOSTILE_LOCATIONS }, (_, j) => ({ path: `${deep}${j}` })),
      rawInput: { sentAtNs },
    };
  }
  if (shape === 'bulky' || shape === 'file') {
    // The same size of message, its text in the raw input rather than in paths: one string with
    // nothing JSON escapes (a minified file), or lines of text (a file as most are).
    const size = HOSTILE_LOCATIONS * HOSTILE_DEPTH * 2;
    const line = 'a line of the text of a file that the agent writes\n';
    const text = shape === 'bulky' ? 'a/'.repeat(size / 2) : line.repeat(size / line.length);
    return {
      toolCallId,
      kind: 'edit' as const,
      title: `Writing one file (sent ${sent})`,
      locations: [{ path: `${cwd}/${EDITED}` }],
      rawInput: { sentAtNs, text },
    };
  }
  if (shape === 'edit') {
    const path = `${cwd}/${EDITED}`;
    return {
      toolCallId,
      kind: 'edit' as const,
      title: `Writing to ${EDITED} (sent ${sent})`,
      locations: [{ path }],
      content: [{ type: 'diff' as const, path, oldText: OLD_TEXT, newText: NEW_TEXT }],
      rawInput: { file_path: path, content: NEW_TEXT, sentAtNs },
    };
  }
  const command = shape === 'compound' ? COMPOUND : 'npm test';
  return {
    toolCallId,
    kind: 'execute' as const,
    title: `${command} (sent ${sent})`,
    rawInput: { command, sentAtNs },
  };
}

const app = agent({ name: 'timestamp-agent' })
  .onRequest(methods.agent.initialize, ({ params }) => ({
    protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
    agentInfo: { name: 'timestamp-agent', version: '0.0.0' },
    agentCapabilities: { loadSession: false },
    authMethods: [],
  }))
  .onRequest(methods.agent.session.new, ({ params }) => {
    const sessionId = randomUUID();
    sessions.set(sessionId, params.cwd);
    return { sessionId };
  })
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const words = text.trim().split(/\s+/);
    const [count = 0, thinkMs = 0] = words.slice(0, 2).map((n) => Math.max(0, Number(n) || 0));
    const shape: Shape = SHAPES.find((s) => s === words[2]) ?? 'command';
    const withUpdates = words[3] === 'updates';
    const cwd = sessions.get(params.sessionId) ?? process.cwd();
    const rtt: number[] = [];
    for (let i = 0; i < count; i++) {
      if (i > 0 && thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs));
      const sent = process.hrtime.bigint();
      const toolCall = toolCallOf(shape, cwd, i, sent);
      if (withUpdates) {
        await client.notify(methods.client.session.update, {
          sessionId: params.sessionId,
          update: { sessionUpdate: 'tool_call', status: 'pending', ...toolCall },
        });
      }
      await client.request(methods.client.session.requestPermission, {
        sessionId: params.sessionId,
        toolCall,
        options: OPTIONS,
      });
      rtt.push(Number(process.hrtime.bigint() - sent));
      if (withUpdates) {
        await client.notify(methods.client.session.update, {
          sessionId: params.sessionId,
          update: {
            sessionUpdate: 'tool_call_update',
            toolCallId: toolCall.toolCallId,
            status: 'completed',
          },
        });
      }
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
