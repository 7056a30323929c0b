// What the control methods answer. `status` gives summaries only (no session or request ids, no
// tokens, nothing a request asked); the proxy's methods act on what their own connection opened,
// the hook's on the one tool call it asks about. `rotateToken` replaces the HTTP token and never
// answers with it: whoever runs it reads the new one from the data folder.
import { CONTROL_PROTOCOL } from '../../shared/control-protocol';
import { NotFoundError, type Core, type HomeLock } from '../core';
import type { ControlHandlers } from './connection';
import { hookHandlers } from './hook-methods';
import { proxyHandlers } from './proxy-methods';

export function controlHandlers(
  core: Pick<Core, 'sessions' | 'pipeline' | 'editorSessions' | 'terminalSessions'>,
  lock: Pick<HomeLock, 'info'>,
  /** Rotates the HTTP server's token; absent where no HTTP server runs (the desktop). */
  rotateToken?: () => void,
): ControlHandlers {
  return {
    ...proxyHandlers(core.editorSessions),
    ...hookHandlers(core.terminalSessions),
    hello: () => {
      const { kind, pid, version } = lock.info;
      return { server: 'gatehouse', protocol: CONTROL_PROTOCOL, kind, pid, version };
    },
    rotateToken: () => {
      if (!rotateToken)
        throw new NotFoundError('this Gatehouse serves no HTTP API, so it has no token');
      rotateToken();
      return { rotated: true as const };
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
