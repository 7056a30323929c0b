// The SSE stream over a real HTTP connection: every event in order with its id, and events
// published together sent in one write.
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

/** A server with one stream route; resolves with the bus, the server's response and the client's. */
async function stream(): Promise<{ bus: EventBus; res: ServerResponse; body: IncomingMessage }> {
  const bus = new EventBus();
  const core = { bus, clients: { streamOpened: () => () => {} } } as unknown as Core;
  let opened!: (res: ServerResponse) => void;
  const serverSide = new Promise<ServerResponse>((resolve) => (opened = resolve));
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    openEventStream(core, caller, req, res, new Set());
    opened(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const body = await new Promise<IncomingMessage>((resolve) =>
    get(`http://127.0.0.1:${port}/`, resolve),
  );
  return { bus, res: await serverSide, body };
}

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
    const write = vi.spyOn(res, 'write');
    const arrived = frames(body, 3);
    bus.publish(ended('a'));
    bus.publish(ended('b'));
    await new Promise((resolve) => setImmediate(resolve));
    // The heartbeat's comment lines are writes of their own; only the events' writes count here.
    const eventWrites = () =>
      write.mock.calls.filter(([chunk]) => String(chunk).includes('event:'));
    expect(eventWrites()).toHaveLength(1);
    bus.publish(ended('c'));
    expect(await arrived).toEqual([
      { id: '1', type: 'turn_ended' },
      { id: '2', type: 'turn_ended' },
      { id: '3', type: 'turn_ended' },
    ]);
    expect(eventWrites()).toHaveLength(2);
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
