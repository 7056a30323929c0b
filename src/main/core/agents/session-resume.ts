// Taking up a session that ended with Gatehouse: what is remembered of it, how its agent's ACP session
// is opened again (session/resume, which replays nothing, before session/load, which replays the
// conversation), and what runs differently today from how it ran.
import * as acp from '@agentclientprotocol/sdk';
import type { SessionInfo, SessionSandbox } from '../../../shared/domain';
import type { SessionRecord } from '../store';
import type { AgentProcess } from './agent-process';
import { modesSelector } from './agent-modes';
import type { Session } from './session';
import { startAgent, type AgentStartDeps, type StartOptions } from './session-start';

/** The longest an agent may take to resume or load a session (a replay included). */
export const RESUME_WAIT_MS = 30_000;

export type ResumeHow = 'resume' | 'load';

/** How a session of an agent that can do these is taken up; null when it cannot be. */
export function resumeHow(abilities: SessionRecord['abilities']): ResumeHow | null {
  if (abilities.resume) return 'resume';
  if (abilities.load) return 'load';
  return null;
}

/** The session as remembered, in the form every surface lists: ended with Gatehouse, resumable. */
export function resumableInfo(record: SessionRecord, how: ResumeHow): SessionInfo {
  return {
    sessionId: record.sessionId,
    agentId: record.agentId,
    cwd: record.folders[0] ?? '',
    createdAt: record.openedAt,
    state: 'closed',
    mode: 'default',
    sandbox: record.sandbox as SessionSandbox,
    endReason: 'shutdown',
    ...(record.endedAt !== null ? { endedAt: record.endedAt } : {}),
    resumable: how,
  };
}

/** What is remembered of a session that runs, in the state given. */
export function recordOf(
  session: Session,
  state: SessionRecord['state'],
  endedAt: number | null,
): SessionRecord {
  return {
    sessionId: session.sessionId,
    agentId: session.agentId,
    acpSessionId: session.acpSessionId,
    folders: [session.cwd, ...session.additionalDirectories],
    sandbox: session.sandbox,
    mode: session.modeOverride,
    abilities: session.abilities,
    state,
    openedAt: session.createdAt,
    endedAt,
  };
}

/**
 * Opens the remembered ACP session in the agent just started. What a load replays is counted and
 * dropped where it is read (client-handlers.ts), and a permission request during it refused: the
 * transcript already holds the conversation and its decisions were taken. Bounded in time.
 */
export async function openRemembered(
  session: Session,
  agent: AgentProcess,
  acpSessionId: string,
  how: ResumeHow,
): Promise<{ replayedUpdates: number; refusedRequests: number }> {
  session.acpSessionId = acpSessionId;
  const params = { sessionId: acpSessionId, cwd: session.cwd, mcpServers: [] };
  if (how === 'load') session.replaying = { updates: 0, requests: 0 };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the agent did not ${how} the session within ${RESUME_WAIT_MS} ms`)),
      RESUME_WAIT_MS,
    );
  });
  try {
    const opened = (await Promise.race([
      agent.raceExit(
        how === 'resume'
          ? agent.agent.request(acp.methods.agent.session.resume, params)
          : agent.agent.request(acp.methods.agent.session.load, params),
      ),
      late,
    ])) as { modes?: unknown; configOptions?: unknown } | null;
    const modes = modesSelector(opened?.modes);
    session.modeSelectors = modes ? [modes] : [];
    session.setConfigOptions(opened?.configOptions);
    return {
      replayedUpdates: session.replaying?.updates ?? 0,
      refusedRequests: session.replaying?.requests ?? 0,
    };
  } finally {
    clearTimeout(timer);
    session.replaying = null;
  }
}

/**
 * What runs differently from before, in words: the sandbox today's settings build, and a mode a
 * person chose that is not taken up again (only modes that ask at least as much are).
 */
export function changesSince(record: SessionRecord, session: Session): string[] {
  const changes: string[] = [];
  const before = record.sandbox as Partial<SessionSandbox>;
  const now = session.sandbox;
  if (before.profile !== now.profile)
    changes.push(`sandbox: ${String(before.profile)} before, ${now.profile} now`);
  if (JSON.stringify(before.writable ?? []) !== JSON.stringify(now.writable))
    changes.push(
      `writable folders: ${(before.writable ?? []).join(', ') || 'none'} before, ${now.writable.join(', ') || 'none'} now`,
    );
  if (before.network !== now.network)
    changes.push(`network: ${String(before.network)} before, ${now.network} now`);
  if (record.mode !== null && record.mode !== session.modeOverride)
    changes.push(`mode: ${record.mode} before, ${session.mode} now (the agent's settings decide)`);
  return changes;
}

/** A mode a person chose before that is taken up again: only one that asks at least as much. */
export function keptMode(mode: string | null): 'default' | 'plan' | null {
  return mode === 'default' || mode === 'plan' ? mode : null;
}

/**
 * Starts the remembered session's agent as a new session's is (startAgent: today's settings, the
 * sandbox, the start gate, the side-door check) and opens its ACP session again; audited with who
 * asked, how, what was replayed and what runs differently now.
 */
export async function resumeInto(
  session: Session,
  record: SessionRecord,
  by: object,
  start: Pick<StartOptions, 'config' | 'launched'>,
  deps: AgentStartDeps,
): Promise<void> {
  session.modeOverride = keptMode(record.mode);
  const done = { how: 'resume' as ResumeHow, replay: { replayedUpdates: 0, refusedRequests: 0 } };
  const open = async (agent: AgentProcess): Promise<void> => {
    // What the agent says it can do today decides, not what it said before.
    const how = resumeHow(session.abilities);
    if (!how) throw new Error('the agent no longer offers to resume or load a session');
    done.how = how;
    done.replay = await openRemembered(session, agent, record.acpSessionId, how);
  };
  await startAgent(session, { ...start, signIn: false, open }, deps);
  const changes = changesSince(record, session);
  session.resumed = { how: done.how, at: deps.now(), changes };
  deps.store.recordEvent({
    type: done.how === 'load' ? 'session_loaded' : 'session_resumed',
    sessionId: session.sessionId,
    agentId: session.agentId,
    at: deps.now(),
    payload: { by, acpSessionId: record.acpSessionId, changes, ...done.replay },
  });
}
