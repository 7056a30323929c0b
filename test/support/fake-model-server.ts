// A scripted stand-in for the Gemini API, good enough for `gemini --acp` (see docs/real-agents.md).
//
// Each prompt turn takes the next script from a queue. The first model call of the turn (a request
// whose last content carries no functionResponse) is answered with the script's first function
// call; every later call that carries a functionResponse is recorded and answered with the next
// function call, or, when none is left, with the script's final text. Utility calls
// (`:generateContent`, `:countTokens`) get plausible answers; unknown routes are logged and get a
// Google-style 404 so that the agent sees an ordinary API error and carries on.
//
// Only erasable TypeScript syntax, so that `node` can run it directly too.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** One function call the fake model asks for, e.g. `{ name: 'write_file', args: { file_path, content } }`. */
export interface FunctionCallSpec {
  name: string;
  args: JsonObject;
}

/** What the fake model does during one prompt turn. */
export interface TurnScript {
  /**
   * Function calls asked for one after the other: the first answers the turn's first model call,
   * each next one answers the request carrying the previous call's functionResponse. Empty or
   * absent: the turn is text only.
   */
  functionCalls?: FunctionCallSpec[];
  /** Text answered once every function call has its functionResponse (default: "Done."). */
  finalText?: string;
}

/** Gemini's functionResponse part, as the agent sent it back to the model. */
export interface RecordedFunctionResponse {
  id?: string;
  name: string;
  response: JsonObject;
}

export type RequestKind = 'stream' | 'generate' | 'countTokens' | 'unknown';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  url: string;
  kind: RequestKind;
  /** Model name from the path, when the route names one. */
  model?: string;
  /** Parsed JSON body, when there was one. */
  body?: JsonValue;
  /** What the server answered with, for routing/utility calls and scripted turns. */
  answer: 'functionCall' | 'text' | 'json' | 'tokens' | 'notFound' | 'badRequest';
  at: number;
}

export interface FakeModelServer {
  /** Base URL for GOOGLE_GEMINI_BASE_URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  /** Queues the script of a later prompt turn (turns are consumed in order). */
  enqueue(script: TurnScript): void;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Requests to routes the server does not know (also in `requests`). */
  unknownRequests(): RecordedRequest[];
  /** Every functionResponse received, in arrival order. */
  functionResponses: RecordedFunctionResponse[];
  lastFunctionResponse(): RecordedFunctionResponse | undefined;
  /** Scripts not yet started. */
  pendingScripts(): number;
  /** Stops listening and drops open connections. Idempotent. */
  close(): Promise<void>;
}

const DEFAULT_FINAL_TEXT = 'Done.';
const MODEL_ROUTE = /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+):([A-Za-z]+)$/;

