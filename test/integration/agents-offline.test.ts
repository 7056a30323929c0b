// Drives a real Gemini CLI (against the fake model server) and the scripted agent end to end,
// with nothing but the SDK's client side: proves the test drivers work before Gatehouse uses them.

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import type {
  ClientConnection,
  NewSessionResponse,
  PermissionOption,
  PermissionOptionKind,
  PromptResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionNotification,
  WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import type { ScriptedAgentScript } from '../support/agents/scripted-agent';
import { startFakeModelServer } from '../support/fake-model-server';
import type { FakeModelServer } from '../support/fake-model-server';
import { prepareGemini } from '../support/gemini';
import { cleanupAfterEach } from '../support/steps';

// ---------------------------------------------------------------------------------------------
// Harness: one agent subprocess + an SDK client that queues permission requests for the test.

interface PendingPermission {
  params: RequestPermissionRequest;
  respond(response: RequestPermissionResponse): void;
}

interface AgentUnderTest {
  child: ChildProcessWithoutNullStreams;
  connection: ClientConnection;
  /** Resolves with the next session/request_permission the agent sends. */
  nextPermission(): Promise<PendingPermission>;
  /** Every session/request_permission received. */
  permissions: RequestPermissionRequest[];
  writes: WriteTextFileRequest[];
  updates: SessionNotification[];
  stderr(): string;
}

const cleanups = cleanupAfterEach();

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 3 }));
  return dir;
}

/** Keeps a promise that a failing test may never await from becoming an unhandled rejection. */
function tracked<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

async function stopProcess(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

function startAgent(
  launch: { command: string; args: string[]; env: NodeJS.ProcessEnv },
  cwd: string,
): AgentUnderTest {
  const child = spawn(launch.command, launch.args, {
    cwd,
    env: launch.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const queued: PendingPermission[] = [];
  const waiters: Array<(pending: PendingPermission) => void> = [];
  const writes: WriteTextFileRequest[] = [];
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];

  const app = client({ name: 'agents-offline-test' })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      return new Promise<RequestPermissionResponse>((respond) => {
        const pending: PendingPermission = { params, respond };
        const waiter = waiters.shift();
        if (waiter) waiter(pending);
        else queued.push(pending);
      });
    })
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
      writes.push(params);
      writeFileSync(params.path, params.content);
      return {};
    })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  cleanups.push(async () => {
    connection.close();
    await stopProcess(child);
  });
  return {
    child,
    connection,
    nextPermission: () =>
      new Promise<PendingPermission>((resolve) => {
        const next = queued.shift();
        if (next) resolve(next);
        else waiters.push(resolve);
      }),
    permissions,
    writes,
    updates,
    stderr: () => stderr,
  };
}

function optionOfKind(options: PermissionOption[], kind: PermissionOptionKind): PermissionOption {
  const option = options.find((o) => o.kind === kind);
  if (!option) throw new Error(`no ${kind} option in ${JSON.stringify(options)}`);
  return option;
}

const select = (
  options: PermissionOption[],
  kind: PermissionOptionKind,
): RequestPermissionResponse => ({
  outcome: { outcome: 'selected', optionId: optionOfKind(options, kind).optionId },
});

function agentText(agent: AgentUnderTest, sessionId: string): string {
  return agent.updates
    .filter((n) => n.sessionId === sessionId)
    .map((n) =>
      n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text'
        ? n.update.content.text
        : '',
    )
    .join('\n');
}

async function openSession(
  agent: AgentUnderTest,
  cwd: string,
  fs: { readTextFile: boolean; writeTextFile: boolean },
): Promise<NewSessionResponse> {
  await agent.connection.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: { fs },
  });
  return agent.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
}

function prompt(agent: AgentUnderTest, sessionId: string, text: string): Promise<PromptResponse> {
  return tracked(
    agent.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text }],
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Gemini CLI

