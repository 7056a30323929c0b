// Keeps an agent in a mode where it asks. An agent that approves by itself never sends Gatehouse a
// request, so its rules, its dialog and its audit would all be bypassed in silence: a session that
// starts in such a mode, or whose agent switches to one, is set back; when that fails the session is
// marked unguarded on every surface.
import type * as acp from '@agentclientprotocol/sdk';
import type { EventBus } from '../events/bus';
import { logger } from '../log/logger';
import type { Store } from '../store';
import {
  askingChoice,
  currentChoice,
  isAutoApproving,
  type ModeChoice,
  type ModeSelector,
} from './agent-modes';
import { readConfigOptions } from './config-options';
import { checkJsonShape } from '../safety/json-guard';
import type { Session } from './session';

const log = logger('modes');

/** An agent that keeps switching back after this many resets is no longer fought: it is unguarded. */
const MAX_RESETS = 8;

export interface ModeGuardDeps {
  store: Pick<Store, 'recordEvent'>;
  bus: EventBus;
  now: () => number;
}

/** What a session's agent announced about its mode: applied, then the session is guarded again. */
export function onModeUpdate(
  session: Session,
  params: acp.SessionNotification,
  deps: ModeGuardDeps,
): void {
  if (params?.sessionId !== session.acpSessionId || ended(session)) return;
  const update = params.update as {
    sessionUpdate?: unknown;
    currentModeId?: unknown;
    configOptions?: unknown;
  };
  if (update?.sessionUpdate === 'current_mode_update') {
    if (typeof update.currentModeId !== 'string') return;
    const id = update.currentModeId.slice(0, 256);
    session.modeSelectors = session.modeSelectors.map((s) =>
      s.via === 'mode' ? { ...s, current: id } : s,
    );
  } else if (update?.sessionUpdate === 'config_option_update') {
    // Malformed updates are dropped (and audited) by the session's own update handler.
    if (checkJsonShape(params)) return;
    session.setConfigOptions(update.configOptions);
    if (session.state !== 'starting')
      deps.bus.publish({ type: 'session_state', session: session.info() });
  } else return;
  void keepAsking(session, deps);
}

/** The selector a person's mode change goes through: the session modes, else a mode option. */
export function primarySelector(session: Session): ModeSelector | null {
  return session.modeSelectors.find((s) => s.via === 'mode') ?? session.modeSelectors[0] ?? null;
}

/** Moves the agent to `choice` through `selector`, and remembers where it now stands. */
export async function selectMode(
  session: Session,
  selector: ModeSelector,
  choice: ModeChoice,
): Promise<void> {
  if (selector.via === 'config') return setConfigValue(session, selector.configId, choice.id);
  const agent = running(session);
  const sessionId = session.acpSessionId;
  await agent.raceExit(agent.agent.request('session/set_mode', { sessionId, modeId: choice.id }));
  session.modeSelectors = session.modeSelectors.map((s) =>
    s.via === 'mode' ? { ...s, current: choice.id } : s,
  );
}

/** ACP session/set_config_option; the options the agent answers with replace those it had. */
export async function setConfigValue(
  session: Session,
  configId: string,
  value: string | boolean,
): Promise<void> {
  const agent = running(session);
  const sessionId = session.acpSessionId;
  const answer = await agent.raceExit(
    agent.agent.request(
      'session/set_config_option',
      typeof value === 'boolean'
        ? { sessionId, configId, type: 'boolean', value }
        : { sessionId, configId, value },
    ),
  );
  const told = (answer as { configOptions?: unknown } | null)?.configOptions;
  // An agent that answers without its options is taken at its word for this one.
  if (readConfigOptions(told).length > 0) session.setConfigOptions(told);
  else session.configValueSet(configId, value);
}

function running(session: Session): NonNullable<Session['process']> {
  if (!session.process) throw new Error('no agent process');
  return session.process;
}

/**
 * Sets every selector standing at a mode that approves by itself back to the asking mode that
 * matches the session's own (plan or ask). Runs one at a time per session; the result is audited,
 * and the session's unguarded mark follows what is true afterwards.
 */
export function keepAsking(session: Session, deps: ModeGuardDeps): Promise<void> {
  session.modeGuard = session.modeGuard.then(() => guard(session, deps));
  return session.modeGuard;
}

/** Read afresh after each await: the agent may exit while it is being set back. */
const ended = (session: Session): boolean => session.state === 'closed';

async function guard(session: Session, deps: ModeGuardDeps): Promise<void> {
  if (ended(session)) return;
  let problem: string | null = null;
  const tried = new Set<string>();
  const pending = (s: ModeSelector) =>
    !tried.has(`${s.via}:${s.configId}`) && isAutoApproving(currentChoice(s), session.agentFamily);
  // Read afresh each time: a reset's own announcements may already have set another selector back.
  for (
    let selector = session.modeSelectors.find(pending);
    selector;
    selector = session.modeSelectors.find(pending)
  ) {
    tried.add(`${selector.via}:${selector.configId}`);
    const from = currentChoice(selector);
    const to = askingChoice(
      selector.choices,
      session.mode === 'plan' ? 'plan' : 'ask',
      session.agentFamily,
    );
    const where = selector.via === 'mode' ? 'mode' : `option "${selector.configId}"`;
    if (!to) {
      problem ??= `the agent is in ${where} "${from.id}", which does not ask, and offers none that does`;
      continue;
    }
    if (!session.process) {
      // An editor's session (gatehouse acp): the editor, not Gatehouse, talks to the agent.
      problem ??= `the agent is in ${where} "${from.id}", which does not ask; only its editor can set it back`;
      continue;
    }
    if (session.modeResets >= MAX_RESETS) {
      problem ??= `the agent keeps switching itself to ${where} "${from.id}", which does not ask`;
      continue;
    }
    session.modeResets += 1;
    try {
      await selectMode(session, selector, to);
    } catch (error) {
      problem ??= `the agent refused to leave ${where} "${from.id}", which does not ask: ${(error as Error).message.slice(0, 500)}`;
      continue;
    }
    log.warn(
      `session ${session.sessionId}: agent was in "${from.id}" (does not ask); set back to "${to.id}"`,
    );
    record(session, deps, 'agent_mode_reset', {
      via: selector.via,
      ...(selector.via === 'config' ? { configId: selector.configId } : {}),
      from: from.id,
      to: to.id,
    });
  }
  // A door the agent leaves open whatever its mode keeps the session unguarded.
  if (!ended(session)) mark(session, deps, problem ?? session.openDoor);
}

/** Sets or clears the unguarded mark; a change is audited and shown on every surface. */
function mark(session: Session, deps: ModeGuardDeps, problem: string | null): void {
  if (problem === session.unguarded) return;
  const was = session.unguarded;
  session.unguarded = problem;
  if (problem) {
    log.warn(`session ${session.sessionId} is unguarded: ${problem}`);
    record(session, deps, 'agent_unguarded', { reason: problem });
  } else {
    record(session, deps, 'agent_guarded', { was });
  }
  // Before the session is open, its first state event carries the mark.
  if (session.state !== 'starting')
    deps.bus.publish({ type: 'session_state', session: session.info() });
}

function record(session: Session, deps: ModeGuardDeps, type: string, payload: unknown): void {
  deps.store.recordEvent({
    type,
    sessionId: session.sessionId,
    agentId: session.agentId,
    at: deps.now(),
    payload,
  });
}
