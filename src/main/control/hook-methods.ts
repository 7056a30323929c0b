// The hook's method on the control socket: one tool call of a terminal CLI, judged and answered.
// Only a connection that said hello as `hook` may ask, one call at a time; when it goes away (the
// CLI's timeout killed the hook, or the CLI ended) the call's request ends and is audited.
import { type TerminalSessions, ForbiddenError, newId } from '../core';
import type { ControlConnection, ControlHandlers } from './connection';

/** The call each hook connection has in flight. */
const inFlight = new WeakMap<ControlConnection, string>();

export function hookHandlers(terminals: TerminalSessions): Pick<ControlHandlers, 'hook.request'> {
  return {
    'hook.request': async (params, connection) => {
      if (connection.client?.client !== 'hook') throw new ForbiddenError('only a hook may do this');
      if (inFlight.has(connection))
        throw new ForbiddenError('a hook asks about one tool call at a time');
      const callId = newId();
      inFlight.set(connection, callId);
      try {
        return await terminals.request(params, callId);
      } finally {
        inFlight.delete(connection);
      }
    },
  };
}

/** The hook is gone: the tool call it asked about will not run on its answer. */
export function hookDisconnected(terminals: TerminalSessions, connection: ControlConnection): void {
  const callId = inFlight.get(connection);
  if (callId) terminals.abandon(callId);
}
