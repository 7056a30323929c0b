import { lookup } from 'node:dns/promises';
import { BlockList, connect, createServer, isIP, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { hostAllowed, type HostRule } from './profile';

// Taken as the builtin, not as an ES module, so that loading the core does not read every export of
// node:http and with them load undici (see server/http-server.ts).
const { createServer: createHttpServer } = process.getBuiltinModule('node:http');

/** The longest path a bridge's socket may have: sun_path holds 108 bytes, and a longer one is cut. */
const MAX_SOCKET_PATH = 100;
/** The longest name of a bridge's sockets (the forwards' are `f<index>`). */
const PROXY_SOCKET = 'proxy';

/**
 * Why a bridge cannot listen in `dir`, or null: a socket path past the bound would be cut, and a
 * cut path names another file (the folder itself, or one beside it).
 */
export function bridgeTooDeep(dir: string): string | null {
  return join(dir, PROXY_SOCKET).length > MAX_SOCKET_PATH
    ? `the Gatehouse home path is too long for unix sockets: ${dirname(dir)}`
    : null;
}

/** A connection the sandbox refused. */
export interface NetworkViolation {
  kind: 'network';
  host: string;
  port: number;
  reason: 'not-allowed' | 'unresolvable' | 'resolves-to-local-address' | 'not-connect';
}

export interface Bridge {
  /** One unix socket per allowed loopback destination, and the proxy's when remote hosts are allowed. */
  forwards: { host: string; port: number; socket: string }[];
  proxySocket: string | null;
  close(): Promise<void>;
}

// A name the agent may reach must not lead back to this machine or its cloud metadata service:
// only the loopback host:port pairs named explicitly are forwarded, and they do not pass here.
const LOCAL_ADDRESSES = new BlockList();
LOCAL_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL_ADDRESSES.addSubnet('0.0.0.0', 8, 'ipv4');
LOCAL_ADDRESSES.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL_ADDRESSES.addAddress('::1', 'ipv6');
LOCAL_ADDRESSES.addAddress('::', 'ipv6');
LOCAL_ADDRESSES.addSubnet('fe80::', 10, 'ipv6');
LOCAL_ADDRESSES.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/**
 * Starts the outside half of an allow-list network: loopback destinations are forwarded as they
 * are; remote hosts go through an HTTP CONNECT proxy that passes only the allowed host:port pairs.
 * With `proxyAlways`, the proxy listens even with no remote host allowed: it then refuses every
 * connection and reports each one's host (a command tried before anyone allows it).
 */
export async function startBridge(
  dir: string,
  loopback: readonly HostRule[],
  remote: readonly HostRule[],
  onViolation: (violation: NetworkViolation) => void,
  proxyAlways = false,
): Promise<Bridge> {
  const servers: Server[] = [];
  const open = new Set<Socket>();
  const forwards: Bridge['forwards'] = [];
  try {
    for (const [index, rule] of loopback.entries()) {
      const socket = join(dir, `f${index}`);
      const target = { host: rule.host.replace(/^\[|\]$/g, ''), port: rule.port };
      servers.push(
        await listen(
          createServer((client) => pipeTo(client, connect(target), open)),
          socket,
        ),
      );
      forwards.push({ host: rule.host, port: rule.port, socket });
    }
    let proxySocket: string | null = null;
    if (remote.length > 0 || proxyAlways) {
      proxySocket = join(dir, PROXY_SOCKET);
      servers.push(await listen(connectProxy(remote, onViolation, open), proxySocket));
    }
    return { forwards, proxySocket, close: () => closeAll(servers, open) };
  } catch (error) {
    await closeAll(servers, open);
    throw error;
  }
}

function connectProxy(
  rules: readonly HostRule[],
  onViolation: (violation: NetworkViolation) => void,
  open: Set<Socket>,
): Server {
  const server = createHttpServer((request, response) => {
    // Plain HTTP through the proxy would travel in clear; model APIs are HTTPS.
    const host = request.headers.host ?? '';
    onViolation({ kind: 'network', host, port: 80, reason: 'not-connect' });
    response
      .writeHead(403, { 'content-type': 'text/plain' })
      .end('blocked by the Gatehouse sandbox\n');
  });
  server.on('connect', (request, client: Socket, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(request.url ?? '');
    const host = (target?.[1] ?? '').toLowerCase();
    const port = Number(target?.[2] ?? 0);
    const refuse = (reason: NetworkViolation['reason']): void => {
      onViolation({ kind: 'network', host, port, reason });
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
    };
    if (!target || !hostAllowed(rules, host, port)) return refuse('not-allowed');
    void resolveOnce(host.replace(/^\[|\]$/g, '')).then((address) => {
      if (!address) return refuse('unresolvable');
      if (LOCAL_ADDRESSES.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4'))
        return refuse('resolves-to-local-address');
      const upstream = connect({ host: address, port }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        pipeTo(client, upstream, open);
      });
      upstream.once('error', () =>
        client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'),
      );
    });
  });
  return server;
}

/** The address to dial, resolved once so that what was checked is what is dialled. */
async function resolveOnce(host: string): Promise<string | null> {
  try {
    const { address } = await lookup(host);
    return isIP(address) === 0 ? null : address;
  } catch {
    return null;
  }
}

function pipeTo(client: Socket, upstream: Socket, open: Set<Socket>): void {
  open.add(client).add(upstream);
  client.pipe(upstream).pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => {
    open.delete(client);
    upstream.destroy();
  });
  upstream.on('close', () => {
    open.delete(upstream);
    client.destroy();
  });
}

function listen(server: Server, path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve(server));
  });
}

async function closeAll(servers: Server[], open: Set<Socket>): Promise<void> {
  // Open tunnels would keep close() waiting; the sandbox is gone.
  for (const socket of open) socket.destroy();
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
}
