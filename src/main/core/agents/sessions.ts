import { availableParallelism } from 'node:os';
import { newId } from '../ids';
import type { PermissionMode, SessionInfo, StopReason } from '../../../shared/domain';
import type { LaunchableAgent } from '../../../shared/settings';
import { ConflictError, NotFoundError } from '../errors';
import type { AgentProcess } from './agent-process';
import { prepareAgentLauncher } from './launcher';
import { SignIns } from './agent-auth';
import type { Session } from './session';
import { askingChoice } from './agent-modes';
import { keepAsking, primarySelector, selectMode, type ModeGuardDeps } from './mode-guard';
import { launchFamily, unguardedByDoor } from './side-doors';
import { Transcripts } from '../transcripts/transcripts';
import { RecentFolders } from './recent-folders';
import { registryLaunch } from './registry-launch';
import { checkFolder, sessionFolder, type FolderCheck } from './session-folder';
import { extraFolders } from './extra-folders';
import type { SessionManagerOptions } from './session-manager-options';
import { armCancelGrace, closeAcpSession, disarmCancel } from './session-close';
import { resumeInto } from './session-resume';
import {
  newAcpSession,
  sessionFor,
  startAgent,
  STOPPING,
  type AgentStartDeps,
} from './session-start';
import { RememberedSessions } from './remembered-sessions';
import { watchBuildScripts } from './turn-build-scripts';
import { setSessionOption } from './session-options';
import { StartGate } from './start-gate';
import { withOwedWords } from './reject-words';

export type { SessionManagerOptions } from './session-manager-options';

/** The longest one agent's boot keeps the next start waiting (two boots per CPU at once). */
const START_HOLD_MS = 3000;

/**
 * Sessions, one agent process each: a crash or a kill takes down one session, and the agent's
 * working directory is the session folder, as a terminal user would have it.
 */
