// A small, deterministic ACP agent for tests, built on the SDK's agent side.
//
//   SCRIPTED_AGENT_SCRIPT='{"prompts":[[...steps...]]}' SCRIPTED_AGENT_LOG=/tmp/x.jsonl \
//     node test/support/agents/scripted-agent.ts
//
// Each prompt of a session runs the next list of steps of the script (see ScriptedAgentScript).
// Every message read from stdin and written to stdout is appended to SCRIPTED_AGENT_LOG as one JSON
// line ({ t, dir: 'in' | 'out', msg }), so a test can assert what the agent was told.
//
// Runs under plain `node` (type stripping): erasable syntax only, no relative imports.

import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, isAbsolute, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  PROTOCOL_VERSION,
  RequestError,
  agent,
  methods,
  ndJsonStream,
} from '@agentclientprotocol/sdk';
import type {
  AgentContext,
  ClientCapabilities,
  InitializeResponse,
  PermissionOption,
  PermissionOptionKind,
  RequestPermissionResponse,
  SessionConfigOption,
  SessionMode,
  SessionUpdate,
  StopReason,
  ToolCallContent,
  ToolCallLocation,
  ToolCallUpdate,
  ToolKind,
} from '@agentclientprotocol/sdk';

// ---------------------------------------------------------------------------------------------
// Script format

export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Asks the client for permission, then runs the branch matching the outcome. */
export interface RequestPermissionStep {
  type: 'requestPermission';
  toolCall: ToolCallUpdate;
  options: PermissionOption[];
  /** Send a `tool_call` update (status pending) before asking, and a final `tool_call_update`
   *  (completed after allow, failed otherwise) after the branch. Default true. */
  announce?: boolean;
  /** false: send the request and go on without waiting (e.g. followed by `exit`). Default true. */
  wait?: boolean;
  /** Sets rawInput[field] to `bytes` characters made here (the script itself travels in an
   *  environment variable, which cannot hold megabytes): the tool call id, ':', then 'x's. */
  fillRawInput?: { field: string; bytes: number };
  /** After an option of kind allow_once / allow_always (or a mode that auto-approves). */
  onAllow?: ScriptStep[];
  /** After an option of kind reject_once / reject_always, an unknown option id, or an error. */
  onReject?: ScriptStep[];
  /** After the outcome `cancelled` (only runs if the turn itself was not cancelled). */
  onCancelled?: ScriptStep[];
}

/** Streams `count` session updates as fast as stdout takes them, written raw in batches of 256
 *  (not logged), until the turn is cancelled: text chunks `u<i> `, and with `calls` every other one
 *  of the first 2 × calls.count a `tool_call_update` of that call titled `<title> <i>`. With `ask`,
 *  once the client has answered a request sent after the flood (so it has read all of it), one
 *  write holds `ask.with` more updates (text chunks `v<j> `, or with `ofCall` updates of the asked
 *  call titled `<title> <count + j>`) and a permission request naming only that call's id; its answer
 *  is reported as `flood ask: <outcome>`. The last update of a call is its latest state. */
export interface FloodStep {
  type: 'flood';
  count: number;
  calls?: { toolCallId: string; title: string; count: number };
  ask?: {
    toolCallId: string;
    options: PermissionOption[];
    with: number;
    ofCall?: boolean;
    /** A `current_mode_update` to this mode first in that write, as an agent that switches itself. */
    modeId?: string;
  };
}

