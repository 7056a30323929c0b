import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HEALTH_ROUTE } from '../../shared/health-route';
import { type Caller, type CoreStarting, type Core, logger } from '../core';
import type * as ApiModuleExports from './api-modules';
import { EventStreams, type EventStreamStats } from './event-stream';
import type { HistoryExports } from './history-export';
import { findAgentPeer, type AgentPeer, type AgentProcessInfo } from './peer-process';
import { RateLimit } from './rate-limit';
import { fail, send } from './respond';
import {
  hostAllowed,
  hostPart,
  isLoopbackAddress,
  isWildcardHost,
  networkUrls,
} from './listen-address';
import { serveStatic } from './static-files';

const log = logger('http');

// node:http taken as an ES module has each of its exports read at once, and its WebSocket ones load
// undici (fetch, WebSocket: more than the rest of node:http) before anything can listen; taken as
// the builtin it is, they stay lazy.
const { createServer } = process.getBuiltinModule('node:http');

export interface HttpServerOptions {
  /**
   * The core, or the core as it starts: then the server answers /api/health ("starting") and the
   * renderer's files at once, and every other request waits until rules, grants and the audit are
   * ready (or is refused with 503 if the core cannot start). Nothing is decided before.
   */
  core: Core | Pick<CoreStarting, 'ready' | 'health'>;
  token: string;
  host?: string;
  port?: number;
  /** Built renderer folder; absent means API only. */
  staticDir?: string;
  /** Which socket addresses count as this machine (local-only policy). Default: 127/8 and ::1. */
  isLoopback?: (address: string) => boolean;
  maxBodyBytes?: number;
  /** Registrations allowed per minute (one bearer token per server). Default 10. */
  registrationsPerMinute?: number;
  /** The agent processes whose connections are refused. Default: the core's live sessions. */
  agentProcesses?: () => AgentProcessInfo[];
  /** Bytes an event stream may leave unread before it is ended. Default STREAM_BACKLOG_MAX_BYTES. */
  streamBacklogMaxBytes?: number;
  /** Event streams open at once. Default MAX_EVENT_STREAMS. */
  maxEventStreams?: number;
}

export interface RunningServer {
  /** The address this machine opens (loopback when the server is bound to every address). */
  url: string;
  port: number;
  /**
   * Serves with a new bearer token from now on. Open event streams end, so every page holding the
   * old token learns at once that it is no longer accepted (its reconnect is refused).
   */
  replaceToken(token: string): void;
  /** The address it was bound to, as given. */
  host: string;
  /** The addresses another device opens; empty when only this machine can reach the server. */
  networkUrls: string[];
  /** The open event streams, what they hold unread, and how many were ended or refused. */
  eventStreams(): EventStreamStats;
  close(): Promise<void>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

type ApiModules = typeof ApiModuleExports;

const unauthorized = (res: ServerResponse) =>
  fail(res, 401, 'Unauthorized', 'missing or wrong bearer token', { 'www-authenticate': 'Bearer' });

class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
  ) {
    super(message);
  }
}

