// The SSE stream over real HTTP connections: every event in order with its id, the events of one
// turn of the loop in one write, serialised once and the same bytes to every stream; a client that
// stops reading is ended once it holds more than the limit, one that reads slowly is not.
import {
  createServer,
  get,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { once } from 'node:events';
import { connect as connectSocket, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatehouseEvent } from '../../shared/contract';
import type { Caller } from '../core/approvals/clients';
import type { Core } from '../core/core';
import { EventBus } from '../core/events/bus';
import { installLogSink, type LogSink } from '../core/log/logger';
import { EventStreams, HEARTBEAT_MS } from './event-stream';

const caller: Caller = {
  clientId: null,
  identityProven: false,
  paired: false,
  fromLoopback: true,
  surface: 'api',
  transport: 'http',
};
const ended = (sessionId: string): GatehouseEvent =>
  ({ type: 'turn_ended', sessionId, stopReason: 'end_turn' }) as unknown as GatehouseEvent;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/**
 * A server with one stream route on `bus`; each connect() opens a stream and resolves with both ends.
 * `beforeOpen` runs in the same turn as the stream opens, just before.
 */
async function serve(
  bus = new EventBus(),
  beforeOpen?: { run: () => void },
  streams = new EventStreams(),
) {
  const core = { bus, clients: { streamOpened: () => () => {} } } as unknown as Core;
  const opened: ((res: ServerResponse) => void)[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    beforeOpen?.run();
    streams.open(core, caller, req, res);
    opened.shift()?.(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const connect = async (): Promise<{ res: ServerResponse; body: IncomingMessage }> => {
    const serverSide = new Promise<ServerResponse>((resolve) => opened.push(resolve));
    const body = await new Promise<IncomingMessage>((resolve) =>
      get(`http://127.0.0.1:${port}/`, resolve),
    );
    return { res: await serverSide, body };
  };
  /** A stream read from a bare socket, which the test pauses and resumes. */
  const connectRaw = async (): Promise<{ res: ServerResponse; client: RawClient }> => {
    const serverSide = new Promise<ServerResponse>((resolve) => opened.push(resolve));
    const socket = connectSocket(port, '127.0.0.1');
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const client = new RawClient(socket);
    await client.until(() => client.connected);
    return { res: await serverSide, client };
  };
  return { bus, connect, connectRaw, streams };
}

/**
 * What a client read, parsed as it arrives: the ids of the events, in order (each write holds whole
 * frames, so the chunked encoding's size lines never fall inside one).
 */
class RawClient {
  readonly ids: number[] = [];
  connected = false;
  private rest = '';
  private waiting: { ready: () => boolean; resolve: () => void }[] = [];

  constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const text = this.rest + chunk;
      const end = text.lastIndexOf('\n\n');
      this.rest = end < 0 ? text : text.slice(end + 2);
      const whole = end < 0 ? '' : text.slice(0, end + 2);
      if (whole.includes(': connected')) this.connected = true;
      for (const m of whole.matchAll(/id: (\d+)\nevent: /g)) this.ids.push(Number(m[1]));
      this.waiting = this.waiting.filter((w) => !(w.ready() && (w.resolve(), true)));
    });
  }

  until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ ready, resolve }));
  }
}

/** A server with one stream open; resolves with the bus, the server's response and the client's. */
async function stream(): Promise<{ bus: EventBus; res: ServerResponse; body: IncomingMessage }> {
  const { bus, connect } = await serve();
  return { bus, ...(await connect()) };
}

