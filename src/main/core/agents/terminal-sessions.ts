// Sessions of terminal CLIs (Claude Code, Gemini CLI) whose hook asks Gatehouse before each tool
// call (`gatehouse hook`). A hook is one short process per tool call, so the session is kept per
// (agent, the CLI's session id) beyond any connection, and ends after a quiet spell. Each call is a
// permission request judged by the same pipeline as any agent's: rules, grants, modes, a person.
import { isAbsolute, resolve } from 'node:path';
import { newId } from '../ids';
import type { GatehouseEvent } from '../../../shared/contract';
import type { HookAgent, HookRequestParams, HookRequestResult } from '../../../shared/control-hook';
import type { Decider, PermissionPolicy } from '../../../shared/domain';
import type { AgentConfig } from '../../../shared/settings';
import type { ApprovalPipeline } from '../approvals/pipeline';
import { BadRequestError, ForbiddenError } from '../errors';
import type { EventBus } from '../events/bus';
import { standingName } from '../rules';
import type { Store } from '../store';
import { Session } from './session';
import type { SessionManager } from './sessions';
import { terminalToolCall } from './terminal-tools';
import { rejectedSaying, wordsOf } from './reject-words';

export interface TerminalSessionOptions {
  sessions: Pick<SessionManager, 'attach' | 'detach'>;
  agents: () => Record<string, AgentConfig>;
  defaultPolicy: () => PermissionPolicy;
  pipeline: Pick<ApprovalPipeline, 'handle' | 'cancelTurn'>;
  store: Pick<Store, 'recordEvent'>;
  bus: EventBus;
  now: () => number;
  /** A session with no tool call for this long ends. */
  idleMs?: number;
}

const NAMES: Record<HookAgent, string> = {
  'claude-code': 'Claude Code',
  'gemini-cli': 'Gemini CLI',
};
const DEFAULT_IDLE_MS = 30 * 60_000;
/** Terminal sessions kept at once; past it the one quiet longest ends (a busy one never does). */
const MAX_TERMINAL_SESSIONS = 128;
/** What a terminal CLI may answer: a person's "always" becomes a Gatehouse grant, the CLI hears allow. */
const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
] as const;
const SANDBOX = {
  profile: 'off',
  writable: [],
  network: 'all',
  reason: 'runs in a terminal, outside Gatehouse: only its tool calls are asked',
} as const;

type Resolved = Extract<GatehouseEvent, { type: 'permission_resolved' }>;

interface Terminal {
  key: string;
  session: Session;
  idle: NodeJS.Timeout | null;
  lastUsed: number;
  inFlight: number;
  /** Requests of this session waiting for a person, by Gatehouse request id. */
  asking: Set<string>;
  /** Settles when the call before has been decided or is waiting for a person. */
  turn: Promise<void>;
}

export class TerminalSessions {
  private readonly byKey = new Map<string, Terminal>();
  /** Calls in flight by call id: what a hook that goes away leaves to cancel. */
  private readonly calls = new Map<string, string>();

  constructor(private readonly options: TerminalSessionOptions) {}

  /** Judges one tool call; resolves once it is decided and audited. */
  async request(params: HookRequestParams, callId: string): Promise<HookRequestResult> {
    if (!isAbsolute(params.cwd))
      throw new BadRequestError(`cwd must be an absolute path: ${params.cwd}`);
    const terminal = this.terminal(params);
    terminal.inFlight += 1;
    this.calls.set(callId, terminal.session.sessionId);
    try {
      const toolCall = await terminalToolCall(
        params.agent,
        params.toolName,
        params.toolInput,
        resolve(params.cwd),
      );
      const raw = {
        sessionId: terminal.session.acpSessionId,
        toolCall: { toolCallId: callId, ...toolCall },
        options: OPTIONS,
      };
      return await this.judge(terminal, raw, callId);
    } finally {
      this.calls.delete(callId);
      terminal.inFlight -= 1;
      this.touch(terminal);
    }
  }

  /** The hook went away (killed by its CLI's timeout, or the CLI itself ended): its call ends. */
  abandon(callId: string): void {
    const sessionId = this.calls.get(callId);
    if (sessionId) this.options.pipeline.cancelTurn(sessionId, callId);
  }

  private terminal(params: HookRequestParams): Terminal {
    const key = JSON.stringify([params.agent, params.cliSessionId]);
    const known = this.byKey.get(key);
    if (known && known.session.state !== 'closed') return known;
    if (this.byKey.size >= MAX_TERMINAL_SESSIONS) this.evict();
    const terminal: Terminal = {
      key,
      session: this.open(params),
      idle: null,
      lastUsed: this.options.now(),
      inFlight: 0,
      asking: new Set(),
      turn: Promise.resolve(),
    };
    this.byKey.set(key, terminal);
    return terminal;
  }

