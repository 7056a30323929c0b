/** A write or read the sandbox refused, as the agent reported it on stderr. */
export interface FileViolation {
  kind: 'file';
  path: string;
  /** EBUSY: a mount point (a protected path or a folder on its way) cannot be renamed or removed. */
  error: 'EROFS' | 'EACCES' | 'EPERM' | 'EBUSY';
}

// Node (`EROFS: read-only file system, open '/x'`) and C tools (`/x: Read-only file system`,
// `rm: cannot remove '/x': Device or resource busy`).
const NODE_STYLE = /\b(EROFS|EACCES|EPERM|EBUSY): [^,\n]*, \w+ '([^'\n]{1,4096})'/g;
const LIBC_STYLE =
  /(?:^|[\s'"`])(\/[^\s:'"`]{0,4096})['"`]?: (Read-only file system|Permission denied|Operation not permitted|Device or resource busy)/gm;
const LIBC_CODES = {
  'Read-only file system': 'EROFS',
  'Permission denied': 'EACCES',
  'Operation not permitted': 'EPERM',
  'Device or resource busy': 'EBUSY',
} as const;

/**
 * The refused paths named in a piece of the agent's stderr (at most 64 KiB of it is read), once per
 * mention: an agent that keeps failing on a path is told apart from one that failed once.
 */
export function fileViolationsIn(stderr: string): FileViolation[] {
  const text = stderr.slice(0, 64 * 1024);
  const found: FileViolation[] = [];
  for (const match of text.matchAll(NODE_STYLE)) {
    const [, error, path] = match;
    if (error && path) found.push({ kind: 'file', path, error: error as FileViolation['error'] });
  }
  for (const match of text.matchAll(LIBC_STYLE)) {
    const [, path, message] = match;
    const error = LIBC_CODES[message as keyof typeof LIBC_CODES];
    if (path && error) found.push({ kind: 'file', path, error });
  }
  return found;
}

/** A connection the agent reported failing because its network namespace has no way there. */
export interface StderrNetworkViolation {
  kind: 'network';
  host: string;
  port: number;
  reason: 'refused-inside-sandbox';
}

// Inside the sandbox only its own loopback exists: a loopback port nobody forwards refuses
// (ECONNREFUSED), any other address is unreachable (ENETUNREACH). Node prints `connect ECONNREFUSED
// 127.0.0.1:9`.
const CONNECT_STYLE =
  /\bconnect (ECONNREFUSED|ENETUNREACH) (\d{1,3}(?:\.\d{1,3}){3}|::1|[0-9a-fA-F:]{2,39}):(\d{1,5})\b/g;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1)$/;

/** Connections named in the agent's stderr that the sandbox's network namespace stopped, per mention. */
export function networkViolationsIn(stderr: string): StderrNetworkViolation[] {
  const text = stderr.slice(0, 64 * 1024);
  const found: StderrNetworkViolation[] = [];
  for (const match of text.matchAll(CONNECT_STYLE)) {
    const [, code, host, port] = match;
    if (!host || !port) continue;
    // A refused connection elsewhere is the remote's doing, not the sandbox's.
    if (code === 'ECONNREFUSED' && !LOOPBACK.test(host)) continue;
    found.push({ kind: 'network', host, port: Number(port), reason: 'refused-inside-sandbox' });
  }
  return found;
}

/** A Unix socket the agent could not connect to: the sandbox refuses socket(AF_UNIX). */
export interface SocketViolation {
  kind: 'socket';
  path: string;
}

// Only Node names the socket with the refusal (`connect EPERM /run/user/1000/bus`); curl, ssh and
// Python print no path, and what they tried is not known here.
const SOCKET_STYLE = /\bconnect EPERM (\/[^\s'"`]{1,4096})/g;

/** Unix sockets named in the agent's stderr that the socket filter stopped, per mention. */
export function socketViolationsIn(stderr: string): SocketViolation[] {
  const text = stderr.slice(0, 64 * 1024);
  return [...text.matchAll(SOCKET_STYLE)].map(([, path]) => ({ kind: 'socket', path: path! }));
}
