// The control socket: the one core of a home listens here for local processes (the `gatehouse`
// command now, an ACP proxy or a hook later). A Unix domain socket 0600 in the 0700 data folder, or
// a named pipe on Windows. Node cannot read a Unix peer's credentials (SO_PEERCRED) without native
// code, so the file modes and the sandbox, which hides the data folder from agents, are the gate —
// and the method table gives whoever gets through nothing to act on (docs/security.md).
import { chmodSync, lstatSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import {
  CONTROL_MAX_CONNECTIONS,
  CONTROL_MAX_MESSAGE_BYTES,
  RPC_ERRORS,
  type RpcResponse,
} from '../../shared/control-protocol';
import { type Core, ensurePrivateHome, type HomeLock, logger } from '../core';
import type { ControlConnection } from './connection';
import { dispatchControlLine, rpcError } from './dispatch';
import { hookDisconnected } from './hook-methods';
import { LineReader } from './line-reader';
import { controlHandlers } from './methods';
import { proxyDisconnected } from './proxy-methods';
import { controlSocketPath } from './socket-path';
import { writesPerTick } from './tick-writes';

const controlLog = logger('control');

export interface ControlServerOptions {
  core: Pick<Core, 'home' | 'sessions' | 'pipeline' | 'editorSessions' | 'terminalSessions'>;
  /** Held by this process: only its holder may replace a socket left behind by a dead core. */
  lock: HomeLock;
  maxConnections?: number;
  maxMessageBytes?: number;
  /** A connection that has not said hello by then is closed. */
  helloTimeoutMs?: number;
  log?: (message: string, error?: unknown) => void;
  /** Gives the HTTP server a new bearer token (headless only). */
  rotateToken?: () => void;
}

export interface ControlServer {
  readonly path: string;
  /** Stops listening, ends every connection and removes the socket file. */
  close(): Promise<void>;
}

/** Replies a peer does not read pile up here; past this its connection is dropped. */
const MAX_UNREAD_BYTES = 4 * 1024 * 1024;
const DEFAULT_HELLO_TIMEOUT_MS = 10_000;
const REFUSED_LINGER_MS = 1000;

/** A socket file a dead core left behind is removed; anything else at that path is not ours. */
function removeStaleSocket(path: string): void {
  try {
    if (!lstatSync(path).isSocket()) {
      throw new Error(`${path} exists and is not a socket: Gatehouse will not replace it`);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  rmSync(path);
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const { core, lock } = options;
  const maxConnections = options.maxConnections ?? CONTROL_MAX_CONNECTIONS;
  const maxMessageBytes = options.maxMessageBytes ?? CONTROL_MAX_MESSAGE_BYTES;
  const helloTimeoutMs = options.helloTimeoutMs ?? DEFAULT_HELLO_TIMEOUT_MS;
  const log =
    options.log ??
    ((message, error) => controlLog.warn(message, ...(error === undefined ? [] : [error])));
  const handlers = controlHandlers(core, lock, options.rotateToken);
  const path = controlSocketPath(core.home);
  const unix = process.platform !== 'win32';
  const sockets = new Set<Socket>();

  const writers = new WeakMap<Socket, (data: string) => void>();
  const send = (socket: Socket, response: RpcResponse) => {
    if (socket.destroyed || socket.writableEnded) return;
    let write = writers.get(socket);
    if (!write) writers.set(socket, (write = writesPerTick(socket)));
    write(`${JSON.stringify(response)}\n`);
    if (socket.writableLength > MAX_UNREAD_BYTES) socket.destroy();
  };
  /** Says why, then closes; a peer that keeps its end open is cut off shortly after. */
  const refuse = (socket: Socket, response: RpcResponse) => {
    send(socket, response);
    socket.end();
    setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  };

  let accepted = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (accepted >= maxConnections) {
      refuse(
        socket,
        rpcError(null, RPC_ERRORS.busy, `busy: ${maxConnections} connections are open`),
      );
      return;
    }
    accepted += 1;
    socket.on('close', () => (accepted -= 1));
    const connection: ControlConnection = { client: null };
    socket.on('close', () => proxyDisconnected(core.editorSessions, connection));
    socket.on('close', () => hookDisconnected(core.terminalSessions, connection));
    const helloTimer = setTimeout(() => {
      if (!connection.client)
        refuse(socket, rpcError(null, RPC_ERRORS.helloFirst, 'no hello in time'));
    }, helloTimeoutMs);
    socket.on('close', () => clearTimeout(helloTimer));
    const reader = new LineReader(maxMessageBytes);
    socket.on('data', (chunk: Buffer) => {
      for (const event of reader.push(chunk)) {
        if (event.type === 'too_large') {
          refuse(
            socket,
            rpcError(
              null,
              RPC_ERRORS.messageTooLarge,
              `message too large: over ${event.limit} bytes`,
            ),
          );
          return;
        }
        void dispatchControlLine(event.line, connection, handlers, (error) =>
          log('a control method failed', error),
        ).then((response) => {
          if (response) send(socket, response);
        });
      }
    });
  });

  if (unix) {
    ensurePrivateHome(core.home);
    removeStaleSocket(path);
  }
  await listen(server, path);
  // The folder is 0700 already, so the moment between bind and chmod exposes nothing.
  if (unix) chmodSync(path, 0o600);
  lock.update({ socket: path });

  let closing: Promise<void> | null = null;
  return {
    path,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }).then(() => {
        lock.update({ socket: null });
        if (unix) rmSync(path, { force: true });
      });
      return closing;
    },
  };
}
