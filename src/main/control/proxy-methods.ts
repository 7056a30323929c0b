// The proxy's methods on the control socket, bound to the connection that calls them: a proxy acts
// only on the sessions it opened and the requests it submitted, and when its connection ends
// (the proxy exited, or its editor closed it) its sessions end and nothing of theirs stays pending.
import { type EditorSessions, ForbiddenError, NotFoundError, newId } from '../core';
import type { ControlConnection, ControlHandlers, ProxyState } from './connection';

/** Requests a proxy may have waiting at once; more is a runaway agent. */
const MAX_WAITING_PER_CONNECTION = 256;
const MAX_DECIDED_KEPT = 256;

type ProxyMethod =
  | 'session.open'
  | 'session.update'
  | 'session.turn'
  | 'session.cancel'
  | 'session.close'
  | 'session.dropped'
  | 'permission.submit'
  | 'permission.await'
  | 'permission.answer'
  | 'action.check';

function proxyOf(connection: ControlConnection): ProxyState {
  if (connection.client?.client !== 'proxy')
    throw new ForbiddenError('only an ACP proxy may do this');
  connection.proxy ??= {
    editorClientId: `editor-${newId()}`,
    sessions: new Set(),
    requests: new Map(),
    decided: new Set(),
  };
  return connection.proxy;
}

function owned(connection: ControlConnection, sessionId: string): ProxyState {
  const proxy = proxyOf(connection);
  if (!proxy.sessions.has(sessionId))
    throw new NotFoundError(`no session ${sessionId} on this connection`);
  return proxy;
}

function waiting(connection: ControlConnection, requestId: string) {
  const request = proxyOf(connection).requests.get(requestId);
  if (!request) throw new NotFoundError(`no waiting request ${requestId} on this connection`);
  return request;
}

export function proxyHandlers(editors: EditorSessions): Pick<ControlHandlers, ProxyMethod> {
  const ok = { ok: true } as const;
  return {
    'session.open': (params, connection) => {
      const proxy = proxyOf(connection);
      const { sessionId } = editors.open({ ...params, editorClientId: proxy.editorClientId });
      proxy.sessions.add(sessionId);
      return { sessionId };
    },
    'session.update': ({ sessionId, update }, connection) => {
      owned(connection, sessionId);
      editors.update(sessionId, update);
      return ok;
    },
    'session.turn': ({ sessionId, turn, text }, connection) => {
      owned(connection, sessionId);
      editors.turn(sessionId, turn, text);
      return ok;
    },
    'session.cancel': ({ sessionId }, connection) => {
      owned(connection, sessionId);
      editors.cancel(sessionId);
      return ok;
    },
    'session.close': ({ sessionId }, connection) => {
      owned(connection, sessionId).sessions.delete(sessionId);
      editors.close(sessionId);
      return ok;
    },
    'session.dropped': ({ sessionId, what, bytes }, connection) => {
      owned(connection, sessionId);
      editors.dropped(sessionId, what, bytes);
      return ok;
    },
    'permission.submit': async ({ sessionId, request }, connection) => {
      const proxy = owned(connection, sessionId);
      if (proxy.requests.size >= MAX_WAITING_PER_CONNECTION) {
        throw new ForbiddenError(
          `${MAX_WAITING_PER_CONNECTION} requests of this proxy already wait`,
        );
      }
      const submitted = await editors.submit(sessionId, request);
      if (submitted.now.status === 'asking') {
        const { requestId } = submitted.now;
        proxy.requests.set(requestId, { sessionId, decided: submitted.decided });
        const done = () => {
          proxy.requests.delete(requestId);
          proxy.decided.add(requestId);
          if (proxy.decided.size > MAX_DECIDED_KEPT)
            proxy.decided.delete(proxy.decided.values().next().value!);
        };
        submitted.decided.then(done, done);
      }
      return submitted.now;
    },
    'permission.await': async ({ requestId }, connection) => ({
      response: await waiting(connection, requestId).decided,
    }),
    'permission.answer': ({ requestId, response }, connection) => {
      const proxy = proxyOf(connection);
      // A late answer (decided already) is still a vote of this editor: the mediator audits it.
      const known = proxy.requests.has(requestId) || proxy.decided.has(requestId);
      if (!known) throw new NotFoundError(`no request ${requestId} on this connection`);
      return editors.answer(requestId, response, proxy.editorClientId);
    },
    'action.check': (params, connection) => {
      owned(connection, params.sessionId);
      return editors.check(params);
    },
  };
}

/** The proxy is gone: its sessions end, their waiting requests are answered and audited. */
export function proxyDisconnected(editors: EditorSessions, connection: ControlConnection): void {
  for (const sessionId of connection.proxy?.sessions ?? []) editors.close(sessionId, 'agent_exit');
}