/** The chunks of events written to `res` (the heartbeat's comment lines are writes of their own). */
function eventWrites(res: ServerResponse) {
  const write = vi.spyOn(res, 'write');
  return () =>
    write.mock.calls.map(([chunk]) => String(chunk)).filter((chunk) => chunk.includes('event:'));
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Reads the stream until `count` events have arrived; returns their ids and types. */
function frames(body: IncomingMessage, count: number): Promise<{ id: string; type: string }[]> {
  return new Promise((resolve) => {
    let text = '';
    body.setEncoding('utf8');
    body.on('data', (chunk: string) => {
      text += chunk;
      const events = [...text.matchAll(/id: (\d+)\nevent: (\S+)\n/g)].map((m) => ({
        id: m[1]!,
        type: m[2]!,
      }));
      if (events.length >= count) resolve(events);
    });
  });
}

describe('the event stream', () => {
  it('sends every event in order, numbered, and the events of one moment in one write', async () => {
    const { bus, res, body } = await stream();
    const written = eventWrites(res);
    const arrived = frames(body, 3);
    bus.publish(ended('a'));
    bus.publish(ended('b'));
    await turn();
    expect(written()).toHaveLength(1);
    bus.publish(ended('c'));
    expect(await arrived).toEqual([
      { id: '1', type: 'turn_ended' },
      { id: '2', type: 'turn_ended' },
      { id: '3', type: 'turn_ended' },
    ]);
    expect(written()).toHaveLength(2);
  });

  it('writes the events of one turn of the loop together, those of its callbacks and promises too', async () => {
    const { bus, res, body } = await stream();
    const written = eventWrites(res);
    const arrived = frames(body, 3);
    bus.publish(ended('a'));
    process.nextTick(() => bus.publish(ended('b')));
    void Promise.resolve().then(() => bus.publish(ended('c')));
    await turn();
    expect(written()).toHaveLength(1);
    expect((await arrived).map((f) => f.id)).toEqual(['1', '2', '3']);
  });

  it('serialises an event once and sends every stream the same bytes', async () => {
    const { bus, connect } = await serve();
    const one = await connect();
    const two = await connect();
    const toOne = eventWrites(one.res);
    const toTwo = eventWrites(two.res);
    const stringify = vi.spyOn(JSON, 'stringify');
    const event = ended('a');
    bus.publish(event);
    bus.publish(ended('b'));
    await turn();
    expect(stringify.mock.calls.filter(([value]) => value === event)).toHaveLength(1);
    stringify.mockRestore();
    expect(toOne()).toHaveLength(1);
    expect(toOne()).toEqual(toTwo());
    expect(toOne()[0]).toContain('data: {"type":"turn_ended","sessionId":"a"');
  });

  it('still sends the other streams when writing to one fails', async () => {
    const { bus, connect } = await serve();
    const broken = await connect();
    const other = await connect();
    vi.spyOn(broken.res, 'write').mockImplementation(() => {
      throw new Error('socket gone');
    });
    const arrived = frames(other.body, 1);
    bus.publish(ended('a'));
    expect(await arrived).toEqual([{ id: '1', type: 'turn_ended' }]);
  });

  it('gives a stream opened later only what was published after it opened, numbered on', async () => {
    const hook = { run: () => {} };
    const { bus, connect } = await serve(new EventBus(), hook);
    const first = await connect();
    const toFirst = frames(first.body, 3);
    bus.publish(ended('before'));
    await turn();
    // Published in the very turn the later stream opens, before it: the first stream's only.
    hook.run = () => bus.publish(ended('as it opens'));
    const later = await connect();
    hook.run = () => {};
    const toLater = frames(later.body, 1);
    bus.publish(ended('after'));
    expect(await toFirst).toEqual([
      { id: '1', type: 'turn_ended' },
      { id: '2', type: 'turn_ended' },
      { id: '3', type: 'turn_ended' },
    ]);
    expect(await toLater).toEqual([{ id: '3', type: 'turn_ended' }]);
  });

  it('beats while nothing happens, so a page can tell a silent core from a gone one', async () => {
    const { body } = await stream();
    body.setEncoding('utf8');
    let text = '';
    await new Promise<void>((resolve) =>
      body.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes(': keep-alive\n\n')) resolve();
      }),
    );
    expect(HEARTBEAT_MS).toBeLessThanOrEqual(1000);
  });

  it('writes nothing for an event published after the client left', async () => {
    const { bus, res, body } = await stream();
    const write = vi.spyOn(res, 'write');
    body.destroy();
    await new Promise((resolve) => res.once('close', resolve));
    await new Promise((resolve) => setImmediate(resolve));
    bus.publish(ended('b'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(write).not.toHaveBeenCalled();
  });
});

/** An event as large as an agent's long message, so a test needs few of them to fill a socket. */
const large = (n: number): GatehouseEvent =>
  ({
    type: 'session_update',
    sessionId: 's',
    update: {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: `${n} ${'x'.repeat(60_000)}` },
    },
  }) as unknown as GatehouseEvent;
/** Bytes of one such event as the stream frames it (id and type lines included), rounded up. */
const LARGE_FRAME = 61_000;
/** More than the kernel's buffers for one loopback connection ever take (about 4 MB here). */
const NEVER = 64 * 1024 * 1024;

