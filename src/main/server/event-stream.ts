import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatehouseEvent } from '../../shared/contract';
import type { Caller, Core } from '../core';
import { SECURITY_HEADERS } from '../../shared/security-headers';

/**
 * A comment line this often, events or not: a page that hears nothing for longer than a beat and a
 * half knows the core is gone or unreachable (a frozen process, a dropped network, a sleeping
 * laptop) even where no connection closes, and says so before it shows a countdown as live.
 */
export const HEARTBEAT_MS = 1000;

/** Each event is serialised once, however many streams are open (every browser tab has one). */
const frames = new WeakMap<GatehouseEvent, string>();
function frameOf(event: GatehouseEvent): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    frame = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    frames.set(event, frame);
  }
  return frame;
}

/**
 * Server-sent events: every core event, as `event: <type>` with the JSON payload. A client that
 * reconnects re-reads GET /api/approvals, so nothing is replayed here. A paired client listening
 * here is present (a consensus voter) for as long as its stream is open.
 */
export function openEventStream(
  core: Core,
  caller: Caller,
  req: IncomingMessage,
  res: ServerResponse,
  streams: Set<ServerResponse>,
): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...SECURITY_HEADERS,
  });
  res.write('retry: 2000\n: connected\n\n');
  res.socket?.setNoDelay(true);
  streams.add(res);
  let open = true;
  let seq = 0;
  // Events published together (a request and its transcript's change) leave in one write: one
  // syscall and one wake-up of the client instead of one per event.
  let unsent = '';
  const send = () => {
    const frames = unsent;
    unsent = '';
    if (open) res.write(frames);
  };
  const unsubscribe = core.bus.subscribe((event) => {
    if (unsent === '') process.nextTick(send);
    unsent += `id: ${++seq}\n${frameOf(event)}`;
  });
  const heartbeat = setInterval(() => {
    if (open) res.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const left = caller.paired && caller.clientId ? core.clients.streamOpened(caller.clientId) : null;
  const done = () => {
    if (!open) return;
    open = false;
    left?.();
    clearInterval(heartbeat);
    unsubscribe();
    streams.delete(res);
  };
  req.on('close', done);
  res.on('close', done);
}