export type ScriptStep =
  /** `agent_message_chunk` with this text. */
  | { type: 'text'; text: string }
  /** A `tool_call` session update. */
  | {
      type: 'toolCall';
      toolCallId: string;
      title: string;
      kind?: ToolKind;
      status?: 'pending' | 'in_progress' | 'completed' | 'failed';
      content?: ToolCallContent[];
      locations?: ToolCallLocation[];
      rawInput?: JsonValue;
    }
  /** A `tool_call_update` session update. */
  | { type: 'toolCallUpdate'; update: ToolCallUpdate }
  | RequestPermissionStep
  /** Writes a file through `fs/write_text_file` when the client advertised it (via 'auto', the
   *  default), or always through the client / always with node:fs. Relative paths are resolved
   *  against the session cwd. Reports the result as a text chunk. */
  | { type: 'writeFile'; path: string; content: string; via?: 'auto' | 'client' | 'fs' }
  /** Reads a file through `fs/read_text_file`, advertised or not. Reports `read <path>: <text>`
   *  or `read <path> failed: <code> <message>` as a text chunk. */
  | { type: 'readFile'; path: string; line?: number; limit?: number }
  /** Runs the branches at the same time (e.g. several permission requests in flight). */
  | { type: 'concurrent'; branches: ScriptStep[][] }
  /** Sends a request the client should refuse (default method session/request_permission; the
   *  sessionId is added unless `params` has one or `withSessionId` is false). Reports the answer. */
  | {
      type: 'malformedRequest';
      method?: string;
      params: { [key: string]: JsonValue };
      withSessionId?: boolean;
    }
  /** Acts by itself, never asking the client: writes or reads a file with node:fs, or opens a TCP
   *  connection. Reports `direct <action> <target>: ok` or `direct <action> <target> failed: <code>`
   *  as a text chunk; a failure's message also goes to stderr, as a tool's would. */
  | { type: 'direct'; action: 'write' | 'read'; path: string }
  | { type: 'direct'; action: 'connect'; host: string; port: number }
  /** Runs `bash -c <command>` by itself, never asking: reports `shell exit <code>: <stdout>` as a
   *  text chunk. Its error output stays its own (as Gemini CLI keeps it), or with `stderr: 'agent'`
   *  goes to the agent's stderr as a shell tool's would. */
  | { type: 'shell'; command: string; stderr?: 'agent' }
  /** Reports an environment variable as a text chunk: `env NAME=value` or `env NAME unset`. */
  | { type: 'env'; name: string }
  /** One JSON-RPC message written as raw text, past the SDK's serialiser (which recurses): every
   *  string "$NESTED" in `params` becomes arrays nested `nestDepth` levels deep. A request's answer
   *  is reported as `raw <method> refused: <code> <message>` or `raw <method> accepted`; a
   *  notification as `raw <method> sent`. The sessionId is added unless `params` has one. Raw
   *  messages are not logged (the log's serialiser would recurse too); their answers are. */
  | {
      type: 'raw';
      method: string;
      params: { [key: string]: JsonValue };
      nestDepth?: number;
      /** Every string "$PAD" in `params` becomes this many characters (a message of megabytes). */
      pad?: number;
      notification?: boolean;
      /** A session/update sent in the same write, just before (so the client reads both at once). */
      updateBefore?: SessionUpdate;
    }
  /** The agent switches its own mode, as Claude does after an approved ExitPlanMode: it announces
   *  `current_mode_update` (and `config_option_update` when it advertises `modeConfigOption`). */
  | { type: 'switchMode'; modeId: string }
  | FloodStep
  /** Waits (cut short by session/cancel). */
  | { type: 'sleep'; ms: number }
  /** Ends the prompt now with this stop reason. */
  | { type: 'end'; stopReason: StopReason }
  /** Exits the process (after flushing what was written), e.g. while a request is pending. */
  | { type: 'exit'; code?: number; delayMs?: number };

export interface ScriptedAgentScript {
  /** Reported in initialize's agentInfo. Default "scripted-agent". */
  name?: string;
  /** Advertised in session/new. Default: default, acceptEdits, plan, bypassPermissions. */
  modes?: SessionMode[];
  /** Mode of a new session. Default: the first mode. */
  initialModeId?: string;
  /** Also advertise the mode as a select config option with id `mode`, as claude-agent-acp does. */
  modeConfigOption?: boolean;
  /** More session config options advertised in session/new (after the mode's); set_config_option
   *  takes a value they list and answers with every option. */
  configOptions?: SessionConfigOption[];
  /** Also advertise this many select options made here (`flood-<i>`, two values each), each name
   *  and description `labelChars` long: more than an environment variable could carry. */
  floodConfigOptions?: { count: number; labelChars: number };
  /** Refuse session/set_mode and session/set_config_option with an error. */
  refuseModeChange?: boolean;
  /** Tool kinds a mode approves without asking. Default: acceptEdits → edit/delete/move,
   *  bypassPermissions → every kind. */
  autoApprove?: { [modeId: string]: ToolKind[] | 'all' };
  /** Steps for a prompt whose whole text equals the key (checked first). */
  onPrompt?: { [promptText: string]: ScriptStep[] };
  /** Steps of the 1st, 2nd, … prompt of each session. Past the end: a text chunk only. */
  prompts?: ScriptStep[][];
  /** Ignore session/cancel: the turn goes on as if nothing was said. */
  ignoreCancel?: boolean;
  /** Advertise these `authMethods` in initialize and refuse session/new with ACP's auth_required
   *  until `authenticate` succeeds with one of `accept` (default: every advertised id), or at
   *  once when the variable `unlessEnv` is set (an API key in its environment). */
  requireAuth?: { methods: JsonValue[]; accept?: string[]; unlessEnv?: string };
  /** Advertise `sessionCapabilities.additionalDirectories` (session/new takes more folders). */
  additionalDirectories?: boolean;
  /** At initialize, write to this file the scheduling group it runs in (`/proc/self/autogroup`,
   *  e.g. `/autogroup-17 nice 5`), or `none` where there is none. */
  groupFile?: string;
  /** Keep each session in `dir` (one JSON file: its folder, mode, prompts and every update sent),
   *  so that another process of this agent can take it up, and advertise what is set here:
   *  session/list (of that folder, `pageSize` a page), session/resume, session/load (which replays
   *  the kept updates, and with `replayRequest` also asks permission while it replays) and
   *  session/close. */
  sessions?: {
    dir: string;
    list?: boolean;
    resume?: boolean;
    load?: boolean;
    close?: boolean;
    replayRequest?: boolean;
    pageSize?: number;
    /** The mode a resumed or loaded session answers it is in (default: the one it was in). */
    resumeModeId?: string;
  };
}

