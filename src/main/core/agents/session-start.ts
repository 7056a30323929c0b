// A session's agent started: in the sandbox its settings ask for today, through the start gate,
// initialized, its side doors checked, then its ACP session opened by the caller (session/new for a
// new session, session/resume or session/load for one taken up again). A new session and a resumed
// one pass the same steps, so a resumed session escapes none of them.
import type * as acp from '@agentclientprotocol/sdk';
import type { LaunchableAgent } from '../../../shared/settings';
import { BadRequestError, ConflictError } from '../errors';
import type { Transcripts } from '../transcripts/transcripts';
import { AgentProcess } from './agent-process';
import { agentFamily, modesSelector } from './agent-modes';
import { signInAsked } from './agent-auth';
import { clientHandlersFor } from './client-handlers';
import { sessionRoots, takesExtraFolders } from './extra-folders';
import { steeringOffered } from './reject-words';
import { onModeUpdate, type ModeGuardDeps } from './mode-guard';
import { Session } from './session';
import { launchInSandbox } from './session-launch';
import type { SessionManagerOptions } from './session-manager-options';
import { violationReporterFor } from './session-violations';
import { unguardedByDoor, type launchFamily } from './side-doors';
import type { StartGate } from './start-gate';
import { yieldWhileStarting } from './start-priority';

export interface AgentStartDeps extends SessionManagerOptions {
  now: () => number;
  transcripts: Transcripts;
  starts: StartGate;
  guardDeps: ModeGuardDeps;
  /** The session is known to the manager from here on (before its agent runs). */
  register: (session: Session) => void;
  onExit: (session: Session, code: number | null, signal: string | null) => void;
  /** Ends a session whose start failed. */
  end: (session: Session) => void;
  /** Gatehouse is stopping: a start still on its way ends instead of opening a session. */
  stopping: () => boolean;
}

/** Why no session starts once Gatehouse has begun to stop. */
export const STOPPING = 'Gatehouse is stopping: no session starts now';

export interface StartOptions {
  config: LaunchableAgent;
  launched: ReturnType<typeof launchFamily>;
  /** Opens the agent's ACP session once it is initialized. */
  open: (agent: AgentProcess, initialized: acp.InitializeResponse) => Promise<void>;
  /** A refusal of `open` that asks for a sign-in waits for one (a new session); else it fails. */
  signIn: boolean;
}

/** A session of the agent as settings declare it, not started yet. */
export function sessionFor(
  options: Pick<SessionManagerOptions, 'agents' | 'defaultPolicy'>,
  sessionId: string,
  agentId: string,
  config: LaunchableAgent,
  cwd: string,
  createdAt: number,
): Session {
  return new Session(
    sessionId,
    agentId,
    config.name ?? agentId,
    cwd,
    config.policy ?? options.defaultPolicy(),
    () => options.agents()[agentId],
    createdAt,
  );
}

/** What the agent said in initialize it can do with a session. */
export function abilitiesOf(initialized: acp.InitializeResponse): Session['abilities'] {
  const caps = initialized.agentCapabilities;
  const session = caps?.sessionCapabilities;
  return {
    list: session?.list != null,
    resume: session?.resume != null,
    load: caps?.loadSession === true,
    close: session?.close != null,
  };
}

/** Starts the session's agent and opens its ACP session; a failure ends the session and throws. */
export async function startAgent(
  session: Session,
  { config, launched, open, signIn }: StartOptions,
  deps: AgentStartDeps,
): Promise<void> {
  const { agentId } = session;
  const violations = violationReporterFor(session, deps);
  const leave = await deps.starts.enter();
  let launch;
  try {
    launch = await launchInSandbox(session, config, violations, deps);
  } catch (error) {
    leave();
    throw error;
  }
  session.sandbox = launch.sandbox;
  session.sandboxProfile = launch.profile;
  violations.labelWith(launch.protectedBy);
  deps.register(session);
  // Refusals are read from stderr only where a sandbox refuses.
  const onStderr = (chunk: string): void => violations.stderr(chunk);
  const handlers = clientHandlersFor(session, deps);
  const agent = await AgentProcess.spawn(
    launch,
    {
      ...handlers,
      sessionUpdate: (params) => {
        handlers.sessionUpdate(params);
        if (!session.replaying) onModeUpdate(session, params, deps.guardDeps);
      },
    },
    launch.sandbox.profile === 'off' ? {} : { onStderr },
  );
  session.process = agent;
  // Set back only while it runs: a pid that ended may already name another process.
  const setBack = yieldWhileStarting(agent.pid, () => agent.exit === null);
  const started = (): void => {
    setBack();
    leave();
  };
  void agent.exited.then((info) => deps.onExit(session, info.code, info.signal));
  // Closed while its agent was spawned (the close found no process to end), or Gatehouse began
  // stopping after it looked: the agent goes now, the session ended first so its exit is not news.
  const stopping = deps.stopping();
  if (session.state === 'closed' || stopping) {
    leave();
    session.endReason ??= 'shutdown';
    deps.end(session);
    await agent.kill();
    throw new ConflictError(
      stopping ? STOPPING : `the session was closed while agent "${agentId}" started`,
    );
  }
  session.readsAdvertised = config.fs.read;
  try {
    const initialized = await agent.initialize(session.readsAdvertised).finally(started);
    session.agentFamily = agentFamily(initialized.agentInfo?.name, agentId) ?? launched;
    session.abilities = abilitiesOf(initialized);
    session.steers = steeringOffered(initialized);
    if (session.additionalDirectories.length > 0) takesExtraFolders(initialized, session, deps);
    // What the agent calls itself may reveal what its launch did not (a wrapper script).
    session.openDoor = unguardedByDoor(agentId, config, launched, session.agentFamily);
    try {
      await open(agent, initialized);
    } catch (error) {
      if (!signIn) throw error;
      session.authMethods = signInAsked(error, initialized.authMethods);
    }
  } catch (error) {
    const exit = await agent.exitWords();
    session.endReason = 'agent_exit';
    await agent.kill();
    deps.end(session);
    throw new BadRequestError(
      `agent "${agentId}" did not start: ${exit ? `it ${exit}` : (error as Error).message}`,
    );
  }
}

/** ACP session/new; the modes and options the agent advertises there are kept. */
export async function newAcpSession(session: Session, agent: AgentProcess): Promise<void> {
  const created = await agent.raceExit(
    agent.agent.request('session/new', { ...sessionRoots(session), mcpServers: [] }),
  );
  session.acpSessionId = created.sessionId;
  const modes = modesSelector(created.modes);
  session.modeSelectors = modes ? [modes] : [];
  session.setConfigOptions(created.configOptions);
}