describe('gemini --acp against the fake model server', () => {
  async function startGemini(): Promise<{
    agent: AgentUnderTest;
    server: FakeModelServer;
    workspace: string;
    sessionId: string;
  }> {
    const server = await startFakeModelServer();
    cleanups.push(() => server.close());
    const gemini = prepareGemini({ modelUrl: server.url });
    cleanups.push(() => gemini.cleanup());
    const workspace = tempDir('gatehouse-gemini-ws-');
    const agent = startAgent(gemini, workspace);
    // No fs/read_text_file: with it, Gemini can never create a new file (docs/real-agents.md).
    const session = await openSession(agent, workspace, {
      readTextFile: false,
      writeTextFile: true,
    });
    return { agent, server, workspace, sessionId: session.sessionId };
  }

  it('asks before write_file (new file), writes through fs/write_text_file once allowed', async () => {
    const { agent, server, workspace, sessionId } = await startGemini();
    const target = join(workspace, 'hello.txt');
    server.enqueue({
      functionCalls: [{ name: 'write_file', args: { file_path: target, content: 'hello\n' } }],
      finalText: 'Wrote it.',
    });
    const turn = prompt(agent, sessionId, 'write hello.txt');

    const { params, respond } = await agent.nextPermission();
    expect(params.sessionId).toBe(sessionId);
    expect(params.toolCall).toMatchObject({
      kind: 'edit',
      status: 'pending',
      locations: [{ path: target }],
    });
    expect(params.toolCall.content).toEqual([
      expect.objectContaining({ type: 'diff', path: target, oldText: '', newText: 'hello\n' }),
    ]);
    expect(params.options.map((o) => o.kind)).toEqual([
      'allow_always',
      'allow_once',
      'reject_once',
    ]);
    respond(select(params.options, 'allow_once'));

    await expect(turn).resolves.toMatchObject({ stopReason: 'end_turn' });
    expect(readFileSync(target, 'utf8')).toBe('hello\n');
    // Gemini writes through the client when the path is inside the session cwd.
    expect(agent.writes).toEqual([{ sessionId, path: target, content: 'hello\n' }]);
    expect(server.lastFunctionResponse()).toMatchObject({
      name: 'write_file',
      response: { output: expect.stringContaining('Successfully created') },
    });
    expect(agentText(agent, sessionId)).toContain('Wrote it.');
    expect(server.unknownRequests()).toEqual([]);
  });

  it('overwrites an existing file after allow_once, showing the old text in the diff', async () => {
    const { agent, server, workspace, sessionId } = await startGemini();
    const target = join(workspace, 'existing.txt');
    writeFileSync(target, 'old line\n');
    server.enqueue({
      functionCalls: [{ name: 'write_file', args: { file_path: target, content: 'new line\n' } }],
    });
    const turn = prompt(agent, sessionId, 'overwrite existing.txt');

    const { params, respond } = await agent.nextPermission();
    expect(params.toolCall.content).toEqual([
      expect.objectContaining({
        type: 'diff',
        path: target,
        oldText: 'old line\n',
        newText: 'new line\n',
      }),
    ]);
    respond(select(params.options, 'allow_once'));

    await expect(turn).resolves.toMatchObject({ stopReason: 'end_turn' });
    expect(readFileSync(target, 'utf8')).toBe('new line\n');
    expect(agent.writes).toEqual([{ sessionId, path: target, content: 'new line\n' }]);
  });

  it('does not write after reject_once, ends the turn normally and tells the model it was refused', async () => {
    const { agent, server, workspace, sessionId } = await startGemini();
    const target = join(workspace, 'refused.txt');
    server.enqueue({
      functionCalls: [{ name: 'write_file', args: { file_path: target, content: 'nope\n' } }],
      finalText: 'Understood, not writing.',
    });
    const turn = prompt(agent, sessionId, 'write refused.txt');

    const { params, respond } = await agent.nextPermission();
    respond(select(params.options, 'reject_once'));

    await expect(turn).resolves.toMatchObject({ stopReason: 'end_turn' });
    expect(existsSync(target)).toBe(false);
    expect(agent.writes).toEqual([]);
    expect(server.lastFunctionResponse()).toMatchObject({
      name: 'write_file',
      response: { error: expect.stringMatching(/canceled by the user/) },
    });
    expect(agentText(agent, sessionId)).toContain('Understood, not writing.');
  });

  it('asks before run_shell_command with kind execute and runs it once allowed', async () => {
    const { agent, server, workspace, sessionId } = await startGemini();
    const command = 'printf ran > ran.txt';
    server.enqueue({
      functionCalls: [
        { name: 'run_shell_command', args: { command, description: 'leave a mark' } },
      ],
    });
    const turn = prompt(agent, sessionId, 'run it');

    const { params, respond } = await agent.nextPermission();
    expect(params.toolCall).toMatchObject({ kind: 'execute', title: command, locations: [] });
    // Gemini sends no rawInput: the command is only in the title, the description in the content.
    expect(params.toolCall.rawInput).toBeUndefined();
    expect(params.toolCall.content).toEqual([
      {
        type: 'content',
        content: { type: 'text', text: `[current working directory ${workspace}] (leave a mark)` },
      },
    ]);
    expect(params.options.map((o) => o.kind)).toEqual([
      'allow_always',
      'allow_once',
      'reject_once',
    ]);
    respond(select(params.options, 'allow_once'));

    await expect(turn).resolves.toMatchObject({ stopReason: 'end_turn' });
    expect(readFileSync(join(workspace, 'ran.txt'), 'utf8')).toBe('ran');
    expect(server.lastFunctionResponse()?.name).toBe('run_shell_command');
  });

  it('ends the turn with stopReason cancelled when cancelled while a request is pending', async () => {
    const { agent, server, workspace, sessionId } = await startGemini();
    const target = join(workspace, 'cancelled.txt');
    server.enqueue({
      functionCalls: [{ name: 'write_file', args: { file_path: target, content: 'x' } }],
    });
    const turn = prompt(agent, sessionId, 'write cancelled.txt');

    const { respond } = await agent.nextPermission();
    await agent.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    respond({ outcome: { outcome: 'cancelled' } });

    await expect(turn).resolves.toMatchObject({ stopReason: 'cancelled' });
    expect(existsSync(target)).toBe(false);
    expect(server.functionResponses).toEqual([]);
  });

  it('accepts session/set_mode offline: autoEdit writes without asking', async () => {
    const { agent, server, workspace, sessionId } = await startGemini();
    await agent.connection.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: 'autoEdit',
    });
    const target = join(workspace, 'auto.txt');
    server.enqueue({
      functionCalls: [{ name: 'write_file', args: { file_path: target, content: 'auto\n' } }],
    });
    // Should a request come after all, refuse it rather than hang the turn.
    void agent
      .nextPermission()
      .then(({ params, respond }) => respond(select(params.options, 'reject_once')));

    await expect(prompt(agent, sessionId, 'write auto.txt')).resolves.toMatchObject({
      stopReason: 'end_turn',
    });
    expect(agent.permissions).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('auto\n');
  });
});

