import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatehouseEvent } from '../../shared/contract';
import { type Caller, type Core, type EventBus, logger } from '../core';
import { SECURITY_HEADERS } from '../../shared/security-headers';
import { fail } from './respond';

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

/**
 * Event streams one server keeps open at once. A person's browsers and phones, with an editor or a
 * terminal beside them, hold a handful, a few more for tabs and for reconnects whose old stream is
 * not yet seen closed; 64 is far past that. Each stream is a socket, its kernel buffers (about 4 MB
 * on loopback once it stops reading) and up to STREAM_BACKLOG_MAX_BYTES here, so a program holding
 * the token could otherwise make the server keep as many as it cares to open.
 */
export const MAX_EVENT_STREAMS = 64;

/** What the server's streams hold now, and how many were ended or refused. */
export interface EventStreamStats {
  open: number;
  /** Bytes written to the open streams and not yet taken by their sockets. */
  unflushedBytes: number;
  cutOff: number;
  /** Streams ended to make room for a newer one past MAX_EVENT_STREAMS. */
  displaced: number;
  /** Streams refused past MAX_EVENT_STREAMS (503): every open one was a person's paired client. */
  refused: number;
}

/** One open stream: who opened it, from where, and what ends it from the server's side. */
interface OpenStream {
  caller: Caller;
  peer: string;
  end: () => void;
}

/**
 * Server-sent events: every core event, as `event: <type>` with the JSON payload. A page re-reads
 * what each of its views shows whenever its stream opens, so nothing is replayed here. A paired
 * client listening here is present (a consensus voter) for as long as its stream is open. A client
 * that stops reading is disconnected once it holds more than the limit: it catches up the way any
 * reconnect does (a log line, not the audit: it changes nothing Gatehouse allows). At most
 * MAX_EVENT_STREAMS are open at once (see makeRoom for which gives way).
 */
export class EventStreams {
  /** Each open stream, oldest first (a Map keeps the order streams were added in). */
  private readonly streams = new Map<ServerResponse, OpenStream>();
  private cutOff = 0;
  private displaced = 0;
  private refused = 0;

  constructor(
    private readonly backlogMaxBytes = STREAM_BACKLOG_MAX_BYTES,
    private readonly maxStreams = MAX_EVENT_STREAMS,
  ) {}

  open(core: Core, caller: Caller, req: IncomingMessage, res: ServerResponse): void {
    // Read now: once the socket is destroyed its address is gone.
    const peer = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
    if (this.streams.size >= this.maxStreams && !this.makeRoom(core, caller, peer)) {
      this.refused++;
      log.warn(
        `event stream of ${describe(caller)} at ${peer} refused: ${this.streams.size} streams ` +
          `open (limit ${this.maxStreams}), each a paired client's`,
      );
      return fail(
        res,
        503,
        'TooManyStreams',
        `${this.maxStreams} event streams are open, each a paired client's; pair this client or close one`,
        { 'retry-after': '5' },
      );
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...SECURITY_HEADERS,
    });
    res.write('retry: 2000\n: connected\n\n');
    res.socket?.setNoDelay(true);
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
    this.streams.set(res, {
      caller,
      peer,
      end: () => {
        // Nothing is written after the end (a write after it is an error no one would catch).
        done();
        res.end();
        // One that has not taken what was sent would never read the end either: it is dropped.
        if (res.writableLength > 0) res.destroy();
      },
    });
  }

  /**
   * At the limit, a new stream takes the place of an older one rather than be refused, so a program
   * holding the token that opens streams without end cannot lock a person's own browser out: it
   * only ever displaces streams no paired client holds, its own first. A person's paired browser
   * or phone is never refused: it displaces the oldest stream without a paired identity, else the
   * oldest of the paired client holding the most streams (a program that stole a pairing and
   * filled every place gives way before a person's one tab, and its own new streams end its own
   * old ones; a person's tabs, sharing their browser's identity, do not take turns ending each
   * other). Only a client without a paired identity is refused, and only when every open stream
   * is a paired client's. Whether a stream is paired is asked now, not when it opened: a revoked
   * client's streams count as anyone's. The ended client reconnects as after any cut (a log line,
   * not the audit: it changes nothing Gatehouse allows).
   */
  private makeRoom(core: Core, caller: Caller, peer: string): boolean {
    const open = [...this.streams.values()];
    const paired = (c: Caller) =>
      c.paired && c.clientId !== null && core.clients.isRegistered(c.clientId);
    const unproven = open.filter((s) => !paired(s.caller));
    const victim = paired(caller)
      ? (unproven[0] ?? oldestOfLargest(open))
      : (unproven.find((s) => s.caller.clientId === caller.clientId) ?? unproven[0]);
    if (!victim) return false;
    this.displaced++;
    log.warn(
      `event stream of ${describe({ ...victim.caller, paired: paired(victim.caller) })} at ` +
        `${victim.peer} ended: ${open.length} ` +
        `streams open (limit ${this.maxStreams}), ${describe(caller)} at ${peer} opened another`,
    );
    victim.end();
    return true;
  }

  /** Ends every open stream (the token changed, or the server stops). */
  endAll(): void {
    for (const { end } of [...this.streams.values()]) end();
  }

  stats(): EventStreamStats {
    let unflushedBytes = 0;
    for (const stream of this.streams.keys()) unflushedBytes += stream.writableLength;
    return {
      open: this.streams.size,
      unflushedBytes,
      cutOff: this.cutOff,
      displaced: this.displaced,
      refused: this.refused,
    };
  }
}

/** The oldest stream of the client holding the most (of two holding as many, the earlier one). */
function oldestOfLargest(open: readonly OpenStream[]): OpenStream | undefined {
  const byClient = new Map<string | null, OpenStream[]>();
  for (const stream of open) {
    const list = byClient.get(stream.caller.clientId);
    if (list) list.push(stream);
    else byClient.set(stream.caller.clientId, [stream]);
  }
  let largest: OpenStream[] = [];
  for (const list of byClient.values()) if (list.length > largest.length) largest = list;
  return largest[0];
}

/** The client as the server knows it: a proven id, or anonymous with the bearer token. */
function describe(caller: Caller): string {
  const who = caller.clientId ? `client ${caller.clientId}` : 'an anonymous client';
  return `${who} (${caller.surface}, ${caller.paired ? 'paired' : 'not paired'})`;
}
