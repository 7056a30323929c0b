// A scripted stand-in for the OpenAI Responses API, good enough for codex-acp (docs/real-agents.md):
// `POST /v1/responses`, answered as server-sent events. Each prompt turn takes the next script from
// a queue: a request whose input ends with the person's message starts a turn and is answered with
// the script's tool call; a request whose input ends with that call's output (the command ran, or
// was refused) is answered with the script's final text. Codex 0.166 in its mode `agent` has its own
// model judge an action instead of asking its client: that request (its answer bound to a schema
// with an `outcome`) is answered with the verdict the server was started with; and it asks for a
// title for the conversation beside the first turn. Neither takes anything from the queue.
// Anything else is logged and gets a 404.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson, type JsonObject, type JsonValue } from './fake-model-server';

/** What the fake model asks for in one turn: a shell command, a patch, or nothing. */
export type CodexTurn =
  | {
      shell: string;
      /**
       * Asks to run outside codex's own sandbox (`sandbox_permissions: "require_escalated"` on
       * `exec_command`): codex 0.166 asks its client for nothing else.
       */
      escalated?: boolean;
      finalText?: string;
    }
  | { patch: string; finalText?: string }
  | { finalText?: string };

export interface RecordedResponsesRequest {
  url: string;
  body: JsonValue | undefined;
  answer: 'toolCall' | 'text' | 'judgement' | 'title' | 'notFound';
}

export interface FakeResponsesServer {
  /** Base URL for a model provider's `base_url`: `http://127.0.0.1:<port>/v1`. */
  url: string;
  enqueue(turn: CodexTurn): void;
  requests: RecordedResponsesRequest[];
  /** The outputs of tool calls the agent sent back, in arrival order. */
  toolOutputs: string[];
  close(): Promise<void>;
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);

/** Whether codex asks for a title for the conversation, beside its first turn (codex 0.166). */
function isTitleRequest(last: JsonValue | undefined): boolean {
  const content = isObject(last) ? last['content'] : undefined;
  const first = Array.isArray(content) ? content[0] : undefined;
  const text = isObject(first) ? first['text'] : undefined;
  return typeof text === 'string' && text.includes('generate a very short title');
}

/** Whether codex asks its model to judge an action (auto review) rather than to act. */
function isJudgement(body: JsonObject): boolean {
  const text = body['text'];
  const format = isObject(text) ? text['format'] : undefined;
  const schema = isObject(format) ? format['schema'] : undefined;
  const properties = isObject(schema) ? schema['properties'] : undefined;
  return isObject(properties) && 'outcome' in properties && 'risk_level' in properties;
}

/** The name of the shell tool the request offers (codex's differ by model and version). */
function shellTool(body: JsonObject): { name: string; argument: string } {
  const names = (Array.isArray(body['tools']) ? body['tools'] : [])
    .map((tool) => (isObject(tool) ? tool['name'] : undefined))
    .filter((name): name is string => typeof name === 'string');
  if (names.includes('shell_command')) return { name: 'shell_command', argument: 'command' };
  if (names.includes('exec_command')) return { name: 'exec_command', argument: 'cmd' };
  throw new Error(`no shell tool offered: ${names.join(', ')}`);
}

function toolCallItem(turn: CodexTurn, body: JsonObject, callId: string): JsonObject | null {
  if ('shell' in turn) {
    const { name, argument } = shellTool(body);
    const escalation = turn.escalated
      ? { sandbox_permissions: 'require_escalated', justification: `Run ${turn.shell}?` }
      : {};
    const args = JSON.stringify({ [argument]: turn.shell, ...escalation });
    return { type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: args };
  }
  if ('patch' in turn) {
    return {
      type: 'custom_tool_call',
      id: `ctc_${callId}`,
      call_id: callId,
      name: 'apply_patch',
      input: turn.patch,
    };
  }
  return null;
}

const textItem = (text: string, id: string): JsonObject => ({
  type: 'message',
  id: `msg_${id}`,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

function sendEvents(res: ServerResponse, responseId: string, item: JsonObject): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events: JsonObject[] = [
    { type: 'response.created', response: { id: responseId } },
    { type: 'response.output_item.added', output_index: 0, item },
    { type: 'response.output_item.done', output_index: 0, item },
    {
      type: 'response.completed',
      response: {
        id: responseId,
        usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      },
    },
  ];
  res.end(
    events.map((e) => `event: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n`).join(''),
  );
}

export interface FakeResponsesOptions {
  /** What the model answers when codex asks it to judge an action. */
  verdict?: 'allow' | 'deny';
}

export async function startFakeResponsesServer(
  options: FakeResponsesOptions = {},
): Promise<FakeResponsesServer> {
  const verdict = options.verdict ?? 'allow';
  const queue: CodexTurn[] = [];
  const requests: RecordedResponsesRequest[] = [];
  const toolOutputs: string[] = [];
  let active: CodexTurn = {};
  let counter = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const body = raw ? (JSON.parse(raw) as JsonValue) : undefined;
    const url = req.url ?? '/';
    if (req.method !== 'POST' || url.split('?')[0] !== '/v1/responses' || !isObject(body)) {
      requests.push({ url, body, answer: 'notFound' });
      sendJson(res, 404, { error: { message: `fake responses server: no route ${url}` } });
      return;
    }
    counter += 1;
    const input = Array.isArray(body['input']) ? body['input'] : [];
    const last = input[input.length - 1];
    const id = `fake${counter}`;
    if (isTitleRequest(last)) {
      requests.push({ url, body, answer: 'title' });
      sendEvents(res, `resp_${id}`, textItem('Fake session', id));
      return;
    }
    if (isJudgement(body)) {
      requests.push({ url, body, answer: 'judgement' });
      const judged = { risk_level: 'low', user_authorization: 'high', outcome: verdict };
      sendEvents(res, `resp_${id}`, textItem(JSON.stringify(judged), id));
      return;
    }
    if (isObject(last) && OUTPUT_TYPES.has(String(last['type']))) {
      toolOutputs.push(JSON.stringify(last['output'] ?? null));
      requests.push({ url, body, answer: 'text' });
      sendEvents(res, `resp_${id}`, textItem(active.finalText ?? 'Done.', id));
      return;
    }
    active = queue.shift() ?? {};
    const call = toolCallItem(active, body, `call_${id}`);
    requests.push({ url, body, answer: call ? 'toolCall' : 'text' });
    sendEvents(res, `resp_${id}`, call ?? textItem(active.finalText ?? 'Done.', id));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: { message: String(error) } });
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
    url: `http://127.0.0.1:${port}/v1`,
    enqueue: (turn) => void queue.push(turn),
    requests,
    toolOutputs,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
