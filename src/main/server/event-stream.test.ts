// The SSE stream over real HTTP connections: every event in order with its id, the events of one
// turn of the loop in one write, serialised once and the same bytes to every stream.
import {
  createServer,
  get,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatehouseEvent } from '../../shared/contract';
import type { Caller } from '../core/approvals/clients';
import type { Core } from '../core/core';
import { EventBus } from '../core/events/bus';
import { HEARTBEAT_MS, openEventStream } from './event-stream';

const caller: Caller = {
  clientId: null,
  identityProven: false,
  paired: false,
  fromLoopback: true,
} as Caller;
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
async function serve(bus = new EventBus(), beforeOpen?: { run: () => void }) {
  const core = { bus, clients: { streamOpened: () => () => {} } } as unknown as Core;
  const opened: ((res: ServerResponse) => void)[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    beforeOpen?.run();
    openEventStream(core, caller, req, res, new Set());
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
  return { bus, connect };
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
