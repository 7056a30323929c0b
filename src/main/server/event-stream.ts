import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatehouseEvent } from '../../shared/contract';
import { type Caller, type Core, type EventBus, logger } from '../core';
import { SECURITY_HEADERS } from '../../shared/security-headers';

/**
 * A comment line this often, events or not: a page that hears nothing for longer than a beat and a
 * half knows the core is gone or unreachable (a frozen process, a dropped network, a sleeping
 * laptop) even where no connection closes, and says so before it shows a countdown as live.
 */
export const HEARTBEAT_MS = 1000;

const log = logger('http');

type Write = (chunk: Buffer) => void;

/**
 * Every open stream of one bus, fed from one subscription. Each event is serialised once, and the
 * events of one turn of the event loop (a request and its transcript's change, or several agents'
 * lines read in the same poll) leave as one chunk, encoded once and written once to every stream:
 * a write is a syscall and a wake-up of the client, and under load they were most of what a stream
 * cost. The ids number the server's events, so every stream of a turn gets the same bytes.
 */
class Fanout {
  private readonly streams = new Set<Write>();
  /** Streams opened while a turn's chunk was being built: they get only what came after. */
  private readonly joinedAt = new Map<Write, number>();
  private seq = 0;
  private unsent = '';
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly bus: EventBus) {}

  add(write: Write): () => void {
    this.streams.add(write);
    if (this.unsent !== '') this.joinedAt.set(write, this.unsent.length);
    // No stream, no subscription: nothing is serialised for nobody.
    this.unsubscribe ??= this.bus.subscribe(this.onEvent);
    return () => {
      this.streams.delete(write);
      this.joinedAt.delete(write);
      if (this.streams.size > 0) return;
      this.unsubscribe?.();
      this.unsubscribe = null;
      this.unsent = '';
    };
  }

  private readonly onEvent = (event: GatehouseEvent) => {
    if (this.unsent === '') setImmediate(this.flush);
    this.unsent += `id: ${++this.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  };

  private readonly flush = () => {
    const text = this.unsent;
    this.unsent = '';
    if (text === '') return;
    const chunk = Buffer.from(text, 'utf8');
    for (const write of this.streams) {
      const from = this.joinedAt.get(write);
      // One broken stream must not keep the others from hearing about a request.
      try {
        write(from === undefined ? chunk : Buffer.from(text.slice(from), 'utf8'));
      } catch (error) {
        log.error('event stream write failed:', error);
      }
    }
    this.joinedAt.clear();
  };
}

const fanouts = new WeakMap<EventBus, Fanout>();

function fanoutOf(bus: EventBus): Fanout {
  let fanout = fanouts.get(bus);
  if (!fanout) {
    fanout = new Fanout(bus);
    fanouts.set(bus, fanout);
  }
  return fanout;
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
  const leave = fanoutOf(core.bus).add((chunk) => {
    if (open) res.write(chunk);
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
    leave();
    streams.delete(res);
  };
  req.on('close', done);
  res.on('close', done);
}