describe('a stream that falls behind', () => {
  let logged: Parameters<LogSink>[];
  let restoreSink: LogSink | undefined;
  afterEach(() => {
    if (restoreSink) installLogSink(restoreSink);
    restoreSink = undefined;
  });

  it('is ended once it holds more than the limit, what it held is freed, and the others hear everything', async () => {
    logged = [];
    restoreSink = installLogSink((...line) => logged.push(line));
    const limit = 256 * 1024;
    const { bus, connectRaw, streams } = await serve(
      new EventBus(),
      undefined,
      new EventStreams(limit),
    );
    const reader = await connectRaw();
    const stalled = await connectRaw();
    stalled.client.socket.pause();
    const socketClosed = once(stalled.res.socket!, 'close');
    let published = 0;
    let held = 0;
    const publish = async () => {
      bus.publish(large(++published));
      await turn();
      held = Math.max(held, stalled.res.writableLength);
      expect(published * LARGE_FRAME).toBeLessThan(NEVER);
    };
    // The kernel takes what it can first; past that, the server holds the bytes.
    while (stalled.res.writableLength === 0) await publish();
    // Not held up by the stalled one: an event published now reaches the reader while both are open.
    await publish();
    await reader.client.until(() => reader.client.ids.length === published);
    expect(streams.stats().open).toBe(2);
    while (streams.stats().cutOff === 0) await publish();

    expect(stalled.res.destroyed).toBe(true);
    // The socket lets go of its buffer once its handle has closed.
    await socketClosed;
    expect(stalled.res.writableLength).toBe(0);
    expect(held).toBeGreaterThan(limit);
    expect(held).toBeLessThanOrEqual(limit + LARGE_FRAME);
    expect(streams.stats()).toMatchObject({ open: 1, cutOff: 1 });
    await publish();
    await reader.client.until(() => reader.client.ids.length === published);
    expect(reader.client.ids).toEqual(Array.from({ length: published }, (_, i) => i + 1));
    expect(reader.res.destroyed).toBe(false);
    const warned = logged.filter(([level, scope]) => level === 'warn' && scope === 'http');
    expect(warned).toHaveLength(1);
    expect(String(warned[0]![2])).toMatch(
      new RegExp(
        `^event stream of an anonymous client \\(api, not paired\\) at 127\\.0\\.0\\.1:\\d+ ended: \\d+ bytes not read \\(limit ${limit}\\)$`,
      ),
    );
  });

  it('is sent no beat it has not taken, and is ended by the beat when no event follows', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const limit = 256 * 1024;
      const { bus, connectRaw, streams } = await serve(
        new EventBus(),
        undefined,
        new EventStreams(limit),
      );
      const stalled = await connectRaw();
      stalled.client.socket.pause();
      const write = vi.spyOn(stalled.res, 'write');
      const beats = () =>
        write.mock.calls.filter(([chunk]) => String(chunk).includes('keep-alive'));
      let published = 0;
      const publishUntil = async (done: () => boolean) => {
        while (!done()) {
          bus.publish(large(++published));
          await turn();
          expect(published * LARGE_FRAME).toBeLessThan(NEVER);
        }
      };
      await publishUntil(() => stalled.res.writableLength > 0);
      vi.advanceTimersByTime(HEARTBEAT_MS);
      expect(beats()).toEqual([]);
      expect(stalled.res.destroyed).toBe(false);
      // Past the limit and nothing more to send: the beat ends it rather than leave it holding.
      await publishUntil(() => stalled.res.writableLength > limit);
      expect(streams.stats().cutOff).toBe(0);
      vi.advanceTimersByTime(HEARTBEAT_MS);
      expect(beats()).toEqual([]);
      expect(stalled.res.destroyed).toBe(true);
      expect(streams.stats()).toMatchObject({ open: 0, cutOff: 1 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('is dropped when the server ends its streams, and no stream is written after its end', async () => {
    const { bus, connect, connectRaw, streams } = await serve();
    const reader = await connect();
    const readerEnded = once(reader.body.resume(), 'end');
    const stalled = await connectRaw();
    stalled.client.socket.pause();
    let published = 0;
    while (stalled.res.writableLength === 0) {
      bus.publish(large(++published));
      await turn();
      expect(published * LARGE_FRAME).toBeLessThan(NEVER);
    }
    // The reader has taken everything sent to it: only the stream that has not is dropped.
    while (reader.res.writableLength > 0) await turn();
    // As a new token does: every page hears its stream end and reconnects.
    streams.endAll();
    expect(streams.stats()).toMatchObject({ open: 0, cutOff: 0 });
    expect(stalled.res.destroyed).toBe(true);
    // A write after the end would be an error event no one listens to, which ends the process.
    bus.publish(ended('after'));
    await turn();
    await turn();
    await readerEnded;
  });

  it('is not ended while it reads, however slowly, within the limit', async () => {
    const limit = 256 * 1024;
    const { bus, connectRaw, streams } = await serve(
      new EventBus(),
      undefined,
      new EventStreams(limit),
    );
    const slow = await connectRaw();
    let published = 0;
    for (let round = 0; round < 3; round++) {
      slow.client.socket.pause();
      // Behind by a quarter of the limit beyond what the kernel holds, then it reads it all.
      while (slow.res.writableLength < limit / 4) {
        bus.publish(large(++published));
        await turn();
        expect(published * LARGE_FRAME).toBeLessThan(NEVER);
      }
      bus.publish(large(++published));
      await turn();
      slow.client.socket.resume();
      await slow.client.until(() => slow.client.ids.length === published);
    }
    expect(slow.res.destroyed).toBe(false);
    expect(streams.stats()).toMatchObject({ open: 1, cutOff: 0 });
    expect(slow.client.ids).toEqual(Array.from({ length: published }, (_, i) => i + 1));
  });
});