// ---------------------------------------------------------------------------------------------
// Scripted agent

describe('scripted agent', () => {
  const options: PermissionOption[] = [
    { optionId: 'opt-always', name: 'Always', kind: 'allow_always' },
    { optionId: 'opt-yes', name: 'Yes', kind: 'allow_once' },
    { optionId: 'opt-no', name: 'No', kind: 'reject_once' },
  ];

  function writeScript(path: string): ScriptedAgentScript {
    return {
      prompts: [
        [
          {
            type: 'requestPermission',
            toolCall: {
              toolCallId: 'write-1',
              title: 'Write notes.txt',
              kind: 'edit',
              rawInput: { path, content: 'notes\n' },
              content: [{ type: 'diff', path, oldText: null, newText: 'notes\n' }],
              locations: [{ path }],
            },
            options,
            onAllow: [{ type: 'writeFile', path, content: 'notes\n' }],
            onReject: [{ type: 'text', text: 'not writing' }],
          },
        ],
      ],
    };
  }

  async function startScripted(
    script: (workspace: string) => ScriptedAgentScript,
  ): Promise<{ agent: AgentUnderTest; workspace: string; log: string; sessionId: string }> {
    const workspace = tempDir('gatehouse-scripted-ws-');
    const log = join(workspace, 'agent-log.jsonl');
    const agent = startAgent(scriptedAgentLaunch(script(workspace), { logFile: log }), workspace);
    const session = await openSession(agent, workspace, {
      readTextFile: false,
      writeTextFile: true,
    });
    return { agent, workspace, log, sessionId: session.sessionId };
  }

  function loggedMessages(
    log: string,
  ): Array<{ dir: string; msg: { method?: string; result?: unknown } }> {
    return readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { dir: string; msg: { method?: string; result?: unknown } },
      );
  }

  it('allow (chosen by kind) → writes through fs/write_text_file', async () => {
    const { agent, workspace, log, sessionId } = await startScripted((ws) =>
      writeScript(join(ws, 'notes.txt')),
    );
    const target = join(workspace, 'notes.txt');
    const turn = prompt(agent, sessionId, 'go');

    const { params, respond } = await agent.nextPermission();
    expect(params.toolCall).toMatchObject({
      toolCallId: 'write-1',
      kind: 'edit',
      rawInput: { path: target },
    });
    respond(select(params.options, 'allow_once'));

    await expect(turn).resolves.toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(target, 'utf8')).toBe('notes\n');
    expect(agent.writes).toEqual([{ sessionId, path: target, content: 'notes\n' }]);
    expect(agentText(agent, sessionId)).toContain(
      'permission write-1: selected opt-yes (allow_once)',
    );
    // The agent logged what it was told, including our answer.
    const received = loggedMessages(log).filter((m) => m.dir === 'in');
    expect(received.map((m) => m.msg.method).filter(Boolean)).toEqual([
      'initialize',
      'session/new',
      'session/prompt',
    ]);
    expect(received).toContainEqual(
      expect.objectContaining({
        msg: expect.objectContaining({
          result: { outcome: { outcome: 'selected', optionId: 'opt-yes' } },
        }),
      }),
    );
  });

  it('reject (chosen by kind) → nothing written, turn ends normally', async () => {
    const { agent, workspace, sessionId } = await startScripted((ws) =>
      writeScript(join(ws, 'notes.txt')),
    );
    const turn = prompt(agent, sessionId, 'go');

    const { params, respond } = await agent.nextPermission();
    respond(select(params.options, 'reject_once'));

    await expect(turn).resolves.toEqual({ stopReason: 'end_turn' });
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    expect(agent.writes).toEqual([]);
    expect(agentText(agent, sessionId)).toContain('not writing');
  });

  it('cancel while pending → request answered cancelled, stopReason cancelled', async () => {
    const { agent, workspace, sessionId } = await startScripted((ws) =>
      writeScript(join(ws, 'notes.txt')),
    );
    const turn = prompt(agent, sessionId, 'go');

    const { respond } = await agent.nextPermission();
    await agent.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    respond({ outcome: { outcome: 'cancelled' } });

    await expect(turn).resolves.toEqual({ stopReason: 'cancelled' });
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
  });
});
