// A scripted stand-in for the Anthropic Messages API, good enough for Claude Code in print mode
// (docs/real-agents.md). A model call that offers the scripted tool and carries no tool_result is
// answered, streamed, with that one tool_use; a call carrying a tool_result is recorded and answered
// with plain text. Every other call (titles, token counts) gets a plausible text answer.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson } from './fake-model-server';

export interface ToolUseSpec {
  name: string;
  input: Record<string, unknown>;
}

export interface RecordedToolResult {
  content: unknown;
  isError: boolean;
}

export interface FakeAnthropicServer {
  url: string;
  /** The tool the next main call asks for. */
  script(toolUse: ToolUseSpec): void;
  /** What Claude Code sent back for each tool call. */
  readonly toolResults: RecordedToolResult[];
  /** The messages of every streamed model call, in arrival order (what the model was sent). */
  readonly streamed: unknown[][];
  close(): Promise<void>;
}

type Message = { role: string; content: unknown };

function lastToolResult(messages: Message[]): RecordedToolResult | null {
  const last = messages.at(-1);
  if (!last || last.role !== 'user' || !Array.isArray(last.content)) return null;
  const part = (last.content as Record<string, unknown>[]).find((p) => p['type'] === 'tool_result');
  return part ? { content: part['content'], isError: part['is_error'] === true } : null;
}

function sse(res: ServerResponse, events: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events)
    res.write(`event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

function stream(
  res: ServerResponse,
  model: string,
  block: Record<string, unknown>,
  json: string | null,
): void {
  const delta =
    json === null
      ? { type: 'text_delta', text: String(block['text']) }
      : { type: 'input_json_delta', partial_json: json };
  const start = json === null ? { ...block, text: '' } : { ...block, input: {} };
  sse(res, [
    {
      type: 'message_start',
      message: {
        id: `msg_${Date.now()}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: start },
    { type: 'content_block_delta', index: 0, delta },
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: json === null ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: 5 },
    },
    { type: 'message_stop' },
  ]);
}

export async function startFakeAnthropicServer(): Promise<FakeAnthropicServer> {
  let next: ToolUseSpec | null = null;
  let calls = 0;
  const toolResults: RecordedToolResult[] = [];
  const streamed: unknown[][] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = (await readBody(req)) || '{}';
      const url = req.url ?? '';
      if (req.method !== 'POST' || !url.startsWith('/v1/messages'))
        return sendJson(res, 404, {
          type: 'error',
          error: { type: 'not_found_error', message: url },
        });
      const request = JSON.parse(body) as {
        model?: string;
        messages?: Message[];
        tools?: { name?: string }[];
        stream?: boolean;
      };
      if (url.startsWith('/v1/messages/count_tokens'))
        return sendJson(res, 200, { input_tokens: 10 });
      const model = request.model ?? 'claude-sonnet-4-5';
      if (request.stream) streamed.push(request.messages ?? []);
      const result = lastToolResult(request.messages ?? []);
      if (result) toolResults.push(result);
      const offered = next !== null && (request.tools ?? []).some((t) => t.name === next!.name);
      if (!result && offered && request.stream) {
        const toolUse = next!;
        next = null;
        calls += 1;
        return stream(
          res,
          model,
          { type: 'tool_use', id: `toolu_${calls}`, name: toolUse.name },
          JSON.stringify(toolUse.input),
        );
      }
      const text = { type: 'text', text: 'Done.' };
      if (request.stream) return stream(res, model, text, null);
      return sendJson(res, 200, {
        id: 'msg_text',
        type: 'message',
        role: 'assistant',
        model,
        content: [text],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      });
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script: (toolUse) => (next = toolUse),
    toolResults,
    streamed,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
