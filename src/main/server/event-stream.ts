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
 * Bytes one stream may hold written but not yet taken by its socket. Nothing counts here until the
 * kernel's own buffers for the connection are full (about 4 MB on loopback), so a page that reads
 * is never this far behind; one that is has stopped reading (a sleeping phone, a frozen tab, a local
 * program holding the token that never reads) and would otherwise make the core keep every event
 * for as long as its socket stays open. 4 MiB is small beside the core's own memory and, as every
 * stream is handed the same buffer of a turn, streams that stall together hold the same bytes, not
 * a copy each. The limit is checked before each write, not after: one approval alone can be about
 * 5 MiB of JSON, and a stream that took everything sent before it gets it whole however slow its
 * link; a stalled stream holds at most the limit and the one chunk that took it past.
 */
export const STREAM_BACKLOG_MAX_BYTES = 4 * 1024 * 1024;

/** What the server's streams hold now, and how many were ended for not reading. */
export interface EventStreamStats {
  open: number;
  /** Bytes written to the open streams and not yet taken by their sockets. */
  unflushedBytes: number;
  cutOff: number;
}

/**
 * Server-sent events: every core event, as `event: <type>` with the JSON payload. A client that
 * reconnects re-reads GET /api/approvals, so nothing is replayed here. A paired client listening
 * here is present (a consensus voter) for as long as its stream is open. A client that stops
 * reading is disconnected once it holds more than the limit: it catches up the way any reconnect
 * does (a log line, not the audit: it changes nothing Gatehouse allows).
 */
export class EventStreams {
  /** Each open stream, with what ends it from the server's side. */
  private readonly streams = new Map<ServerResponse, () => void>();
  private cutOff = 0;

  constructor(private readonly backlogMaxBytes = STREAM_BACKLOG_MAX_BYTES) {}

  open(core: Core, caller: Caller, req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...SECURITY_HEADERS,
    });
    res.write('retry: 2000\n: connected\n\n');
    res.socket?.setNoDelay(true);
    // Read now: once the socket is destroyed its address is gone.
    const peer = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
    let open = true;
    /** True when the stream may be written to; false once it is over the limit and ended. */
    const within = () => {
      const unflushed = res.writableLength;
      if (unflushed <= this.backlogMaxBytes) return true;
      this.cutOff++;
      log.warn(
        `event stream of ${describe(caller)} at ${peer} ended: ${unflushed} bytes not read ` +
          `(limit ${this.backlogMaxBytes})`,
      );
      done();
      // Destroying the socket drops what it holds; the client's reconnect re-reads the state.
      res.destroy();
      return false;
    };
    const leave = fanoutOf(core.bus).add((chunk) => {
      if (open && within()) res.write(chunk);
    });
    const heartbeat = setInterval(() => {
      // A stream still taking earlier bytes is heard from by those: a beat would only pile up.
      if (open && within() && res.writableLength === 0) res.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const left =
      caller.paired && caller.clientId ? core.clients.streamOpened(caller.clientId) : null;
    const done = () => {
      if (!open) return;
      open = false;
      left?.();
      clearInterval(heartbeat);
      leave();
      this.streams.delete(res);
    };
    req.on('close', done);
    res.on('close', done);
    this.streams.set(res, () => {
      // Nothing is written after the end (a write after it is an error no one would catch).
      done();
      res.end();
      // One that has not taken what was sent would never read the end either: it is dropped.
      if (res.writableLength > 0) res.destroy();
    });
  }

  /** Ends every open stream (the token changed, or the server stops). */
  endAll(): void {
    for (const end of [...this.streams.values()]) end();
  }

  stats(): EventStreamStats {
    let unflushedBytes = 0;
    for (const stream of this.streams.keys()) unflushedBytes += stream.writableLength;
    return { open: this.streams.size, unflushedBytes, cutOff: this.cutOff };
  }
}

/** The client as the server knows it: a proven id, or anonymous with the bearer token. */
function describe(caller: Caller): string {
  const who = caller.clientId ? `client ${caller.clientId}` : 'an anonymous client';
  return `${who} (${caller.surface}, ${caller.paired ? 'paired' : 'not paired'})`;
}
