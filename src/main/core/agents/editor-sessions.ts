// Sessions that run in an editor, whose agent `gatehouse acp` launched and relays: the editor
// prompts them, Gatehouse judges what their agent asks. Listed, judged and audited like sessions
// started here; the agent's updates, permission requests, and the writes and terminals it asks of the
// editor all come in through the proxy.
import { isAbsolute, resolve } from 'node:path';
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { newId } from '../ids';
import type {
  ActionCheckParams,
  ActionCheckResult,
  DecidedResponse,
  PermissionResponse,
  PermissionSubmitResult,
} from '../../../shared/control-proxy';
import type { PermissionPolicy, SessionInfo, SessionSandbox } from '../../../shared/domain';
import type { AgentConfig } from '../../../shared/settings';
import type { Coverage } from '../approvals/coverage';
import type { ApprovalPipeline } from '../approvals/pipeline';
import { BadRequestError, NotFoundError } from '../errors';
import type { EventBus } from '../events/bus';
import { CANCEL_VOTE_SENTINEL } from '../mediator';
import { scriptOfShellArgv } from '../rules/shell/argv';
import type { Store } from '../store';
import type { ClientHandlers } from './agent-process';
import { agentFamily, configSelectors, modesSelector } from './agent-modes';
import { clientHandlersFor } from './client-handlers';
import { requestedToolCall } from './update-lane';
import { keepAsking, onModeUpdate, type ModeGuardDeps } from './mode-guard';
import { Session } from './session';
import type { SessionManager } from './sessions';
import { allowedBy, auditWrite, refuseWrite } from './write-audit';
import { REJECT_MESSAGE_META_KEY } from '../../../shared/domain';
import { wordsOf } from './reject-words';

export interface EditorSessionOptions {
  sessions: Pick<SessionManager, 'attach' | 'detach' | 'get' | 'transcripts'>;
  agents: () => Record<string, AgentConfig>;
  defaultPolicy: () => PermissionPolicy;
  pipeline: Pick<ApprovalPipeline, 'handle' | 'vote' | 'cancelTurn'>;
  coverage: Pick<Coverage, 'write' | 'writeDigest' | 'command'>;
  store: Pick<Store, 'recordEvent'>;
  bus: EventBus;
  now: () => number;
  /** `proxy.askEditor`: whether a request a person must decide is also shown in the editor. */
  askEditor: () => boolean;
}

export interface OpenEditorSession {
  agent: { id: string; name: string; adHoc: boolean };
  editor: string;
  cwd: string;
  acpSessionId: string;
  sandbox: SessionSandbox;
  unguarded?: string;
  agentInfoName?: string;
  modes?: unknown;
  configOptions?: unknown;
  /** The editor as a mediator client: the originator of every turn, its answers are its votes. */
  editorClientId: string;
}

/** A submitted request: how it stands now, and its decision once audited. */
export interface Submitted {
  now: PermissionSubmitResult;
  decided: Promise<DecidedResponse>;
}

export class EditorSessions {
  private readonly bySession = new WeakMap<Session, ClientHandlers>();

  constructor(private readonly options: EditorSessionOptions) {}

  open(input: OpenEditorSession): SessionInfo {
    const { agents, defaultPolicy, now, store } = this.options;
    const { agent } = input;
    const config = agent.adHoc ? undefined : agents()[agent.id];
    if (!agent.adHoc && !config) throw new NotFoundError(`no agent "${agent.id}" in settings`);
    if (!isAbsolute(input.cwd))
      throw new BadRequestError(`folder must be an absolute path: ${input.cwd}`);
    const session = new Session(
      newId(),
      agent.id,
      config?.name ?? agent.name,
      resolve(input.cwd),
      config?.policy ?? defaultPolicy(),
      () => (agent.adHoc ? undefined : agents()[agent.id]),
      now(),
    );
    session.acpSessionId = input.acpSessionId;
    session.via = { kind: 'editor', name: input.editor };
    session.sandbox = input.sandbox;
    if (input.unguarded) session.openDoor = session.unguarded = input.unguarded;
    // Which modes do not ask is read as for any agent; the editor, not Gatehouse, can leave them.
    session.agentFamily = agentFamily(input.agentInfoName, agent.id);
    const modes = modesSelector(input.modes);
    session.modeSelectors = [...(modes ? [modes] : []), ...configSelectors(input.configOptions)];
    session.promptClientId = input.editorClientId;
    session.state = 'idle';
    store.recordEvent({
      type: 'session_opened',
      sessionId: session.sessionId,
      agentId: agent.id,
      at: session.createdAt,
      payload: {
        cwd: session.cwd,
        via: session.via,
        adHoc: agent.adHoc,
        sandbox: session.sandbox,
        unguarded: session.unguarded,
      },
    });
    const info = this.options.sessions.attach(session);
    void keepAsking(session, this.guardDeps);
    return info;
  }

  private get guardDeps(): ModeGuardDeps {
    const { store, bus, now } = this.options;
    return { store, bus, now };
  }

  private session(sessionId: string): Session {
    const session = this.options.sessions.get(sessionId);
    if (!session.via) throw new NotFoundError(`no editor session ${sessionId}`);
    return session;
  }

  /** What the agent told the editor: tracked (tool calls), published, checked like any update. */
  update(sessionId: string, update: { sessionUpdate: string }): void {
    const session = this.session(sessionId);
    const params = { sessionId: session.acpSessionId, update: update as never };
    this.handlers(session).sessionUpdate(params);
    onModeUpdate(session, params, this.guardDeps);
  }

