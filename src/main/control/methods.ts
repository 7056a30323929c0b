// What the control methods answer, from the core's public state. Summaries only: no session or
// request ids, no tokens, nothing a request asked.
import { CONTROL_PROTOCOL } from '../../shared/control-protocol';
import type { Core } from '../core/core';
import type { HomeLock } from '../core/home-lock';
import type { ControlHandlers } from './dispatch';

export function controlHandlers(
  core: Pick<Core, 'sessions' | 'pipeline'>,
  lock: Pick<HomeLock, 'info'>,
): ControlHandlers {
  return {
    hello: () => {
      const { kind, pid, version } = lock.info;
      return { server: 'gatehouse', protocol: CONTROL_PROTOCOL, kind, pid, version };
    },
    status: () => ({
      ...lock.info,
      sessions: core.sessions.list().map((session) => ({
        agentId: session.agentId,
        cwd: session.cwd,
        state: session.state,
        startedAt: session.createdAt,
        pending: core.pipeline.pending.countFor(session.sessionId),
      })),
    }),
  };
}
