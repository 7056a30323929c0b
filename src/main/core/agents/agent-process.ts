import { Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import type { AgentLaunch } from '../sandbox/launch';
import { GATEHOUSE_VERSION } from '../../../shared/control-protocol';
import { AgentGoneError } from '../errors';
import { checkJsonShape, describeJsonProblem } from '../safety/json-guard';
import { recordAgent } from './leftover-agents';
import {
  spawnInProcess,
  type ExitInfo,
  type LaunchSpec,
  type LaunchedAgent,
} from './launched-agent';
import { outputOf } from './agent-output';
import { launchAgent } from './launcher';
import { behindLifeline } from './lifeline';
import { signalGroup, stopGroup } from './process-group';

/** What Gatehouse does for the agent when the agent calls its client. */
export interface ClientHandlers {
  requestPermission(params: unknown, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** An agent's question (`elicitation/create`): raw params, checked and audited by the pipeline. */
  elicit(params: unknown): Promise<acp.CreateElicitationResponse>;
  /** The agent's word that a URL question finished (`elicitation/complete`): audited, nothing more. */
  elicitationComplete(params: unknown): void;
  writeTextFile(params: acp.WriteTextFileRequest): Promise<void>;
  readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  sessionUpdate(params: acp.SessionNotification): void;
  /** A request refused before it reached its handler (its shape or its params); audited. */
  malformed(method: string, problems: string[]): void;
}

/** The file system params Gatehouse acts on (ACP's own schemas are not exported by the SDK). */
const WriteTextFileParams = z.object({
  sessionId: z.string(),
  path: z.string(),
  content: z.string(),
});
const ReadTextFileParams = z.object({
  sessionId: z.string(),
  path: z.string(),
  line: z.number().int().min(0).nullish(),
  limit: z.number().int().min(0).nullish(),
});

/**
 * A params parser that checks the message's shape before anything recursive runs, then its
 * fields; what it refuses is reported to `malformed` and answered "invalid params".
 */
function guarded<T>(method: string, schema: z.ZodType<T>, malformed: ClientHandlers['malformed']) {
  return (params: unknown): T => {
    const shape = checkJsonShape(params);
    if (shape) {
      const problem = describeJsonProblem(shape);
      malformed(method, [problem]);
      throw RequestError.invalidParams({ problem }, `${method} refused: ${problem}`);
    }
    const parsed = schema.safeParse(params);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      malformed(method, problems);
      throw RequestError.invalidParams({ problems }, `malformed ${method}`);
    }
    return parsed.data;
  };
}

const STDERR_TAIL_BYTES = 16 * 1024;

/**
 * One agent subprocess speaking ACP over stdio, with Gatehouse as its client.
 * Reads are not advertised unless the agent's settings enable them: Gatehouse has no unsaved
 * buffers to serve, and Gemini CLI cannot create new files when reads are advertised
 * (docs/real-agents.md). Writes are, so every write passes through Gatehouse and is audited.
 */
export class AgentProcess {
  readonly exited: Promise<ExitInfo>;
  private stderr = '';
  private exitInfo: ExitInfo | null = null;

  private constructor(
    private readonly child: LaunchedAgent,
    private readonly connection: acp.ClientConnection,
  ) {
    this.exited = child.exited.then(({ code, signal, reason }) => {
      // What the agent could not say itself (its command missing, its launcher lost) is read where
      // its own errors would be.
      if (reason) this.stderr += `${reason}\n`;
      this.exitInfo = { code, signal };
      connection.close(new Error('agent process exited'));
      this.signal('SIGKILL');
      return this.exitInfo;
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_BYTES);
    });
  }

  /**
   * Starts a prepared launch (prepareAgentLaunch: allow-listed environment, sandbox). `onStderr`
   * sees every piece of the agent's stderr (the sandbox's refusals are read there). Never rejects:
   * an agent that could not start is one that has exited, with the reason in its stderr.
   */
  static async spawn(
    launch: AgentLaunch,
    handlers: ClientHandlers,
    options: { onStderr?: (chunk: string) => void } = {},
  ): Promise<AgentProcess> {
    const lifeline = launch.lifeline ? behindLifeline(launch.command, launch.args) : null;
    const spec: LaunchSpec = {
      command: lifeline?.command ?? launch.command,
      args: lifeline?.args ?? launch.args,
      cwd: launch.cwd,
      env: launch.env,
      // The lifeline's core end is held, never written, until this process dies.
      lifeline: lifeline !== null,
    };
    // Off the core's thread where agents have process groups: the launcher waits for the exec.
    const child = process.platform === 'win32' ? spawnInProcess(spec) : await launchAgent(spec);
    // Recorded while it runs, so a core that died without ending it has a successor that does.
    const record =
      child.pid === undefined ? null : recordAgent(launch.gatehouseHome, launch.agentId, child.pid);
    void child.exited.then(() => {
      record?.remove();
      void launch.cleanup();
    });
    if (options.onStderr) child.stderr.on('data', (chunk: string) => options.onStderr?.(chunk));
    const app = acp
      .client({ name: 'gatehouse' })
      // First: the SDK tries handlers in order, one await each, without waiting for the previous
      // message, so a handler further down runs later. A permission request right behind the
      // tool_call update that declares it must find that update already applied.
      .onNotification(acp.methods.client.session.update, ({ params }) =>
        handlers.sessionUpdate(params),
      )
      // Own parser: the pipeline validates and audits malformed requests itself.
      .onRequest(
        methods.requestPermission,
        (p: unknown) => p,
        ({ params, signal }) => handlers.requestPermission(params, signal),
      )
      // Own parser too: a question outside the supported subset is refused and audited there.
      .onRequest(
        acp.methods.client.elicitation.create,
        (p: unknown) => p,
        ({ params }) => handlers.elicit(params),
      )
      .onNotification(
        acp.methods.client.elicitation.complete,
        (p: unknown) => p,
        ({ params }) => handlers.elicitationComplete(params),
      )
      .onRequest(
        acp.methods.client.fs.writeTextFile,
        guarded(acp.methods.client.fs.writeTextFile, WriteTextFileParams, handlers.malformed),
        async ({ params }) => {
          await handlers.writeTextFile(params);
          return {};
        },
      )
      .onRequest(
        acp.methods.client.fs.readTextFile,
        guarded(acp.methods.client.fs.readTextFile, ReadTextFileParams, handlers.malformed),
        ({ params }) => handlers.readTextFile(params),
      );
    const stream = acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      outputOf(child.stdout),
    );
    return new AgentProcess(child, app.connect(stream));
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exit(): ExitInfo | null {
    return this.exitInfo;
  }

  /** Stops (true) or resumes (false) reading what the agent writes: it waits in its write meanwhile. */
  holdOutput(hold: boolean): void {
    if (hold) this.child.stdout.pause();
    else this.child.stdout.resume();
  }

  stderrTail(): string {
    return this.stderr;
  }

  /** `reads`: whether fs/read_text_file is advertised (the agent setting `fs.read`). */
  initialize(reads: boolean): Promise<acp.InitializeResponse> {
    return this.raceExit(
      this.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {
          fs: { readTextFile: reads, writeTextFile: true },
          terminal: false,
          // Questions are shown to a person as a form or as a link they open themselves.
          elicitation: { form: {}, url: {} },
        },
        clientInfo: { name: 'gatehouse', version: GATEHOUSE_VERSION },
      }),
    );
  }

  /** ACP `authenticate` with a method the agent offered; some open a browser and wait for a person. */
  async authenticate(methodId: string): Promise<void> {
    await this.raceExit(this.agent.request(acp.methods.agent.authenticate, { methodId }));
  }

  /** "exited (code 3): <the end of its stderr>" once it has exited, waiting up to `waitMs`; else null. */
  async exitWords(waitMs = 1000): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      this.exited,
      new Promise<null>((r) => (timer = setTimeout(() => r(null), waitMs))),
    ]);
    clearTimeout(timer);
    if (!exit) return null;
    const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
    const tail = this.stderr.trim().split('\n').slice(-3).join(' | ');
    return `exited (${how})${tail ? `: ${tail}` : ''}`;
  }

  /** A dying agent closes the connection before its exit is seen: the error names the real cause. */
  async explain(agentId: string, error: unknown): Promise<unknown> {
    const exit = await this.exitWords();
    return exit ? new AgentGoneError(`agent "${agentId}" ${exit}`) : error;
  }

  /** Rejects as soon as the process dies, so no caller waits on a dead agent. */
  raceExit<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([
      promise,
      this.exited.then((info) => {
        const tail = this.stderr.trim().split('\n').slice(-5).join('\n');
        throw new AgentExitedError(info, tail);
      }),
    ]);
  }

  /** SIGTERM, then SIGKILL if the agent does not leave within the grace period. */
  async kill(graceMs = 2000): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    return stopGroup(this.child, this.exited, graceMs);
  }

  private signal(signal: NodeJS.Signals): void {
    signalGroup(this.child, signal);
  }
}

const methods = { requestPermission: acp.methods.client.session.requestPermission } as const;

export class AgentExitedError extends Error {
  override name = 'AgentExitedError';
  constructor(
    readonly info: ExitInfo,
    stderrTail: string,
  ) {
    super(
      `agent exited (${info.signal ? `signal ${info.signal}` : `code ${info.code}`})` +
        (stderrTail ? `: ${stderrTail}` : ''),
    );
  }
}