  /** Its folder is where the CLI started: a later `cd` does not widen what acceptEdits allows. */
  private open(params: HookRequestParams): Session {
    const { agents, defaultPolicy, now, store } = this.options;
    const agentId = params.agent;
    const session = new Session(
      newId(),
      agentId,
      agents()[agentId]?.name ?? NAMES[agentId],
      resolve(params.cwd),
      agents()[agentId]?.policy ?? defaultPolicy(),
      () => agents()[agentId],
      now(),
    );
    session.acpSessionId = params.cliSessionId;
    session.via = { kind: 'terminal', name: NAMES[agentId] };
    session.sandbox = { ...SANDBOX, writable: [] };
    session.state = 'idle';
    store.recordEvent({
      type: 'session_opened',
      sessionId: session.sessionId,
      agentId,
      at: session.createdAt,
      payload: { cwd: session.cwd, via: session.via, cliSessionId: params.cliSessionId },
    });
    this.options.sessions.attach(session);
    return session;
  }

  private evict(): void {
    let oldest: Terminal | null = null;
    for (const terminal of this.byKey.values()) {
      if (terminal.inFlight > 0) continue;
      if (!oldest || terminal.lastUsed < oldest.lastUsed) oldest = terminal;
    }
    if (!oldest) throw new ForbiddenError(`${MAX_TERMINAL_SESSIONS} terminal sessions are busy`);
    this.end(oldest);
  }

  private touch(terminal: Terminal): void {
    terminal.lastUsed = this.options.now();
    if (terminal.idle) clearTimeout(terminal.idle);
    terminal.idle = setTimeout(() => {
      if (this.byKey.get(terminal.key) !== terminal) return;
      if (terminal.inFlight === 0) this.end(terminal);
      else this.touch(terminal);
    }, this.options.idleMs ?? DEFAULT_IDLE_MS);
    terminal.idle.unref();
  }

  private end(terminal: Terminal): void {
    if (terminal.idle) clearTimeout(terminal.idle);
    this.byKey.delete(terminal.key);
    this.options.sessions.detach(terminal.session.sessionId, 'session_closed');
  }

  /**
   * Runs the request through the pipeline and reads the decision's reason from its announcement.
   * A session's calls enter one at a time until each is decided or waiting for a person, so the
   * one decision of this session announced meanwhile that is not a waiting request's is this one.
   */
  private async judge(
    terminal: Terminal,
    raw: unknown,
    callId: string,
  ): Promise<HookRequestResult> {
    const { session } = terminal;
    const previous = terminal.turn;
    let release!: () => void;
    terminal.turn = new Promise((done) => (release = done));
    let requestId: string | null = null;
    let resolved: Resolved | null = null;
    const unsubscribe = this.options.bus.subscribe((event) => {
      if (event.type !== 'permission_resolved' || event.sessionId !== session.sessionId) return;
      const mine =
        requestId === null ? !terminal.asking.has(event.requestId) : event.requestId === requestId;
      if (mine) resolved = event;
    });
    try {
      await previous;
      // The call is its own "prompt": a hook that goes away cancels exactly its request.
      session.promptId = callId;
      const response = await this.options.pipeline.handle(session, raw, {
        asking: (approval) => {
          requestId = approval.requestId;
          terminal.asking.add(approval.requestId);
          release();
        },
      });
      const chosen = response.outcome.outcome === 'selected' ? response.outcome.optionId : null;
      const allowed = chosen === 'allow' || chosen === 'allow-always';
      const said = resolved as Resolved | null;
      // The person's own words are the reason the CLI gives its model, in place of Gatehouse's.
      const words = allowed ? null : wordsOf(response);
      return {
        decision: allowed ? 'allow' : 'deny',
        reason:
          words !== null
            ? rejectedSaying(words)
            : explain(allowed, said?.decider, said?.reason).slice(0, 2000),
      };
    } finally {
      release();
      unsubscribe();
      if (requestId) terminal.asking.delete(requestId);
    }
  }
}

function who(decider: Decider | undefined): string {
  if (!decider) return 'Gatehouse';
  switch (decider.type) {
    case 'person':
    case 'consensus':
      return 'a person';
    case 'rule':
    case 'grant':
    case 'mode':
      return standingName(decider);
    case 'timeout':
      return 'nobody in time';
    default:
      return decider.type.replaceAll('_', ' ');
  }
}

function explain(
  allowed: boolean,
  decider: Decider | undefined,
  reason: string | undefined,
): string {
  const verdict = allowed ? 'allowed' : 'denied';
  return `Gatehouse ${verdict} this (${who(decider)})${reason ? `: ${reason}` : ''}`;
}
