// An editor as a test drives one: the ACP SDK's client side over the stdio of a command it
// launches (an agent, or `gatehouse acp …` in front of one). It records every line both ways,
// serves writes and reads from the folder it is given, and answers permission requests as told.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

export interface ShownRequest {
  params: acp.RequestPermissionRequest;
  /** Aborted when the proxy sends `$/cancel_request` for it. */
  signal: AbortSignal;
  /** Answers it (only once). */
  answer(response: acp.RequestPermissionResponse): void;
}

export interface EditorOptions {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  name?: string;
  terminal?: boolean;
}

export interface ScriptedEditor {
  child: ChildProcess;
  agent: acp.ClientContext;
  /** Every line the editor sent, and every line it received, in order. */
  sent: string[];
  received: string[];
  /** Permission requests shown to this editor, as they arrive. */
  shown: ShownRequest[];
  /** The updates of every session, as they arrive. */
  updates: acp.SessionNotification[];
  /** Writes the agent made through the editor. */
  writes: { path: string; content: string }[];
  terminals: acp.CreateTerminalRequest[];
  extensions: { method: string; params: unknown }[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  initialize(): Promise<acp.InitializeResponse>;
  newSession(cwd: string): Promise<string>;
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  /** The next request shown, waiting at most `timeoutMs`. */
  nextShown(timeoutMs?: number): Promise<ShownRequest>;
  close(): Promise<void>;
}

export function startEditor(options: EditorOptions): ScriptedEditor {
  const child = spawn(options.command, options.args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const sent: string[] = [];
  const received: string[] = [];
  const tap = (into: string[]) => {
    let rest = '';
    return (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop()!;
      into.push(...parts);
    };
  };
  child.stdout!.on('data', tap(received));
  const record = tap(sent);
  const input = new Writable({
    write(chunk: Buffer, _encoding, done) {
      record(chunk);
      child.stdin!.write(chunk, done);
    },
  });
  child.stdin!.on('error', () => undefined);

  const shown: ShownRequest[] = [];
  const waiters: ((request: ShownRequest) => void)[] = [];
  const editor = {
    updates: [] as acp.SessionNotification[],
    writes: [] as { path: string; content: string }[],
    terminals: [] as acp.CreateTerminalRequest[],
    extensions: [] as { method: string; params: unknown }[],
  };
  const app = acp
    .client({ name: options.name ?? 'scripted-editor' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      editor.updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => {
      return new Promise<acp.RequestPermissionResponse>((resolve) => {
        let answered = false;
        const request: ShownRequest = {
          params,
          signal,
          answer: (response) => {
            if (answered) return;
            answered = true;
            resolve(response);
          },
        };
        shown.push(request);
        const waiter = waiters.shift();
        if (waiter) waiter(request);
      });
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      editor.writes.push({ path: params.path, content: params.content });
      writeFileSync(params.path, params.content);
      return {};
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => ({
      content: readFileSync(params.path, 'utf8'),
    }))
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      editor.terminals.push(params);
      return { terminalId: `t${editor.terminals.length}` };
    })
    .onRequest('*', ({ method, params }) => {
      editor.extensions.push({ method, params });
      return { echoed: true };
    })
    .onNotification('*', ({ method, params }) => {
      editor.extensions.push({ method, params });
    });
  const connection = app.connect(
    acp.ndJsonStream(
      Writable.toWeb(input) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    ),
  );
  const agent = connection.agent;

  return {
    child,
    agent,
    sent,
    received,
    shown,
    ...editor,
    stderr: () => stderr,
    exited,
    initialize: () =>
      agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {
          fs: { readTextFile: true, writeTextFile: true },
          terminal: options.terminal ?? false,
        },
        clientInfo: { name: options.name ?? 'scripted-editor', version: '1.0.0' },
      }),
    newSession: async (cwd) =>
      (await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId,
    prompt: (sessionId, text) =>
      agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text }],
      }),
    nextShown: (timeoutMs = 20_000) => {
      const already = shown.find((request) => !taken.has(request));
      if (already) {
        taken.add(already);
        return Promise.resolve(already);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('no request shown to the editor')),
          timeoutMs,
        );
        waiters.push((request) => {
          clearTimeout(timer);
          taken.add(request);
          resolve(request);
        });
      });
    },
    async close() {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const taken = new WeakSet<ShownRequest>();
