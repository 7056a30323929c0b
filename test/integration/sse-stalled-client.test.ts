// A client that stops reading its event stream (a program holding the token that never reads, a
// page whose reading has stopped) cannot make the core keep every event for it: past the limit the
// server ends its stream, the page beside it hears every event in order, and the page that was cut
// off re-reads what waits when it reconnects, as the UI does on every reconnect.
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_ID_HEADER, type GatehouseEvent } from '../../src/shared/contract';
import type { HttpApi } from '../../src/renderer/src/api/http-client';
import {
  startGatehouse,
  startScriptedSession,
  type ScriptedSession,
  type TestGatehouse,
} from '../support/gatehouse';

/** Small, so a test fills it with a few events; the server's own is STREAM_BACKLOG_MAX_BYTES. */
const LIMIT = 64 * 1024;
/** Far more than the kernel's buffers for one loopback connection take (about 4 MB here). */
const NEVER = 64 * 1024 * 1024;
const TEXT_BYTES = 60_000;

/** An agent's long message, numbered in its first word. */
const message = (n: number): GatehouseEvent => ({
  type: 'session_update',
  sessionId: 'long-talker',
  update: {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text: `${n} ${'x'.repeat(TEXT_BYTES)}` },
  },
});
const numberOf = (event: GatehouseEvent): number | null =>
  event.type === 'session_update' && event.sessionId === 'long-talker'
    ? Number((event.update as unknown as { content: { text: string } }).content.text.split(' ')[0])
    : null;

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Publishes long messages, one a turn of the loop, until the server has ended a stream. */
async function publishUntilCutOff(gh: TestGatehouse, from: number): Promise<number> {
  let n = from;
  while (gh.server.eventStreams().cutOff === 0) {
    gh.core.bus.publish(message(++n));
    await turn();
    expect((n - from) * TEXT_BYTES, 'the stalled stream was never ended').toBeLessThan(NEVER);
  }
  return n;
}

/** Resolves once `ready` holds, checked whenever `poke` is called. */
function waiter() {
  const waiting: { ready: () => boolean; resolve: () => void }[] = [];
  return {
    until(ready: () => boolean): Promise<void> {
      if (ready()) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ ready, resolve }));
    },
    poke() {
      for (const w of [...waiting]) {
        if (!w.ready()) continue;
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    },
  };
}

/** A page's event stream that the test stops reading and lets read again. */
class Gate {
  private closed: Promise<void> | null = null;
  private release = () => {};
  /** Event streams the page opened (its first, then each reconnect). */
  opens = 0;

  stop(): void {
    this.closed = new Promise((resolve) => (this.release = resolve));
  }

  go(): void {
    this.closed = null;
    this.release();
  }

  /** Routes the page's event streams through the gate; its commands and other clients pass. */
  install(page: HttpApi): void {
    const real = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
      const response = await real(input, init);
      const headers = new Headers(init?.headers);
      const own = headers.get(CLIENT_ID_HEADER) === page.clientId;
      if (!String(input).endsWith('/api/events') || !own || !response.body) return response;
      this.opens++;
      // Nothing more is pulled from the socket while a chunk waits here: the server's writes back up.
      const body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform: async (chunk, controller) => {
            if (this.closed) await this.closed;
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(body, { status: response.status, headers: response.headers });
    });
  }
}

describe('a client that stops reading its event stream', () => {
  let gh: TestGatehouse | undefined;
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    vi.unstubAllGlobals();
    await gh?.close();
    await session?.close();
    gh = undefined;
    session = undefined;
  });

  it('is disconnected past the limit, holding nothing after, while a page beside it hears every event in order', async () => {
    gh = await startGatehouse({}, { streamBacklogMaxBytes: LIMIT });
    const page = await gh.client({ label: 'reader' });
    const heard: number[] = [];
    const arrived = waiter();
    page.subscribe((event) => {
      const n = numberOf(event);
      if (n !== null) heard.push(n);
      arrived.poke();
    });
    const online = new Promise<void>((resolve) =>
      page.onConnectionChange((connected) => connected && resolve()),
    );
    await online;

    // A local program with the bearer token opens a stream and reads nothing after its first bytes.
    const stalled = connect(gh.server.port, '127.0.0.1');
    stalled.write(
      `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${gh.server.port}\r\n` +
        `Authorization: Bearer ${gh.token}\r\n\r\n`,
    );
    await new Promise<void>((resolve) => {
      let text = '';
      const onData = (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (!text.includes(': connected')) return;
        stalled.off('data', onData);
        stalled.pause();
        resolve();
      };
      stalled.on('data', onData);
    });
    expect(gh.server.eventStreams()).toMatchObject({ open: 2, cutOff: 0 });

    let published = await publishUntilCutOff(gh, 0);
    const after = gh.server.eventStreams();
    expect(after.open).toBe(1);
    expect(after.cutOff).toBe(1);
    // What the server still holds is the reader's alone, and the reader reads.
    expect(after.unflushedBytes).toBeLessThanOrEqual(LIMIT);

    gh.core.bus.publish(message(++published));
    await arrived.until(() => heard.length === published);
    expect(heard).toEqual(Array.from({ length: published }, (_, i) => i + 1));
    expect(gh.server.eventStreams()).toMatchObject({ open: 1, cutOff: 1 });
    stalled.destroy();
  });

  it('once reconnected, a page cut off for not reading sees the request that waits now', async () => {
    session = await startScriptedSession(
      {
        prompts: [
          [
            {
              type: 'requestPermission',
              toolCall: { toolCallId: 'w1', title: 'Write notes.md', kind: 'edit' },
              options: [
                { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
                { optionId: 'no', name: 'Reject', kind: 'reject_once' },
              ],
            },
          ],
        ],
      },
      { server: { streamBacklogMaxBytes: LIMIT } },
    );
    const { gh: g, sessionId } = session;
    const page = await g.client({ label: 'phone' });
    const gate = new Gate();
    gate.install(page);
    const heard: GatehouseEvent[] = [];
    page.subscribe((event) => heard.push(event));
    const connected = waiter();
    let backOnline = false;
    page.onConnectionChange((online) => {
      // The UI re-reads the queue on every connection (useApprovals); here the test does.
      if (online && gate.opens >= 2) backOnline = true;
      connected.poke();
    });
    await connected.until(() => g.server.eventStreams().open === 1);

    gate.stop();
    await publishUntilCutOff(g, 0);
    expect(g.server.eventStreams()).toMatchObject({ open: 0, cutOff: 1 });

    // The agent asks while the page's stream is gone: no event of it can reach the page.
    const turnDone = g.api.call('prompt', { sessionId, text: 'go' }).catch(() => {});
    const approval = await g.nextApproval();

    gate.go();
    await connected.until(() => backOnline);
    const { items } = await page.call('listApprovals', {});
    expect(items.map((item) => item.requestId)).toEqual([approval.requestId]);
    expect(heard.filter((event) => event.type === 'permission_requested')).toEqual([]);
    expect(g.server.eventStreams()).toMatchObject({ open: 1, cutOff: 1 });

    await page.call('vote', { requestId: approval.requestId, optionId: 'no' });
    await turnDone;
  });
});