  turn(sessionId: string, turn: 'started' | 'ended', text?: string): void {
    const session = this.session(sessionId);
    if (turn === 'ended') session.updates?.flush();
    if (turn === 'started' && text) this.options.sessions.transcripts.prompted(sessionId, text);
    session.state = turn === 'started' ? 'prompting' : 'idle';
    session.promptId = turn === 'started' ? newId() : null;
    this.options.bus.publish({ type: 'session_state', session: session.info() });
  }

  /**
   * What the agent sent that the proxy could not pass on (too large for the control socket): a
   * permission request it refused for the agent, or an update missing from the transcript.
   */
  dropped(sessionId: string, what: 'permission_request' | 'update', bytes: number): void {
    const session = this.session(sessionId);
    this.options.store.recordEvent({
      type: 'proxy_dropped_too_large',
      sessionId,
      agentId: session.agentId,
      at: this.options.now(),
      payload: { what, bytes },
    });
    if (what === 'update') this.options.sessions.transcripts.tooLarge(sessionId, bytes);
  }

  /** The editor cancelled the turn: ACP wants every waiting request answered `cancelled`. */
  cancel(sessionId: string): void {
    const session = this.session(sessionId);
    this.options.pipeline.cancelTurn(sessionId, session.promptId ?? undefined);
  }

  close(sessionId: string, reason: 'session_closed' | 'agent_exit' = 'session_closed'): void {
    this.options.sessions.detach(sessionId, reason);
  }

  /**
   * Runs the request through the pipeline. Resolves as soon as it is decided without a person, or
   * as soon as a person is asked (then `decided` settles later).
   */
  async submit(sessionId: string, raw: unknown): Promise<Submitted> {
    const session = this.session(sessionId);
    session.updates?.beforeRequest(requestedToolCall(raw));
    let asked!: (requestId: string) => void;
    const asking = new Promise<string>((resolve) => (asked = resolve));
    const decided = this.options.pipeline
      .handle(session, raw, { asking: (approval) => asked(approval.requestId) })
      .then(toWire);
    const first = await Promise.race([
      decided.then((response) => ({ status: 'decided' as const, response })),
      asking.then((requestId) => ({
        status: 'asking' as const,
        requestId,
        askEditor: this.options.askEditor(),
      })),
    ]);
    return { now: first, decided };
  }

  /** The editor's answer to a request it was shown: its vote, under the session's policy. */
  answer(
    requestId: string,
    response: PermissionResponse,
    editorClientId: string,
  ): { counted: boolean; detail: string } {
    const { outcome } = response;
    const result = this.options.pipeline.vote({
      requestId,
      clientId: editorClientId,
      optionId: outcome.outcome === 'selected' ? outcome.optionId : CANCEL_VOTE_SENTINEL,
      fromLoopback: true,
      identityProven: true,
      receivedAtMs: this.options.now(),
      metadata: { surface: 'editor' },
    });
    const counted =
      result.kind === 'resolved' || result.kind === 'cancelled' || result.kind === 'recorded';
    const detail = result.kind === 'forbidden' ? `not counted: ${result.reason}` : result.kind;
    return { counted, detail };
  }

  /** Whether a write or a terminal the agent asks of the editor is what a decision allowed. */
  check(params: ActionCheckParams): ActionCheckResult {
    const session = this.session(params.sessionId);
    const deps = this.options;
    if (params.kind === 'write') {
      const verdict = deps.coverage.writeDigest(session, params.path, params.sha256);
      if (!verdict.covered)
        return {
          allowed: false,
          message: refuseWrite(session, params.path, verdict, deps).message,
        };
      const written = {
        path: params.path,
        bytes: params.bytes,
        sha256: params.sha256,
        by: 'editor',
      };
      auditWrite(session, 'fs_write', { ...written, allowedBy: allowedBy(verdict) }, verdict, deps);
      return { allowed: true };
    }
    const argv = [params.command, ...params.args];
    const command = scriptOfShellArgv(argv) ?? argv.join(' ');
    const verdict = deps.coverage.command(session, command);
    const payload = { command, cwd: params.cwd, by: 'editor' };
    const event = (type: string, extra: Record<string, unknown>) =>
      deps.store.recordEvent({
        type,
        ...('requestId' in verdict ? { requestId: verdict.requestId } : {}),
        sessionId: session.sessionId,
        agentId: session.agentId,
        at: deps.now(),
        payload: { ...payload, ...extra },
      });
    if (!verdict.covered) {
      const message = `Refused: running ${command}: ${verdict.reason}`;
      event('terminal_refused', { error: message });
      return { allowed: false, message };
    }
    event('terminal_create', { allowedBy: allowedBy(verdict) });
    return { allowed: true };
  }

  /** The handlers Gatehouse's own sessions use; only the update one is called for an editor's. */
  private handlers(session: Session): ClientHandlers {
    let handlers = this.bySession.get(session);
    if (!handlers) {
      handlers = clientHandlersFor(session, {
        ...this.options,
        transcripts: this.options.sessions.transcripts,
      });
      this.bySession.set(session, handlers);
    }
    return handlers;
  }
}

/** The decision as it crosses the socket: the option, and a reject's words, nothing else. */
function toWire(response: RequestPermissionResponse): DecidedResponse {
  const { outcome } = response;
  if (outcome.outcome !== 'selected') return { outcome: { outcome: 'cancelled' } };
  const words = wordsOf(response);
  const meta = words === null ? {} : { _meta: { [REJECT_MESSAGE_META_KEY]: words } };
  return { outcome: { outcome: 'selected', optionId: outcome.optionId, ...meta } };
}
