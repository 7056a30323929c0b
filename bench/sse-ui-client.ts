// The parent's end of bench/sse-client.ts: the UI client in its own process, as a browser would be.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLIENT = fileURLToPath(new URL('./sse-client.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ClientSample {
  requestId: string;
  callId: string;
  delayNs: number;
}

/** Resolves once the client's event stream is open; it votes on the oldest request every `voteMs`. */
export function startClient(url: string, token: string, voteMs: number): Promise<ChildProcess> {
  const child = fork(CLIENT, [url, token, String(voteMs)], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`sse client exited (${code}) before it was ready`)),
    );
    child.on('message', (message: { type?: string }) => {
      if (message.type === 'ready') resolve(child);
    });
  });
}

/**
 * Stops the client's voting and takes its delays, ns. Each session's first request arrived while the
 * sessions were still starting together: left out.
 */
export function collect(child: ChildProcess): Promise<number[]> {
  return new Promise((resolve) => {
    child.on('message', (message: { type?: string; samples?: ClientSample[] }) => {
      if (message.type !== 'samples') return;
      resolve((message.samples ?? []).filter((s) => s.callId !== 'call-0').map((s) => s.delayNs));
    });
    child.send({ type: 'done' });
  });
}

/** Drops the samples taken so far (the warm-up round's). */
export function reset(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const done = (message: { type?: string }) => {
      if (message.type !== 'reset') return;
      child.off('message', done);
      resolve();
    };
    child.on('message', done);
    child.send({ type: 'reset' });
  });
}

/** Stops the client's voting and takes every sample with the tool call it was for. */
export function collectByCall(child: ChildProcess): Promise<ClientSample[]> {
  return new Promise((resolve) => {
    child.on('message', (message: { type?: string; samples?: ClientSample[] }) => {
      if (message.type === 'samples') resolve(message.samples ?? []);
    });
    child.send({ type: 'done' });
  });
}
