// A scripted stand-in for an OpenAI-compatible chat-completions API, good enough for `opencode acp`
// (see docs/real-agents.md). Real HTTP on 127.0.0.1, answers streamed as server-sent events.
//
// Each prompt turn takes the next script from a queue. A request whose last message is the user's
// starts the turn and is answered with the script's first tool call; a request whose last message is
// a tool result is recorded and answered with the next tool call, or, when none is left, with the
// script's final text. A request that offers no tools (a title, a summary) gets a short text.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One tool call the fake model asks for, e.g. `{ name: 'bash', args: { command, description } }`. */
export interface ToolCallSpec {
  name: string;
  args: Record<string, unknown>;
}

/** What the fake model does during one prompt turn. */
export interface ChatTurnScript {
  toolCalls?: ToolCallSpec[];
  /** Text answered once every tool call has its result (default: "Done."). */
  finalText?: string;
}

/** A tool result the agent sent back to the model. */
export interface RecordedToolResult {
  toolCallId: string;
  content: string;
}

export interface FakeChatServer {
  /** Base URL for an OpenAI-compatible provider, e.g. `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  port: number;
  enqueue(script: ChatTurnScript): void;
  /** Every tool result received, in arrival order. */
  toolResults: RecordedToolResult[];
  /** Paths of requests to routes the server does not know. */
  unknown: string[];
  close(): Promise<void>;
}

interface Message {
  role?: unknown;
  content?: unknown;
  tool_call_id?: unknown;
}

const MAX_BODY = 8 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part) => (part as { text?: unknown })?.text ?? '').join('')
      : '';

type Delta = Record<string, unknown>;

/** The chunks of one streamed answer: the delta, then the finish reason. */
function sse(res: ServerResponse, delta: Delta, finish: 'stop' | 'tool_calls'): void {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: 'fake' };
  const chunk = (choice: Delta, extra: Delta = {}) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }], ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ delta: { role: 'assistant', ...delta }, finish_reason: null }));
  res.write(
    chunk(
      { delta: {}, finish_reason: finish },
      { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
    ),
  );
  res.end('data: [DONE]\n\n');
}

export async function startFakeChatServer(): Promise<FakeChatServer> {
  const queue: ChatTurnScript[] = [];
  const toolResults: RecordedToolResult[] = [];
  const unknown: string[] = [];
  let active: { script: ChatTurnScript; next: number } | undefined;
  let calls = 0;

  function answer(body: { messages?: unknown; tools?: unknown }, res: ServerResponse): void {
    const messages = (Array.isArray(body.messages) ? body.messages : []) as Message[];
    const last = messages[messages.length - 1];
    if (!Array.isArray(body.tools) || body.tools.length === 0) {
      sse(res, { content: 'Fake title' }, 'stop');
      return;
    }
    if (last?.role === 'tool') {
      toolResults.push({
        toolCallId: String(last.tool_call_id ?? ''),
        content: textOf(last.content),
      });
    } else {
      // A turn that never got its tool result (rejected, cancelled) is abandoned here.
      active = { script: queue.shift() ?? {}, next: 0 };
    }
    const turn = active ?? { script: {}, next: 0 };
    const call = turn.script.toolCalls?.[turn.next];
    if (call) {
      turn.next += 1;
      calls += 1;
      const toolCall = {
        index: 0,
        id: `call_fake_${calls}`,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      };
      sse(res, { content: null, tool_calls: [toolCall] }, 'tool_calls');
      return;
    }
    active = undefined;
    sse(res, { content: turn.script.finalText ?? 'Done.' }, 'stop');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);
    if (req.method === 'POST' && path.endsWith('/chat/completions')) {
      answer(JSON.parse(raw) as { messages?: unknown; tools?: unknown }, res);
      return;
    }
    unknown.push(`${req.method ?? 'GET'} ${path}`);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `fake chat server: no route ${path}` } }));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    enqueue: (script) => void queue.push(script),
    toolResults,
    unknown,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
