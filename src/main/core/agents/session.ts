import type * as acp from '@agentclientprotocol/sdk';
import type {
  AuthMethod,
  PermissionMode,
  PermissionPolicy,
  SessionInfo,
  SessionSandbox,
} from '../../../shared/domain';
import type { AgentConfig } from '../../../shared/settings';
import type { SandboxProfile } from '../sandbox/profile';
import type { SessionContext } from '../approvals/session-context';
import { resolveMode } from '../rules';
import { mergeToolCallUpdate } from '../safety';
import type { AgentProcess } from './agent-process';
import type { ConfigOption } from '../../../shared/session-config';
import { selectorsOf, withRefusals, type AgentFamily, type ModeSelector } from './agent-modes';
import { readConfigOptions, shownOptions } from './config-options';
import type { UpdateLane } from './update-lane';
import type { SessionAbilities } from '../store';

const MAX_TRACKED_TOOL_CALLS = 256;

/** One agent session: its process, its turn, its mode, what its agent declared about tool calls. */
export class Session implements SessionContext {
  acpSessionId = '';
  state: SessionInfo['state'] = 'starting';
  promptId: string | null = null;
  promptClientId: string | null = null;
  endReason: SessionContext['endReason'] = null;
  /** The agent's mode as it advertised and announced it: its session modes, its mode options. */
  modeSelectors: ModeSelector[] = [];
  /** The agent's session options (a model, a reasoning level, …) as shown; see setConfigOptions. */
  configOptions: ConfigOption[] = [];
  /** Which known agent this is, for its table of modes that approve by themselves. */
  agentFamily: AgentFamily | null = null;
  /**
   * Why Gatehouse does not guard this session: a mode that does not ask and cannot be set back, or
   * a side door of its agent that cannot be closed (openDoor); null while it is guarded.
   */
  unguarded: string | null = null;
  /** A side door of this agent Gatehouse cannot close (side-doors.ts); it keeps the session unguarded. */
  openDoor: string | null = null;
  /** How often the agent was set back to a mode that asks. */
  modeResets = 0;
  /** The mode checks of this session, one after another. */
  modeGuard: Promise<void> = Promise.resolve();
  /** Whether fs/read_text_file was advertised to this session's agent. */
  readsAdvertised = false;
  /** A person's words with rejects, for the next prompt (reject-words.ts). */
  owedWords: string[] = [];
  /** Ends the running turn as cancelled without waiting for the agent (set while a turn runs). */
  abandonTurn: (() => void) | null = null;
  /** Armed by a cancel: the agent's time to end its turn. */
  cancelTimer: NodeJS.Timeout | null = null;
  /** The sandbox the agent runs in; set before the agent starts. */
  sandbox: SessionSandbox = { profile: 'off', writable: [], network: 'all', reason: 'not started' };
  /** That sandbox as bwrap builds it, for a command's preview; null without one. */
  sandboxProfile: SandboxProfile | null = null;
  /** The folders the person gave it besides `cwd` (real paths, checked); set before it starts. */
  additionalDirectories: readonly string[] = [];
  /** Where the session runs when not started here (an editor, through `gatehouse acp`). */
  via: SessionInfo['via'] | null = null;
  /** While the agent waits for a sign-in: the methods it offered (cleared while one is tried). */
  authMethods: AuthMethod[] | null = null;
  /** Where an API key for this agent is kept, while it waits for a sign-in (agent-auth.ts). */
  apiKey: { variable: string | null; set: boolean } | null = null;
  /** Where its updates wait to be shown (client-handlers.ts); closed when the session ends. */
  updates: Pick<UpdateLane, 'beforeRequest' | 'flush' | 'close'> | null = null;
  /** Malformed session/update notifications: audited at most once a minute, with the count. */
  malformedUpdates = { lastAuditAt: -Infinity, dropped: 0 };
  /** What the agent said in initialize it can do with a session (list, resume, load, close). */
  abilities: SessionAbilities = { list: false, resume: false, load: false, close: false };
  /**
   * While session/load replays the conversation: what it replays is counted and dropped (the
   * transcript already holds it, kept by the core), and a permission request is refused.
   */
  replaying: { updates: number; requests: number } | null = null;
  /** Taken up again after a restart: how, when, and what differs from how it ran before. */
  resumed: SessionInfo['resumed'] | null = null;
  /** Latest declared state of recent tool calls, so a permission request can be shown whole. */
  private readonly toolCalls = new Map<string, Record<string, unknown>>();

  constructor(
    readonly sessionId: string,
    readonly agentId: string,
    readonly agentName: string,
    readonly cwd: string,
    readonly policy: PermissionPolicy,
    private readonly agentConfig: () => AgentConfig | undefined,
    readonly createdAt: number,
    public process: AgentProcess | null = null,
  ) {}

  /** Set when a person switches this session's mode; otherwise the agent's settings decide. */
  modeOverride: PermissionMode | null = null;

  get mode(): PermissionMode {
    return resolveMode({ session: this.modeOverride ?? undefined, agent: this.agentConfig() });
  }

  /**
   * What the agent advertised as its options, whole (session/new, an update, an answer): those
   * shown, and the selectors of those that choose how it asks, wherever they stand in its list.
   */
  setConfigOptions(raw: unknown): void {
    const all = readConfigOptions(raw);
    this.configOptions = shownOptions(all);
    this.modeSelectors = [
      ...this.modeSelectors.filter((s) => s.via === 'mode'),
      ...selectorsOf(all),
    ];
  }

  /** The agent took a value and answered without its options: taken at its word for this one. */
  configValueSet(configId: string, value: string | boolean): void {
    this.configOptions = this.configOptions.map((o) =>
      o.id !== configId
        ? o
        : o.type === 'boolean'
          ? { ...o, currentValue: value === true }
          : { ...o, currentValue: String(value) },
    );
    this.modeSelectors = this.modeSelectors.map((s) =>
      s.via === 'config' && s.configId === configId ? { ...s, current: String(value) } : s,
    );
  }

  toolCallState(toolCallId: string): unknown {
    return this.toolCalls.get(toolCallId);
  }

  trackToolCall(update: acp.SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    const { sessionUpdate: _kind, ...call } = update;
    const merged = mergeToolCallUpdate(this.toolCalls.get(call.toolCallId), call);
    this.toolCalls.delete(call.toolCallId);
    this.toolCalls.set(call.toolCallId, merged);
    // Bounded: only recent calls can still be asked about.
    if (this.toolCalls.size > MAX_TRACKED_TOOL_CALLS) {
      this.toolCalls.delete(this.toolCalls.keys().next().value!);
    }
  }

  info(): SessionInfo {
    return {
      sessionId: this.sessionId,
      agentId: this.agentId,
      cwd: this.cwd,
      ...(this.additionalDirectories.length > 0
        ? { additionalDirectories: [...this.additionalDirectories] }
        : {}),
      createdAt: this.createdAt,
      state: this.state,
      mode: this.mode,
      sandbox: this.sandbox,
      ...(this.unguarded ? { unguarded: this.unguarded } : {}),
      ...(this.via ? { via: this.via } : {}),
      ...(this.authMethods ? { authMethods: this.authMethods } : {}),
      ...(this.authMethods && this.apiKey ? { apiKey: this.apiKey } : {}),
      ...(this.resumed ? { resumed: this.resumed } : {}),
      ...(this.configOptions.length > 0
        ? { configOptions: withRefusals(this.configOptions, this.agentFamily) }
        : {}),
    };
  }
}