/** Exactly application/json, parameters allowed (`application/json-patch+json` is not JSON here). */
const JSON_TYPE = /^application\/json[ \t]*(;.*)?$/i;

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  // JSON only, empty bodies included: a form post from another site cannot reach a handler.
  if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) {
    throw new BodyError(415, 'UnsupportedMediaType', 'content-type must be application/json');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new BodyError(413, 'PayloadTooLarge', `body larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError(400, 'BadRequest', 'body is not valid JSON');
  }
}

/**
 * The headless API: the contract's commands as HTTP routes, events as SSE, and the renderer build.
 * Every /api request needs the bearer token; the socket address, never a header, says whether a
 * voter is on this machine.
 */
export function startHttpServer(options: HttpServerOptions): Promise<RunningServer> {
  const starting = 'ready' in options.core ? options.core : null;
  let started: Core | null = starting ? null : (options.core as Core);
  const ready: Promise<Core> = starting
    ? starting.ready.then((core) => (started = core))
    : Promise.resolve(options.core as Core);
  // Why the core could not start is the entry's to tell; here it is a 503 to whoever asks.
  let failed = false;
  ready.catch(() => (failed = true));
  const host = options.host ?? '127.0.0.1';
  const isLoopback = options.isLoopback ?? isLoopbackAddress;
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  let tokenDigest = digest(options.token);
  const streams = new EventStreams(options.streamBacklogMaxBytes, options.maxEventStreams);
  let exports: HistoryExports | null = null;
  let port = 0;
  let apiModules: Promise<ApiModules> | null = null;
  const api = () => (apiModules ??= import('./api-modules'));

  const authorized = (req: IncomingMessage) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    return !!match && timingSafeEqual(digest(match[1]!), tokenDigest);
  };

  const callerOf = (
    { CLIENT_ID_HEADER, CLIENT_TOKEN_HEADER, ClientId }: ApiModules,
    core: Core,
    req: IncomingMessage,
  ): Caller | string => {
    const rawId = req.headers[CLIENT_ID_HEADER];
    const rawToken = req.headers[CLIENT_TOKEN_HEADER];
    if (Array.isArray(rawId) || Array.isArray(rawToken)) return 'client headers must appear once';
    let claimed: string | null = null;
    if (rawId !== undefined) {
      const parsed = ClientId.safeParse(rawId);
      if (!parsed.success) return `invalid ${CLIENT_ID_HEADER}: ${parsed.error.issues[0]?.message}`;
      claimed = parsed.data;
    }
    // An id without its token is anonymous: a claimed id is never recorded as the decider.
    const client = core.clients.identify(claimed, rawToken ?? null);
    return {
      clientId: client?.clientId ?? null,
      identityProven: client !== null,
      paired: client?.paired ?? false,
      fromLoopback: isLoopback(req.socket.remoteAddress ?? ''),
      surface: client?.surface ?? 'api',
      transport: 'http',
    };
  };

  const linkCallerOf = (
    { LINK_AUTH_SCHEME }: ApiModules,
    core: Core,
    req: IncomingMessage,
  ): Caller | 'unauthorized' => {
    const match = new RegExp(`^${LINK_AUTH_SCHEME} (.+)$`).exec(req.headers.authorization ?? '');
    const link = match ? core.links.resolve(match[1]!) : null;
    if (!match || !link) return 'unauthorized';
    return {
      clientId: `link-${link.linkId}`,
      identityProven: true,
      paired: false,
      fromLoopback: isLoopback(req.socket.remoteAddress ?? ''),
      surface: 'link',
      transport: 'http',
      link: { token: match[1]!, requestId: link.requestId },
    };
  };

  // No agent runs before the core is ready: it is the core that starts them.
  const agentProcesses =
    options.agentProcesses ?? (() => (started ? started.sessions.agentProcesses() : []));
  const registrations = new RateLimit(options.registrationsPerMinute ?? 10, 60_000, () =>
    started ? started.now() : Date.now(),
  );
  /** Per connection: the agent at its other end, if any (looked up once, when it opens). */
  const peers = new WeakMap<Socket, Promise<AgentPeer | 'unknown' | null>>();
  /** Connections opened before the core was ready: looked up at their first request after. */
  const early = new WeakSet<Socket>();
  const refusedAudited = new WeakSet<Socket>();

  const onConnection = (socket: Socket) => {
    if (!started) {
      early.add(socket);
      return;
    }
    early.delete(socket);
    const address = socket.remoteAddress ?? '';
    const port = socket.remotePort;
    // Only a process on this machine can be an agent: a loopback peer, or one that came in on
    // this machine's own address.
    const local = isLoopbackAddress(address) || address === socket.localAddress;
    if (!local || port === undefined) return;
    const agents = agentProcesses();
    if (agents.length === 0) return;
    peers.set(
      socket,
      findAgentPeer(address, port, agents).catch((error: unknown) => {
        log.error('peer process lookup failed:', error);
        return 'unknown' as const;
      }),
    );
  };

  const refuseAgent = (
    core: Core,
    req: IncomingMessage,
    res: ServerResponse,
    peer: AgentPeer | 'unknown',
  ) => {
    const request = { method: req.method ?? '', path: (req.url ?? '').split('?')[0] };
    if (!refusedAudited.has(req.socket)) {
      refusedAudited.add(req.socket);
      core.store.recordEvent(
        peer === 'unknown'
          ? { type: 'api_refused_unknown_peer', at: core.now(), payload: request }
          : {
              type: 'api_refused_agent',
              agentId: peer.agentId,
              sessionId: peer.sessionId,
              at: core.now(),
              payload: { pid: peer.peerPid, agentPid: peer.pid, ...request },
            },
      );
    }
    if (peer === 'unknown') {
      // While agents run, a local connection that no process holds any more may be an agent's.
      return fail(
        res,
        403,
        'AgentForbidden',
        'the process that opened this connection cannot be identified',
      );
    }
    fail(res, 403, 'AgentForbidden', 'requests from an agent process are refused');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Only a connection opened once the core was ready has been looked up.
    const peer = await peers.get(req.socket);
    if (peer && started) return refuseAgent(started, req, res, peer);
    const url = new URL(req.url ?? '/', 'http://localhost');
    // DNS rebinding: a page on another name that resolves here must not reach the API.
    const localAddress = req.socket.localAddress;
    if (!hostAllowed(req.headers.host, { boundHost: host, port, localAddress })) {
      return fail(res, 421, 'MisdirectedRequest', 'unexpected Host header');
    }
    // A page of another origin (a site open on the phone, a page on another port of this machine)
    // is not this UI, whatever it sends.
    const origin = req.headers.origin;
    if (
      origin !== undefined &&
      origin.toLowerCase() !== `http://${req.headers.host!.toLowerCase()}`
    ) {
      return fail(res, 403, 'CrossOrigin', 'requests from another origin are refused');
    }
    if (!url.pathname.startsWith('/api/')) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return fail(res, 405, 'MethodNotAllowed', 'GET only');
      return serveStatic(
        options.staticDir ?? '',
        url.pathname,
        res,
        req.headers['accept-encoding'],
      );
    }
    // While the core starts, health is answered from what is known (with the bearer token, as the
    // contract's route says); everything else waits for it.
    if (
      !started &&
      !failed &&
      starting &&
      req.method === HEALTH_ROUTE.method &&
      url.pathname === HEALTH_ROUTE.path
    ) {
      if (!authorized(req)) return unauthorized(res);
      return send(res, 200, starting.health());
    }
    const modules = await api();
    const { commands, dispatch, HISTORY_EXPORT_PATH } = modules;
    const route = modules.matchRoute(req.method ?? 'GET', url.pathname);
    const viaLink = route.kind === 'found' && commands[route.name].http.auth === 'link';
    if (!viaLink && !authorized(req)) return unauthorized(res);
    let core: Core;
    try {
      core = await ready;
    } catch {
      return fail(res, 503, 'Unavailable', 'Gatehouse could not start');
    }
    if (early.has(req.socket)) {
      onConnection(req.socket);
      const late = await peers.get(req.socket);
      if (late) return refuseAgent(core, req, res, late);
    }
    let caller: Caller | string;
    if (viaLink) {
      // The link is the whole credential, for its one request; the bearer token is not accepted here.
      caller = linkCallerOf(modules, core, req);
      if (caller === 'unauthorized') {
        return fail(res, 401, 'Unauthorized', 'missing, used or expired approval link', {
          'www-authenticate': 'Link',
        });
      }
    } else {
      caller = callerOf(modules, core, req);
    }
    if (typeof caller === 'string') return fail(res, 400, 'BadRequest', caller);

    if (url.pathname === HISTORY_EXPORT_PATH) {
      if (req.method !== 'GET')
        return fail(res, 405, 'MethodNotAllowed', 'GET only', { allow: 'GET' });
      return (exports ??= new modules.HistoryExports(core)).answer(url, res);
    }
    if (url.pathname === '/api/events') {
      if (req.method !== 'GET')
        return fail(res, 405, 'MethodNotAllowed', 'GET only', { allow: 'GET' });
      return streams.open(core, caller, req, res);
    }
    if (route.kind === 'not_found')
      return fail(res, 404, 'NotFound', `no route ${req.method} ${url.pathname}`);
    if (route.kind === 'method_not_allowed') {
      return fail(res, 405, 'MethodNotAllowed', `use ${route.allowed.join(', ')}`, {
        allow: route.allowed.join(', '),
      });
    }
    if (route.name === 'registerClient') {
      const retryAfter = registrations.take();
      if (retryAfter > 0) {
        return fail(res, 429, 'TooManyRequests', 'too many client registrations; try again later', {
          'retry-after': String(retryAfter),
        });
      }
    }
    let body: unknown;
    if (commands[route.name].http.method === 'GET') {
      body = Object.fromEntries(url.searchParams);
    } else {
      try {
        body = await readJson(req, maxBody);
      } catch (error) {
        if (error instanceof BodyError)
          return fail(res, error.status, error.errorName, error.message);
        throw error;
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        return fail(res, 400, 'BadRequest', 'body must be a JSON object');
      }
    }
    for (const [key, value] of Object.entries(route.params)) {
      if (key in (body as object) && (body as Record<string, unknown>)[key] !== value) {
        return fail(res, 400, 'BadRequest', `${key} in the body differs from the path`);
      }
    }
    const result = await dispatch(
      core.handlers,
      route.name,
      { ...(body as object), ...route.params },
      caller,
      { encoded: true },
    );
    if (result.ok) return send(res, result.status, result.result);
    return send(res, result.status, { error: result.error });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.error('request failed:', error);
      if (!res.headersSent) fail(res, 500, 'InternalError', 'internal error');
      else res.destroy();
    });
  });
  server.on('connection', onConnection);
  server.headersTimeout = 10_000;
  server.requestTimeout = 0; // prompts and SSE run as long as the agent does

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://${isWildcardHost(host) ? '127.0.0.1' : hostPart(host)}:${port}`,
        port,
        replaceToken: (token) => {
          tokenDigest = digest(token);
          streams.endAll();
        },
        host,
        networkUrls: networkUrls(host, port),
        eventStreams: () => streams.stats(),
        close: () =>
          new Promise<void>((done) => {
            streams.endAll();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
