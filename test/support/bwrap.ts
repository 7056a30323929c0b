// Sandbox tests run where bubblewrap does; elsewhere they are skipped with the reason printed.
import { createServer } from 'node:net';
import { findBwrap } from '../../src/main/core/sandbox/wrap';

/** Why the sandbox cannot run here (printed once for `suite`), or null when it can. */
export function bwrapMissing(suite: string): string | null {
  try {
    findBwrap();
    return null;
  } catch (error) {
    const reason = (error as Error).message;
    console.warn(`${suite} tests skipped: ${reason}`);
    return reason;
  }
}

/**
 * A loopback server that sends `text` to every connection and ends it, as a model server greets;
 * closed by the cleanup it adds to `cleanups`. Resolves with its port.
 */
export async function loopbackGreeter(
  text: string,
  cleanups: Array<() => unknown>,
): Promise<number> {
  const server = createServer((socket) => socket.end(text));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}