export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  /** When each ended session ended: it stays listed for the rest of that day. */
  private readonly endedAt = new Map<string, number>();
  private readonly now: () => number;
  private readonly signIns: SignIns;
  /** Agents booting (launch prepared, spawned, not yet past ACP initialize). */
  private readonly starts = new StartGate(2 * availableParallelism(), START_HOLD_MS);
  /** Gatehouse is stopping: no session starts, and one on its way is ended with its agent. */
  private stopping = false;
  /** Every session's transcript; whatever carries a session's updates records them here. */
  readonly transcripts: Transcripts;
  /** The folders sessions started here last opened in. */
  readonly recentFolders: RecentFolders;
  /** What is remembered of sessions across restarts, and those that can be taken up again. */
  readonly remembered: RememberedSessions;

  constructor(private readonly options: SessionManagerOptions) {
    this.now = options.now ?? Date.now;
    prepareAgentLauncher();
    this.transcripts = new Transcripts(options.bus, this.now);
    this.recentFolders = new RecentFolders(options.home);
    this.signIns = new SignIns((session) =>
      options.bus.publish({ type: 'session_state', session: session.info() }),
    );
    this.remembered = new RememberedSessions(
      options.store,
      this.transcripts,
      options.bus,
      this.now,
      (id) => this.sessions.has(id),
    );
  }

  private get guardDeps(): ModeGuardDeps {
    return { store: this.options.store, bus: this.options.bus, now: this.now };
  }

  /** Open sessions, and those that ended today; older ended ones are forgotten here. */
  list(): SessionInfo[] {
    const today = new Date(this.now()).setHours(0, 0, 0, 0);
    for (const [sessionId, at] of this.endedAt) {
      if (at >= today) continue;
      this.endedAt.delete(sessionId);
      this.sessions.delete(sessionId);
      this.transcripts.forget(sessionId);
    }
    return [
      ...[...this.sessions.values()].map((s) => this.info(s)),
      ...this.remembered.listed((id) => this.sessions.has(id)),
    ];
  }

  private info(session: Session): SessionInfo {
    const endedAt = this.endedAt.get(session.sessionId);
    return {
      ...session.info(),
      ...(session.endReason && session.state === 'closed' ? { endReason: session.endReason } : {}),
      ...(endedAt === undefined ? {} : { endedAt }),
    };
  }

  /** Whether a session could start in `path`: the check create() makes before it spawns. */
  checkFolder(path: string): Promise<FolderCheck> {
    return checkFolder(path, this.options.home);
  }

  /** The open session with this id, or undefined. */
  find(sessionId: string): Session | undefined {
    const session = this.sessions.get(sessionId);
    return session && session.state !== 'closed' ? session : undefined;
  }

  get(sessionId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session || session.state === 'closed')
      throw new NotFoundError(`no open session ${sessionId}`);
    return session;
  }

  /** A session Gatehouse did not start here (an editor's, through `gatehouse acp`); it runs there. */
  attach(session: Session): SessionInfo {
    this.sessions.set(session.sessionId, session);
    this.transcripts.open(session.sessionId);
    this.options.bus.publish({ type: 'session_state', session: session.info() });
    return session.info();
  }

  /** Ends an attached session: its waiting requests are answered and audited, its grants end. */
  detach(sessionId: string, reason: 'session_closed' | 'agent_exit' | 'shutdown'): void {
    const session = this.sessions.get(sessionId);
    if (!session || session.state === 'closed') return;
    session.endReason = reason;
    this.options.pipeline.endSession(sessionId);
    this.end(session);
  }

  /** An editor's session is prompted, cancelled and closed in the editor. */
  private local(sessionId: string): Session {
    const session = this.get(sessionId);
    if (session.via)
      throw new ConflictError(`this session runs in ${session.via.name}: use it there`);
    return session;
  }

  async create(
    agentId: string,
    cwdInput: string,
    extra: readonly string[] = [],
  ): Promise<SessionInfo> {
    this.refuseWhileStopping();
    const { config, cwd, launched, additional } = await this.prepare(agentId, cwdInput, extra);
    const session = sessionFor(this.options, newId(), agentId, config, cwd, this.now());
    session.additionalDirectories = additional;
    const open = (agent: AgentProcess) => newAcpSession(session, agent);
    await startAgent(session, { config, launched, signIn: true, open }, this.startDeps);
    if (!session.authMethods) return this.opened(session, config);
    this.signIns.wait(session, config);
    return session.info();
  }

  /** The agent as settings declare it today, and the folder checked, before anything starts. */
  private async prepare(agentId: string, cwdInput: string, extra: readonly string[]) {
    const declared = this.options.agents()[agentId];
    if (!declared) throw new NotFoundError(`no agent "${agentId}" in settings`);
    const cwd = await sessionFolder(cwdInput, this.options.home);
    const deps = { ...this.options, now: this.now };
    const additional = await extraFolders(extra, { agentId, cwd }, deps);
    const config = registryLaunch(agentId, declared, this.options.home);
    // An agent whose side door cannot be closed starts only if the person opted in.
    const launched = launchFamily(agentId, config);
    unguardedByDoor(agentId, config, launched);
    return { config, cwd, launched, additional };
  }

  /**
   * Takes up a session that ended with Gatehouse: its agent started as a new session's is (today's
   * settings, folder check, sandbox, start gate, mode guard), then session/resume or session/load.
   */
  async resume(sessionId: string, by: object): Promise<SessionInfo> {
    this.refuseWhileStopping();
    if (this.find(sessionId)) throw new ConflictError(`session ${sessionId} is open`);
    const record = await this.remembered.take(sessionId);
    let started;
    try {
      const [folder = '', ...extra] = record.folders;
      const { config, cwd, launched, additional } = await this.prepare(
        record.agentId,
        folder,
        extra,
      );
      const { agentId, openedAt } = record;
      const session = sessionFor(this.options, sessionId, agentId, config, cwd, openedAt);
      session.additionalDirectories = additional;
      await resumeInto(session, record, by, { config, launched }, this.startDeps);
      started = { session, config };
    } catch (error) {
      // Still listed: a start that failed does not end what was remembered.
      if (this.sessions.get(sessionId)?.state === 'closed') this.sessions.delete(sessionId);
      this.remembered.giveBack(record, by, error as Error);
      throw error;
    }
    this.remembered.took(sessionId);
    return this.opened(started.session, started.config, 'resumed');
  }

  private get startDeps(): AgentStartDeps {
    return {
      ...this.options,
      now: this.now,
      transcripts: this.transcripts,
      starts: this.starts,
      guardDeps: this.guardDeps,
      register: (session) => {
        this.sessions.set(session.sessionId, session);
        this.transcripts.open(session.sessionId);
      },
      onExit: (session, code, signal) => this.onExit(session, code, signal),
      end: (session) => this.end(session),
      stopping: () => this.stopping,
    };
  }

  private refuseWhileStopping(): void {
    if (this.stopping) throw new ConflictError(STOPPING);
  }

  /** Signs the agent in with a method it offered (ACP authenticate), then opens its ACP session. */
  async authenticate(sessionId: string, methodId: string): Promise<SessionInfo> {
    const session = this.local(sessionId);
    const config = await this.signIns.signIn(session, methodId, (agent) =>
      newAcpSession(session, agent),
    );
    return this.opened(session, config);
  }

  /** The agent's ACP session is open: recorded, set back to a mode that asks, then idle. */
  private async opened(
    session: Session,
    config: LaunchableAgent,
    resumed?: 'resumed',
  ): Promise<SessionInfo> {
    const { sessionId, agentId, cwd, sandbox } = session;
    const { command, args } = config;
    const pid = session.process?.pid ?? null;
    // A resumed session's opening was audited when it first opened; its resumption is audited.
    if (!resumed)
      this.options.store.recordEvent({
        type: 'session_opened',
        sessionId,
        agentId,
        at: session.createdAt,
        payload: { cwd, command, args, pid, sandbox },
      });
    this.remembered.remember(session);
    // Before the first prompt: an agent that starts in a mode that does not ask is set back.
    await keepAsking(session, this.guardDeps);
    if (session.state === 'starting') session.state = 'idle';
    await this.recentFolders.used(cwd);
    this.options.bus.publish({ type: 'session_state', session: session.info() });
    return session.info();
  }

  async prompt(sessionId: string, text: string, clientId: string | null): Promise<StopReason> {
    const session = this.local(sessionId);
    if (session.state === 'prompting')
      throw new ConflictError('a turn is already running in this session');
    if (session.state !== 'idle' || !session.process)
      throw new ConflictError(`session is ${session.state}`);
    session.state = 'prompting';
    session.promptId = newId();
    session.promptClientId = clientId;
    const sent = withOwedWords(session, text);
    this.transcripts.prompted(sessionId, sent);
    this.options.bus.publish({ type: 'session_state', session: session.info() });
    const scriptsChanged = await watchBuildScripts(session, { ...this.options, now: this.now });
    const abandoned = new Promise<null>((resolve) => {
      session.abandonTurn = () => resolve(null);
    });
    let ended: StopReason | null = null;
    try {
      const response = await Promise.race([
        session.process.raceExit(
          session.process.agent.request('session/prompt', {
            sessionId: session.acpSessionId,
            prompt: [{ type: 'text', text: sent }],
          }),
        ),
        abandoned,
      ]);
      ended = response?.stopReason ?? 'cancelled';
      session.updates?.flush();
      return ended;
    } catch (error) {
      throw await session.process.explain(session.agentId, error);
    } finally {
      await scriptsChanged();
      this.remembered.keepTranscript(session);
      session.abandonTurn = null;
      disarmCancel(session);
      session.promptId = null;
      session.promptClientId = null;
      // An ending session goes from prompting to closed, not through idle.
      if (session.state === 'prompting' && !session.endReason) {
        session.state = 'idle';
        this.options.bus.publish({ type: 'session_state', session: session.info() });
      }
      // Told after the session is idle: once a person reads that the turn ended, Enter sends.
      if (ended) this.options.bus.publish({ type: 'turn_ended', sessionId, stopReason: ended });
    }
  }

  /**
   * Switches the session's permission mode. The agent is told only about modes that make it ask
   * at least as much as before (default, plan): in acceptEdits or bypass the agent keeps asking and
   * Gatehouse answers, so deny rules still apply and every decision is audited.
   */
  async setMode(sessionId: string, mode: PermissionMode): Promise<SessionInfo> {
    const session = this.get(sessionId);
    session.modeOverride = mode;
    const selector = primarySelector(session);
    const target =
      selector &&
      askingChoice(selector.choices, mode === 'plan' ? 'plan' : 'ask', session.agentFamily);
    if (selector && target && target.id !== selector.current && session.process) {
      await selectMode(session, selector, target);
    }
    this.options.store.recordEvent({
      type: 'session_mode',
      sessionId,
      agentId: session.agentId,
      at: this.now(),
      payload: { mode, agentModeId: target?.id ?? null },
    });
    this.remembered.remember(session);
    this.options.bus.publish({ type: 'session_state', session: session.info() });
    return session.info();
  }

  /** Sets one of the agent's session options (session-options.ts) in a session started here. */
  async setOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<SessionInfo> {
    const session = this.local(sessionId);
    await setSessionOption(session, configId, value, this.guardDeps);
    this.options.bus.publish({ type: 'session_state', session: session.info() });
    return session.info();
  }

  /**
   * Cancels the running turn: ACP wants every pending permission request answered `cancelled`.
   * An agent that has not ended the turn when the grace period is over is stopped: otherwise it
   * would keep the session "prompting" forever while it goes on working.
   */
  async cancel(sessionId: string): Promise<void> {
    const session = this.local(sessionId);
    if (session.state !== 'prompting' || !session.process) return;
    this.options.pipeline.cancelTurn(sessionId, session.promptId ?? undefined);
    armCancelGrace(session, this.options.cancelGraceMs(), (graceMs) =>
      this.stopUnresponsive(session, graceMs),
    );
    await session.process.agent.notify('session/cancel', { sessionId: session.acpSessionId });
  }

  /** The turn is reported cancelled, the agent stopped, the session ended: agent_unresponsive. */
  private async stopUnresponsive(session: Session, graceMs: number): Promise<void> {
    session.endReason = 'agent_unresponsive';
    this.options.store.recordEvent({
      type: 'agent_unresponsive',
      sessionId: session.sessionId,
      agentId: session.agentId,
      at: this.now(),
      payload: { graceMs, promptId: session.promptId, pid: session.process?.pid ?? null },
    });
    session.abandonTurn?.();
    this.options.pipeline.endSession(session.sessionId);
    await session.process?.kill();
    this.end(session);
  }

  async close(
    sessionId: string,
    reason: 'session_closed' | 'shutdown' = 'session_closed',
    by: object | null = null,
  ): Promise<void> {
    if (reason === 'shutdown' && this.sessions.get(sessionId)?.via)
      return this.detach(sessionId, reason);
    const session = this.local(sessionId);
    session.endReason = reason;
    if (session.state === 'prompting' && session.process && !session.process.exit) {
      await session.process.agent
        .notify('session/cancel', { sessionId: session.acpSessionId })
        .catch(() => {});
    }
    // A person's close is told to an agent that can hear it; the process ends all the same.
    if (reason === 'session_closed')
      await closeAcpSession(session, by, this.options.store, this.now);
    this.options.pipeline.endSession(sessionId);
    await session.process?.kill();
    this.end(session);
  }

  async closeAll(reason: 'shutdown' | 'session_closed' = 'shutdown'): Promise<void> {
    if (reason === 'shutdown') this.stopping = true;
    await Promise.all(
      [...this.sessions.values()]
        .filter((s) => s.state !== 'closed')
        .map((s) => this.close(s.sessionId, reason)),
    );
  }

  private onExit(session: Session, code: number | null, signal: string | null): void {
    if (session.state === 'closed') return;
    session.endReason ??= 'agent_exit';
    // Every request of the dead agent ends now and is audited; nothing waits on a ghost.
    this.options.pipeline.endSession(session.sessionId);
    this.options.store.recordEvent({
      type: 'agent_exited',
      sessionId: session.sessionId,
      agentId: session.agentId,
      at: this.now(),
      payload: { code, signal, stderr: session.process?.stderrTail().slice(-2000) ?? '' },
    });
    this.options.bus.publish({
      type: 'agent_exited',
      agentId: session.agentId,
      sessionIds: [session.sessionId],
      code,
      signal,
    });
    this.end(session);
  }

  private end(session: Session): void {
    disarmCancel(session);
    if (session.state === 'closed') return;
    // What it said before it ended is shown, and a flood it was in is over.
    session.updates?.close();
    session.state = 'closed';
    this.remembered.ended(session);
    this.signIns.forget(session.sessionId);
    this.endedAt.set(session.sessionId, this.now());
    this.options.onEnd?.(session.sessionId);
    this.options.bus.publish({ type: 'session_state', session: this.info(session) });
  }

  /** The live agent processes (each leads its own process group), for refusing their API calls. */
  agentProcesses(): { pid: number; agentId: string; sessionId: string }[] {
    return [...this.sessions.values()].flatMap((s) =>
      s.process?.pid !== undefined && !s.process.exit
        ? [{ pid: s.process.pid, agentId: s.agentId, sessionId: s.sessionId }]
        : [],
    );
  }
}