interface ActiveTurn {
  script: TurnScript;
  /** Index of the next function call to answer with. */
  next: number;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asArray(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/** The parts of the last content of a generateContent request. */
function lastParts(body: JsonValue | undefined): JsonObject[] {
  if (!isObject(body)) return [];
  const contents = asArray(body['contents']);
  const last = contents[contents.length - 1];
  if (!isObject(last)) return [];
  return asArray(last['parts']).filter(isObject);
}

function functionResponsesOf(parts: JsonObject[]): RecordedFunctionResponse[] {
  const found: RecordedFunctionResponse[] = [];
  for (const part of parts) {
    const fr = part['functionResponse'];
    if (!isObject(fr)) continue;
    const response = fr['response'];
    const record: RecordedFunctionResponse = {
      name: typeof fr['name'] === 'string' ? fr['name'] : '',
      response: isObject(response) ? response : { output: response ?? null },
    };
    if (typeof fr['id'] === 'string') record.id = fr['id'];
    found.push(record);
  }
  return found;
}

/** Builds a value that satisfies a (JSON or OpenAPI-style) response schema of a utility call. */
function valueForSchema(schema: JsonValue | undefined, key = ''): JsonValue {
  if (!isObject(schema)) return null;
  const enumValues = asArray(schema['enum']);
  if (enumValues.length > 0) {
    // Next-speaker check: hand the turn back to the user, never loop.
    if (key === 'next_speaker' && enumValues.includes('user')) return 'user';
    return enumValues[0] ?? null;
  }
  const rawType = schema['type'];
  const type = (typeof rawType === 'string' ? rawType : '').toLowerCase();
  if (type === 'object' || isObject(schema['properties'])) {
    const out: JsonObject = {};
    const properties = schema['properties'];
    if (isObject(properties)) {
      for (const [name, sub] of Object.entries(properties)) out[name] = valueForSchema(sub, name);
    }
    return out;
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') return 0;
  return 'fake model';
}

function candidateWith(parts: JsonObject[]): JsonObject {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'fake-model',
  };
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, payload: JsonValue): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendSse(res: ServerResponse, payload: JsonObject): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(`data: ${JSON.stringify(payload)}\n\n`);
}

export async function startFakeModelServer(): Promise<FakeModelServer> {
  const queue: TurnScript[] = [];
  const requests: RecordedRequest[] = [];
  const functionResponses: RecordedFunctionResponse[] = [];
  let active: ActiveTurn | undefined;
  let callCounter = 0;

  /** Parts answering one model call of a scripted turn. */
  function answerTurn(parts: JsonObject[]): {
    parts: JsonObject[];
    answer: 'functionCall' | 'text';
  } {
    const received = functionResponsesOf(parts);
    if (received.length > 0) {
      functionResponses.push(...received);
    } else {
      // A request without functionResponse starts a new turn (a cancelled turn is abandoned).
      active = { script: queue.shift() ?? {}, next: 0 };
    }
    const turn = active ?? { script: {}, next: 0 };
    const calls = turn.script.functionCalls ?? [];
    const call = calls[turn.next];
    if (call) {
      turn.next += 1;
      callCounter += 1;
      return {
        parts: [
          { functionCall: { id: `fake-call-${callCounter}`, name: call.name, args: call.args } },
        ],
        answer: 'functionCall',
      };
    }
    active = undefined;
    return { parts: [{ text: turn.script.finalText ?? DEFAULT_FINAL_TEXT }], answer: 'text' };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    let body: JsonValue | undefined;
    let badJson = false;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw) as JsonValue;
      } catch {
        badJson = true;
      }
    }
    const path = url.split('?')[0] ?? url;
    const match = MODEL_ROUTE.exec(path);
    const model = match?.[2];
    const action = match?.[3];
    const record = (kind: RequestKind, answer: RecordedRequest['answer']): void => {
      const entry: RecordedRequest = { method, url, kind, answer, at: Date.now() };
      if (model !== undefined) entry.model = model;
      if (body !== undefined) entry.body = body;
      requests.push(entry);
    };

    if (method === 'POST' && match && badJson) {
      record('unknown', 'badRequest');
      sendJson(res, 400, {
        error: { code: 400, message: 'Invalid JSON body', status: 'INVALID_ARGUMENT' },
      });
      return;
    }
    if (method === 'POST' && action === 'streamGenerateContent') {
      const { parts, answer } = answerTurn(lastParts(body));
      record('stream', answer);
      sendSse(res, candidateWith(parts));
      return;
    }
    if (method === 'POST' && action === 'generateContent') {
      const config = isObject(body) ? body['generationConfig'] : undefined;
      const schema = isObject(config)
        ? (config['responseJsonSchema'] ?? config['responseSchema'])
        : undefined;
      if (schema !== undefined) {
        // Routing classifier, next-speaker check and other JSON utility calls.
        record('generate', 'json');
        sendJson(res, 200, candidateWith([{ text: JSON.stringify(valueForSchema(schema)) }]));
      } else {
        record('generate', 'text');
        sendJson(res, 200, candidateWith([{ text: 'fake model' }]));
      }
      return;
    }
    if (method === 'POST' && action === 'countTokens') {
      record('countTokens', 'tokens');
      sendJson(res, 200, { totalTokens: Math.max(1, Math.ceil(raw.length / 4)) });
      return;
    }
    record('unknown', 'notFound');
    sendJson(res, 404, {
      error: {
        code: 404,
        message: `fake model server: no route ${method} ${path}`,
        status: 'NOT_FOUND',
      },
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, { error: { code: 500, message: String(error), status: 'INTERNAL' } });
      } else {
        res.destroy();
      }
    });
  });
  // Nothing here should keep a test process alive on its own.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    enqueue(script) {
      queue.push(script);
    },
    requests,
    unknownRequests: () => requests.filter((r) => r.kind === 'unknown'),
    functionResponses,
    lastFunctionResponse: () => functionResponses[functionResponses.length - 1],
    pendingScripts: () => queue.length,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