export const DEFAULT_MODES: SessionMode[] = [
  { id: 'default', name: 'Default', description: 'Ask before edits and commands' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Edit files without asking' },
  { id: 'plan', name: 'Plan', description: 'Read only' },
  { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Never ask' },
];

/** The modes claude-agent-acp advertises (its ids, names and descriptions). */
export const CLAUDE_MODES: SessionMode[] = [
  { id: 'default', name: 'Manual', description: 'Always ask before making changes' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Automatically accept all file edits' },
  { id: 'plan', name: 'Plan', description: 'Create a plan before making changes' },
  { id: 'auto', name: 'Auto', description: 'Claude handles permission decisions' },
  { id: 'dontAsk', name: "Don't Ask", description: "Don't prompt for permissions" },
  { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Accepts all permissions' },
];

const DEFAULT_AUTO_APPROVE: { [modeId: string]: ToolKind[] | 'all' } = {
  acceptEdits: ['edit', 'delete', 'move'],
  bypassPermissions: 'all',
};

/** The command line and the agent's own variables (Gatehouse gives an agent the rest: PATH, HOME, …). */
export function scriptedAgentLaunch(
  script: ScriptedAgentScript,
  options: { logFile?: string } = {},
): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { SCRIPTED_AGENT_SCRIPT: JSON.stringify(script) };
  if (options.logFile) env['SCRIPTED_AGENT_LOG'] = options.logFile;
  else delete env['SCRIPTED_AGENT_LOG'];
  return { command: process.execPath, args: [fileURLToPath(import.meta.url)], env };
}

/** The same launch as an agent's entry in the settings (which take its variables as strings). */
export function scriptedAgentConfig(
  script: ScriptedAgentScript,
  options: { logFile?: string } = {},
): { command: string; args: string[]; env: Record<string, string> } {
  const { command, args, env } = scriptedAgentLaunch(script, options);
  return { command, args, env: env as Record<string, string> };
}

// ---------------------------------------------------------------------------------------------
// Runtime

interface PromptRun {
  sessionId: string;
  cancelled: boolean;
  /** Set by an `end` step. */
  stopReason?: StopReason;
  /** Wakes sleeping steps on cancel. */
  onCancel: Set<() => void>;
}

interface SessionState {
  id: string;
  cwd: string;
  modeId: string;
  prompts: number;
  run?: PromptRun;
  /** Every update sent for the session (kept with `sessions`, replayed by session/load). */
  history?: SessionUpdate[];
}

type Branch = 'allow' | 'reject' | 'cancelled';

const LOG_MAX_LINE = 1024 * 1024;

function filled(toolCall: ToolCallUpdate, fill: { field: string; bytes: number }): ToolCallUpdate {
  const head = `${toolCall.toolCallId}:`;
  const base =
    typeof toolCall.rawInput === 'object' && toolCall.rawInput !== null ? toolCall.rawInput : {};
  const text = head + 'x'.repeat(Math.max(0, fill.bytes - head.length));
  return { ...toolCall, rawInput: { ...base, [fill.field]: text } };
}

function main(): void {
  const startedAt = Date.now();
  const logFile = process.env['SCRIPTED_AGENT_LOG'];
  const script = JSON.parse(process.env['SCRIPTED_AGENT_SCRIPT'] ?? '{}') as ScriptedAgentScript;
  const modes = script.modes ?? DEFAULT_MODES;
  const autoApprove = script.autoApprove ?? DEFAULT_AUTO_APPROVE;
  const sessions = new Map<string, SessionState>();
  const flood = script.floodConfigOptions;
  const label = 'y'.repeat(flood?.labelChars ?? 0);
  const extraOptions: SessionConfigOption[] = [
    ...(script.configOptions ?? []),
    ...Array.from({ length: flood?.count ?? 0 }, (_, i) => ({
      id: `flood-${i}`,
      name: label,
      description: label,
      type: 'select' as const,
      currentValue: 'a',
      options: [
        { value: 'a', name: label },
        { value: 'b', name: label },
      ],
    })),
  ];
  const modeConfig = (modeId: string): SessionConfigOption[] => [
    ...(script.modeConfigOption
      ? [
          {
            id: 'mode',
            name: 'Mode',
            description: 'Session permission mode',
            category: 'mode',
            type: 'select',
            currentValue: modeId,
            options: modes.map((m) => ({ value: m.id, name: m.name, description: m.description })),
          } as SessionConfigOption,
        ]
      : []),
    ...extraOptions,
  ];
  let clientCapabilities: ClientCapabilities = {};
  let signedIn = false;

  /** Answers to raw requests, by their (string) id. */
  const rawAnswers = new Map<
    string,
    (message: { error?: { code: number; message: string } }) => void
  >();
  let rawCount = 0;

  if (logFile) mkdirSync(dirname(logFile), { recursive: true });
  const log = (dir: 'in' | 'out', line: string): void => {
    if (!logFile) return;
    let msg: unknown = line;
    try {
      msg = JSON.parse(line);
    } catch {
      // keep the raw line
    }
    // A message of megabytes is logged by what identifies it, not copied whole.
    if (line.length > LOG_MAX_LINE && typeof msg === 'object' && msg !== null) {
      const { id, method, result, error } = msg as Record<string, unknown>;
      msg = { id, method, result, error, bytes: line.length };
    }
    appendFileSync(logFile, `${JSON.stringify({ t: Date.now() - startedAt, dir, msg })}\n`);
  };

  /** Splits a byte stream into lines and logs each complete one. */
  const lineLogger = (dir: 'in' | 'out'): ((chunk: Uint8Array) => void) => {
    const decoder = new TextDecoder();
    let buffer = '';
    return (chunk) => {
      buffer += decoder.decode(chunk, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) log(dir, line);
        if (line && dir === 'in' && rawAnswers.size > 0 && line.includes('"raw-')) {
          const message = JSON.parse(line) as {
            id?: unknown;
            error?: { code: number; message: string };
          };
          const answer = typeof message.id === 'string' ? rawAnswers.get(message.id) : undefined;
          if (answer) {
            rawAnswers.delete(message.id as string);
            answer(message);
          }
        }
        newline = buffer.indexOf('\n');
      }
    };
  };
  // stdin → (log) → SDK
  const logIn = lineLogger('in');
  const input = (Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        logIn(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  // SDK → (log) → stdout; a write resolves once stdout has taken the bytes.
  const logOut = lineLogger('out');
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      logOut(chunk);
      return new Promise<void>((done, fail) => {
        process.stdout.write(chunk, (error) => (error ? fail(error) : done()));
      });
    },
  });

  const kept = script.sessions;
  if (kept) mkdirSync(kept.dir, { recursive: true });
  const keptPath = (id: string): string =>
    resolve(kept?.dir ?? '.', `${id.replace(/[^\w-]/g, '_')}.json`);
  const keep = (session: SessionState): void => {
    if (!kept) return;
    const { run: _run, ...state } = session;
    writeFileSync(keptPath(session.id), JSON.stringify(state));
  };
  /** A kept session read back (by a later process of this agent), or the ACP error. */
  const keptSession = (id: string, cwd: string): SessionState => {
    let state: SessionState;
    try {
      state = JSON.parse(readFileSync(keptPath(id), 'utf8')) as SessionState;
    } catch {
      throw RequestError.resourceNotFound(id);
    }
    if (state.cwd !== cwd) throw RequestError.invalidParams({ cwd }, "Not the session's folder");
    sessions.set(id, state);
    return state;
  };
  const update = (client: AgentContext, sessionId: string, u: SessionUpdate): Promise<void> => {
    const session = sessions.get(sessionId);
    if (kept && session) {
      (session.history ??= []).push(u);
      keep(session);
    }
    return client.notify(methods.client.session.update, { sessionId, update: u });
  };
  const say = (client: AgentContext, sessionId: string, text: string): Promise<void> =>
    update(client, sessionId, {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text },
    });

  const flushAndExit = (code: number): void => {
    process.stdout.write('', () => process.exit(code));
  };

  function branchOf(step: RequestPermissionStep, response: RequestPermissionResponse): Branch {
    if (response.outcome.outcome === 'cancelled') return 'cancelled';
    const chosenId = response.outcome.optionId;
    const kind: PermissionOptionKind | undefined = step.options.find(
      (o) => o.optionId === chosenId,
    )?.kind;
    return kind === 'allow_once' || kind === 'allow_always' ? 'allow' : 'reject';
  }

  function describe(step: RequestPermissionStep, response: RequestPermissionResponse): string {
    if (response.outcome.outcome === 'cancelled') return 'cancelled';
    const chosenId = response.outcome.optionId;
    const option = step.options.find((o) => o.optionId === chosenId);
    return option ? `selected ${chosenId} (${option.kind})` : `selected unknown option ${chosenId}`;
  }

  async function requestPermission(
    step: RequestPermissionStep,
    client: AgentContext,
    session: SessionState,
    run: PromptRun,
  ): Promise<void> {
    const toolCall = step.fillRawInput ? filled(step.toolCall, step.fillRawInput) : step.toolCall;
    const id = toolCall.toolCallId;
    const announce = step.announce ?? true;
    if (announce) {
      await update(client, session.id, {
        sessionUpdate: 'tool_call',
        toolCallId: id,
        title: toolCall.title ?? id,
        kind: toolCall.kind ?? 'other',
        status: 'pending',
        content: toolCall.content ?? [],
        locations: toolCall.locations ?? [],
        rawInput: toolCall.rawInput,
      });
    }
    let branch: Branch;
    const approvedKinds = autoApprove[session.modeId];
    const kind = toolCall.kind ?? 'other';
    if (approvedKinds === 'all' || approvedKinds?.includes(kind)) {
      branch = 'allow';
      await say(client, session.id, `permission ${id}: auto-approved by mode ${session.modeId}`);
    } else {
      const pending = client.request(methods.client.session.requestPermission, {
        sessionId: session.id,
        toolCall,
        options: step.options,
      });
      if (step.wait === false) {
        pending.catch(() => undefined);
        return;
      }
      try {
        const response = await pending;
        branch = branchOf(step, response);
        if (run.cancelled && branch !== 'cancelled') {
          // The client must answer `cancelled` once the turn is cancelled; never act on it.
          await say(
            client,
            session.id,
            `permission ${id}: ignored ${describe(step, response)} after cancel`,
          );
          return;
        }
        await say(client, session.id, `permission ${id}: ${describe(step, response)}`);
      } catch (error) {
        branch = 'reject';
        const message = error instanceof Error ? error.message : String(error);
        await say(client, session.id, `permission ${id}: error ${message}`);
      }
    }
    if (run.cancelled) return;
    const steps =
      branch === 'allow' ? step.onAllow : branch === 'reject' ? step.onReject : step.onCancelled;
    await runSteps(steps ?? [], client, session, run);
    if (announce && !run.cancelled) {
      await update(client, session.id, {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: branch === 'allow' ? 'completed' : 'failed',
      });
    }
  }

  async function writeFile(
    step: { path: string; content: string; via?: 'auto' | 'client' | 'fs' },
    client: AgentContext,
    session: SessionState,
  ): Promise<void> {
    const path = isAbsolute(step.path) ? step.path : resolve(session.cwd, step.path);
    const via = step.via ?? 'auto';
    const throughClient =
      via === 'client' || (via === 'auto' && clientCapabilities.fs?.writeTextFile === true);
    try {
      if (throughClient) {
        await client.request(methods.client.fs.writeTextFile, {
          sessionId: session.id,
          path,
          content: step.content,
        });
      } else {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, step.content);
      }
      await say(client, session.id, `wrote ${path} via ${throughClient ? 'client' : 'fs'}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await say(client, session.id, `write ${path} failed: ${message}`);
    }
  }

  async function runSteps(
    steps: ScriptStep[],
    client: AgentContext,
    session: SessionState,
    run: PromptRun,
  ): Promise<void> {
    for (const step of steps) {
      if (run.cancelled || run.stopReason) return;
      switch (step.type) {
        case 'text':
          await say(client, session.id, step.text);
          break;
        case 'toolCall': {
          const { type: _type, ...toolCall } = step;
          await update(client, session.id, { sessionUpdate: 'tool_call', ...toolCall });
          break;
        }
        case 'toolCallUpdate':
          await update(client, session.id, { sessionUpdate: 'tool_call_update', ...step.update });
          break;
        case 'requestPermission':
          await requestPermission(step, client, session, run);
          break;
        case 'writeFile':
          await writeFile(step, client, session);
          break;
        case 'readFile': {
          const path = isAbsolute(step.path) ? step.path : resolve(session.cwd, step.path);
          try {
            const { content } = await client.request(methods.client.fs.readTextFile, {
              sessionId: session.id,
              path,
              ...(step.line !== undefined ? { line: step.line } : {}),
              ...(step.limit !== undefined ? { limit: step.limit } : {}),
            });
            await say(client, session.id, `read ${path}: ${content}`);
          } catch (error) {
            const code = error instanceof RequestError ? error.code : 'none';
            const message = error instanceof Error ? error.message : String(error);
            await say(client, session.id, `read ${path} failed: ${code} ${message}`);
          }
          break;
        }
        case 'concurrent':
          await Promise.all(step.branches.map((branch) => runSteps(branch, client, session, run)));
          break;
        case 'malformedRequest': {
          const params: { [key: string]: JsonValue } = { ...step.params };
          if (step.withSessionId !== false && !('sessionId' in params))
            params['sessionId'] = session.id;
          const method: string = step.method ?? methods.client.session.requestPermission;
          try {
            const answer = await client.request<unknown, { [key: string]: JsonValue }>(
              method,
              params,
            );
            await say(
              client,
              session.id,
              `malformed ${method} accepted: ${JSON.stringify(answer)}`,
            );
          } catch (error) {
            const code = error instanceof RequestError ? error.code : 'none';
            const message = error instanceof Error ? error.message : String(error);
            await say(client, session.id, `malformed ${method} refused: ${code} ${message}`);
          }
          break;
        }
        case 'direct': {
          const target =
            step.action === 'connect'
              ? `${step.host}:${step.port}`
              : resolve(session.cwd, step.path);
          try {
            if (step.action === 'connect') {
              const { host, port } = step;
              await new Promise<void>((done, fail) => {
                const socket = connect({ host, port }, () => {
                  socket.destroy();
                  done();
                });
                socket.once('error', fail);
              });
            } else if (step.action === 'write') writeFileSync(target, 'written directly\n');
            else readFileSync(target);
            await say(client, session.id, `direct ${step.action} ${target}: ok`);
          } catch (error) {
            const { code, message } = error as NodeJS.ErrnoException;
            process.stderr.write(`Error: ${message}\n`);
            await say(
              client,
              session.id,
              `direct ${step.action} ${target} failed: ${code ?? 'none'}`,
            );
          }
          break;
        }
        case 'shell': {
          const { code, stdout, stderr } = await new Promise<{
            code: number;
            stdout: string;
            stderr: string;
          }>((done) => {
            execFile('bash', ['-c', step.command], { cwd: session.cwd }, (error, out, err) =>
              done({
                code: error ? Number(error.code ?? 1) : 0,
                stdout: String(out),
                stderr: String(err),
              }),
            );
          });
          if (step.stderr === 'agent') process.stderr.write(stderr);
          await say(client, session.id, `shell exit ${code}: ${stdout.trim()}`);
          break;
        }
        case 'env': {
          const value = process.env[step.name];
          await say(
            client,
            session.id,
            `env ${step.name}${value === undefined ? ' unset' : `=${value}`}`,
          );
          break;
        }
        case 'raw': {
          const params: { [key: string]: JsonValue } = { ...step.params };
          if (!('sessionId' in params)) params['sessionId'] = session.id;
          const depth = step.nestDepth ?? 0;
          const nested = '['.repeat(depth) + ']'.repeat(depth);
          const text = JSON.stringify(params)
            .replaceAll('"$NESTED"', nested)
            .replaceAll('"$PAD"', JSON.stringify('x'.repeat(step.pad ?? 0)));
          if (step.notification) {
            process.stdout.write(
              `{"jsonrpc":"2.0","method":${JSON.stringify(step.method)},"params":${text}}\n`,
            );
            await say(client, session.id, `raw ${step.method} sent`);
            break;
          }
          const id = `raw-${++rawCount}`;
          const answered = new Promise<{ error?: { code: number; message: string } }>((done) =>
            rawAnswers.set(id, done),
          );
          const before = step.updateBefore
            ? `${JSON.stringify({
                jsonrpc: '2.0',
                method: methods.client.session.update,
                params: { sessionId: session.id, update: step.updateBefore },
              })}\n`
            : '';
          process.stdout.write(
            `${before}{"jsonrpc":"2.0","id":"${id}","method":${JSON.stringify(step.method)},"params":${text}}\n`,
          );
          const answer = await answered;
          await say(
            client,
            session.id,
            answer.error
              ? `raw ${step.method} refused: ${answer.error.code} ${answer.error.message}`
              : `raw ${step.method} accepted`,
          );
          break;
        }
        case 'flood':
          await floodUpdates(step, client, session.id, run);
          break;
        case 'switchMode':
          await switchMode(client, session, step.modeId);
          break;
        case 'sleep':
          await new Promise<void>((done) => {
            const wake = (): void => {
              clearTimeout(timer);
              run.onCancel.delete(wake);
              done();
            };
            const timer = setTimeout(wake, step.ms);
            run.onCancel.add(wake);
          });
          break;
        case 'end':
          run.stopReason = step.stopReason;
          return;
        case 'exit':
          // Let queued messages reach the SDK's writer first.
          await new Promise((done) => setTimeout(done, step.delayMs ?? 20));
          flushAndExit(step.code ?? 0);
          await new Promise(() => undefined);
          return;
        default: {
          const unknownStep: never = step;
          throw new Error(`unknown step ${JSON.stringify(unknownStep)}`);
        }
      }
    }
  }

  /** Each batch is one write, taken by stdout before the next: a flood held back by its reader. */
  async function floodUpdates(
    step: FloodStep,
    client: AgentContext,
    sessionId: string,
    run: PromptRun,
  ): Promise<void> {
    type Answer = { result?: { outcome?: unknown }; error?: { code: number; message: string } };
    const line = (message: object): string => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
    const updateLine = (update: SessionUpdate): string =>
      line({ method: methods.client.session.update, params: { sessionId, update } });
    const text = (t: string): SessionUpdate => ({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: t },
    });
    const write = (batch: string) =>
      new Promise<void>((done, fail) =>
        process.stdout.write(batch, (error) => (error ? fail(error) : done())),
      );
    /** A raw request line and the promise of its answer. */
    const request = (method: string, params: object): [string, Promise<Answer>] => {
      const id = `raw-${++rawCount}`;
      const answered = new Promise<Answer>((done) => rawAnswers.set(id, done as never));
      return [line({ id, method, params }), answered];
    };
    const calls = step.calls;
    const BATCH = 256;
    for (let from = 0; from < step.count && !run.cancelled; from += BATCH) {
      let batch = '';
      for (let i = from; i < Math.min(step.count, from + BATCH); i++) {
        batch += updateLine(
          calls && i % 2 === 1 && i < 2 * calls.count
            ? {
                sessionUpdate: 'tool_call_update',
                toolCallId: calls.toolCallId,
                title: `${calls.title} ${i}`,
              }
            : text(`u${i} `),
        );
      }
      await write(batch);
    }
    const ask = step.ask;
    if (!ask || run.cancelled) return;
    // Answered (as unknown) only once everything written before it was read: the pipe is empty.
    const [sync, synced] = request('_flood/sync', {});
    await write(sync);
    await synced;
    let last = ask.modeId
      ? updateLine({ sessionUpdate: 'current_mode_update', currentModeId: ask.modeId })
      : '';
    for (let j = 0; j < ask.with; j++) {
      last += updateLine(
        ask.ofCall
          ? {
              sessionUpdate: 'tool_call_update',
              toolCallId: ask.toolCallId,
              title: `${calls?.title ?? 'final'} ${step.count + j}`,
            }
          : text(`v${j} `),
      );
    }
    const [asking, answered] = request(methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId: ask.toolCallId },
      options: ask.options,
    });
    await write(last + asking);
    const answer = await answered;
    await say(
      client,
      sessionId,
      `flood ask: ${answer.error ? `error ${answer.error.message}` : JSON.stringify(answer.result?.outcome)}`,
    );
  }

  /** Takes the mode and says so, as an agent does whoever asked for the change. */
  async function switchMode(
    client: AgentContext,
    session: SessionState,
    modeId: string,
  ): Promise<void> {
    session.modeId = modeId;
    await update(client, session.id, {
      sessionUpdate: 'current_mode_update',
      currentModeId: modeId,
    });
    if (script.modeConfigOption) {
      await update(client, session.id, {
        sessionUpdate: 'config_option_update',
        configOptions: modeConfig(modeId),
      });
    }
  }

  /** The mode a client asked for, or the agent's refusal. */
  function requestedMode(sessionId: string, modeId: string): SessionState {
    const session = sessionOf(sessionId);
    if (script.refuseModeChange) {
      throw RequestError.internalError({ modeId }, 'Mode changes are not allowed');
    }
    if (!modes.some((m) => m.id === modeId)) {
      throw RequestError.invalidParams({ modeId }, `Unknown mode ${modeId}`);
    }
    return session;
  }

  function sessionOf(sessionId: string): SessionState {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.invalidParams({ sessionId }, `Unknown session ${sessionId}`);
    return session;
  }

  const app = agent({ name: script.name ?? 'scripted-agent' })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities ?? {};
      if (script.groupFile) {
        let group = 'none';
        try {
          group = readFileSync('/proc/self/autogroup', 'utf8').trim();
        } catch {
          // No autogroups in this kernel.
        }
        writeFileSync(script.groupFile, group);
      }
      return {
        protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
        agentInfo: { name: script.name ?? 'scripted-agent', version: '0.0.0' },
        agentCapabilities: {
          loadSession: kept?.load === true,
          promptCapabilities: { embeddedContext: true },
          sessionCapabilities: {
            ...(kept?.list ? { list: {} } : {}),
            ...(kept?.resume ? { resume: {} } : {}),
            ...(kept?.close ? { close: {} } : {}),
            ...(script.additionalDirectories ? { additionalDirectories: {} } : {}),
          },
        },
        authMethods: script.requireAuth?.methods ?? [],
      } as InitializeResponse;
    })
    .onRequest(methods.agent.authenticate, ({ params }) => {
      const accepted =
        script.requireAuth?.accept ??
        (script.requireAuth?.methods ?? []).map((m) => (m as { id?: string }).id);
      if (!accepted.includes(params.methodId)) {
        throw RequestError.internalError({ methodId: params.methodId }, 'Sign-in refused');
      }
      signedIn = true;
      return {};
    })
    .onRequest(methods.agent.session.new, ({ params }) => {
      const keyed = script.requireAuth?.unlessEnv && process.env[script.requireAuth.unlessEnv];
      if (script.requireAuth && !signedIn && !keyed) throw RequestError.authRequired();
      const id = randomUUID();
      const modeId = script.initialModeId ?? modes[0]?.id ?? 'default';
      sessions.set(id, { id, cwd: params.cwd, modeId, prompts: 0 });
      keep(sessions.get(id)!);
      return {
        sessionId: id,
        modes: { currentModeId: modeId, availableModes: modes },
        ...(script.modeConfigOption || extraOptions.length > 0
          ? { configOptions: modeConfig(modeId) }
          : {}),
      };
    })
    .onRequest(methods.agent.session.resume, ({ params }) => {
      if (!kept?.resume) throw RequestError.methodNotFound(methods.agent.session.resume);
      const session = keptSession(params.sessionId, params.cwd);
      session.modeId = kept.resumeModeId ?? session.modeId;
      return { modes: { currentModeId: session.modeId, availableModes: modes } };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      if (!kept?.load) throw RequestError.methodNotFound(methods.agent.session.load);
      const session = keptSession(params.sessionId, params.cwd);
      for (const u of session.history ?? [])
        await client.notify(methods.client.session.update, { sessionId: session.id, update: u });
      if (kept.replayRequest) {
        const answer = await client
          .request(methods.client.session.requestPermission, {
            sessionId: session.id,
            toolCall: { toolCallId: 'replayed', title: 'replayed request', kind: 'execute' },
            options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
          })
          .then(
            (r) => r.outcome.outcome,
            (e: { code?: number }) => `refused ${String(e.code)}`,
          );
        await say(client, session.id, `replay request: ${answer}`);
        // Said during the load: kept as it was, so a later load does not replay it.
        session.history?.pop();
        keep(session);
      }
      return { modes: { currentModeId: session.modeId, availableModes: modes } };
    })
    .onRequest(methods.agent.session.list, ({ params }) => {
      if (!kept?.list) throw RequestError.methodNotFound(methods.agent.session.list);
      const all = readdirSync(kept.dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(readFileSync(resolve(kept.dir, f), 'utf8')) as SessionState)
        .filter((state) => !params.cwd || state.cwd === params.cwd)
        .sort((a, b) => a.id.localeCompare(b.id));
      const size = kept.pageSize ?? 50;
      const start = params.cursor ? Number(params.cursor) : 0;
      const page = all.slice(start, start + size);
      return {
        sessions: page.map((state) => ({
          sessionId: state.id,
          cwd: state.cwd,
          title: `session ${state.id}`,
        })),
        ...(start + size < all.length ? { nextCursor: String(start + size) } : {}),
      };
    })
    .onRequest(methods.agent.session.close, ({ params }) => {
      if (!kept?.close) throw RequestError.methodNotFound(methods.agent.session.close);
      const session = sessionOf(params.sessionId);
      if (session.run) {
        session.run.cancelled = true;
        for (const wake of [...session.run.onCancel]) wake();
      }
      sessions.delete(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.setMode, async ({ params, client }) => {
      await switchMode(client, requestedMode(params.sessionId, params.modeId), params.modeId);
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params, client }) => {
      const value = String(params.value);
      const extra = extraOptions.findIndex((o) => o.id === params.configId);
      if (extra >= 0 && !script.refuseModeChange) {
        extraOptions[extra] = {
          ...extraOptions[extra],
          currentValue: params.value,
        } as SessionConfigOption;
        return { configOptions: modeConfig(sessionOf(params.sessionId).modeId) };
      }
      if (params.configId !== 'mode' || !script.modeConfigOption) {
        throw RequestError.invalidParams({ configId: params.configId }, 'Unknown option');
      }
      await switchMode(client, requestedMode(params.sessionId, value), value);
      return { configOptions: modeConfig(value) };
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      const session = sessionOf(params.sessionId);
      if (session.run)
        throw RequestError.invalidRequest({ sessionId: session.id }, 'A prompt is already running');
      const text = params.prompt
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('')
        .trim();
      const index = session.prompts;
      session.prompts += 1;
      if (kept) {
        (session.history ??= []).push({
          sessionUpdate: 'user_message_chunk',
          content: { type: 'text', text },
        });
        keep(session);
      }
      const steps = script.onPrompt?.[text] ?? script.prompts?.[index];
      const run: PromptRun = { sessionId: session.id, cancelled: false, onCancel: new Set() };
      session.run = run;
      try {
        if (steps) await runSteps(steps, client, session, run);
        else await say(client, session.id, `no script for prompt ${index + 1}`);
      } finally {
        session.run = undefined;
      }
      return { stopReason: run.cancelled ? 'cancelled' : (run.stopReason ?? 'end_turn') };
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      if (script.ignoreCancel) return;
      const run = sessions.get(params.sessionId)?.run;
      if (!run) return;
      run.cancelled = true;
      for (const wake of [...run.onCancel]) wake();
    });

  const connection = app.connect(ndJsonStream(output, input));
  void connection.closed.finally(() => flushAndExit(0));
}

const invokedDirectly =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) main();
