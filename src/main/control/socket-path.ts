// Where the core of a home listens for local processes: a Unix domain socket inside the home, or on
// Windows a named pipe whose name is derived from the home (pipes live in their own namespace).
import { createHash } from 'node:crypto';
import { join, win32 } from 'node:path';

export const SOCKET_FILE = 'gatehouse.sock';

/**
 * sockaddr_un holds 108 bytes on Linux and 104 on macOS, the terminating NUL included; a longer
 * path cannot be bound, so a home that deep is refused with a reason instead.
 */
const MAX_SOCKET_PATH_BYTES = 103;

export class SocketPathError extends Error {}

export function controlSocketPath(
  home: string,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') {
    const digest = createHash('sha256').update(win32.resolve(home).toLowerCase()).digest('hex');
    return `\\\\.\\pipe\\gatehouse-${digest.slice(0, 32)}`;
  }
  const path = join(home, SOCKET_FILE);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new SocketPathError(
      `the control socket path ${path} is longer than ${MAX_SOCKET_PATH_BYTES} bytes: set GATEHOUSE_HOME to a shorter folder`,
    );
  }
  return path;
}
