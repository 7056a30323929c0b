// How a session's turn and the session itself are ended in the agent: a cancelled turn's grace
// period, and ACP session/close, sent when a person closes a session whose agent advertised it (the
// agent cancels its work and frees what the session held; the wait is bounded and the process is
// ended after it whatever the agent answered).
import * as acp from '@agentclientprotocol/sdk';
import type { Store } from '../store';
import type { Session } from './session';

/**
 * Arms the time a cancelled turn's agent has to end it; past it, `late` stops the agent (otherwise
 * it would keep the session prompting while it goes on working).
 */
export function armCancelGrace(
  session: Session,
  graceMs: number,
  late: (graceMs: number) => Promise<void>,
): void {
  if (session.cancelTimer) return;
  const promptId = session.promptId;
  session.cancelTimer = setTimeout(() => {
    session.cancelTimer = null;
    if (session.state === 'prompting' && session.promptId === promptId) void late(graceMs);
  }, graceMs);
  // A pending grace period alone does not keep the process alive.
  session.cancelTimer.unref();
}

export function disarmCancel(session: Session): void {
  if (session.cancelTimer) clearTimeout(session.cancelTimer);
  session.cancelTimer = null;
}

/** The longest a close waits for the agent's answer before its process is ended. */
export const CLOSE_WAIT_MS = 2_000;

/** Whether session/close was sent, and how the agent answered ('ok', 'error', 'late'). */
export type CloseTold = 'not_advertised' | 'ok' | 'error' | 'late';

/** A person closes the session: the agent is told where it can hear it; audited with who asked. */
export async function closeAcpSession(
  session: Session,
  by: object | null,
  store: Pick<Store, 'recordEvent'>,
  now: () => number,
): Promise<void> {
  const told = await tellClose(session);
  store.recordEvent({
    type: 'session_closed',
    sessionId: session.sessionId,
    agentId: session.agentId,
    at: now(),
    payload: { by, acpClose: told },
  });
}

async function tellClose(session: Session): Promise<CloseTold> {
  const agent = session.process;
  if (!session.abilities.close || !agent || agent.exit || !session.acpSessionId)
    return 'not_advertised';
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CloseTold>((resolve) => {
    timer = setTimeout(() => resolve('late'), CLOSE_WAIT_MS);
  });
  try {
    return await Promise.race([
      agent
        .raceExit(
          agent.agent.request(acp.methods.agent.session.close, {
            sessionId: session.acpSessionId,
          }),
        )
        .then(
          (): CloseTold => 'ok',
          (): CloseTold => 'error',
        ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
