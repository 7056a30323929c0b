// A raw connection to a control socket: whatever bytes a test wants to send, and each line the
// core answers, parsed. (The `gatehouse` command's own client, src/cli/control-client.ts, only sends
// well-formed requests.)
import { connect, type Socket } from 'node:net';
import { CONTROL_PROTOCOL } from '../../src/shared/control-protocol';

export interface RawControl {
  socket: Socket;
  send(text: string | Buffer): void;
  /** The next line the core sends, parsed; rejects if the connection closes first. */
  next(timeoutMs?: number): Promise<unknown>;
  /** Resolves when the core has closed the connection. */
  closed: Promise<void>;
  hello(): Promise<unknown>;
}

export async function rawControl(path: string): Promise<RawControl> {
  const socket = connect(path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const lines: string[] = [];
  const wakers = new Set<() => void>();
  let buffered = '';
  let ended = false;
  const wake = () => wakers.forEach((waker) => waker());
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    lines.push(...parts);
    wake();
  });
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      ended = true;
      wake();
      resolve();
    }),
  );
  const next = async (timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (lines.length === 0) {
      if (ended) throw new Error('the connection closed');
      if (Date.now() > deadline) throw new Error('no line in time');
      await new Promise<void>((resolve) => {
        const waker = () => {
          wakers.delete(waker);
          resolve();
        };
        wakers.add(waker);
        setTimeout(waker, 50);
      });
    }
    return JSON.parse(lines.shift()!) as unknown;
  };
  const send = (text: string | Buffer) => socket.write(text);
  return {
    socket,
    send,
    next,
    closed,
    hello() {
      send(
        `${JSON.stringify({ jsonrpc: '2.0', id: 'hello', method: 'hello', params: { client: 'proxy', version: 'test', protocol: CONTROL_PROTOCOL } })}\n`,
      );
      return next();
    },
  };
}
