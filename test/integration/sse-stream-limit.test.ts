// A program holding the bearer token opens event streams without end: the server keeps at most
// MAX_EVENT_STREAMS open. Past it the program only displaces streams without a paired identity,
// its own first, so a person's paired page keeps its stream; a page that opens one while a program
// holding a stolen pairing fills every place gets one, from the program; only a client without a
// paired identity is refused, with a JSON error, and only when every open stream is a paired
// client's.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_ID_HEADER, CLIENT_TOKEN_HEADER } from '../../src/shared/contract';
import { installLogSink, type LogSink } from '../../src/main/core/log/logger';
import { MAX_EVENT_STREAMS } from '../../src/main/server/event-stream';
import type { HttpApi } from '../../src/renderer/src/api/http-client';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

interface Identity {
  clientId: string;
  clientToken: string;
}

/** An event stream on a bare socket, holding the token (and an identity, when given). */
class RawStream {
  text = '';
  closed = false;
  private waiting: { ready: () => boolean; resolve: () => void }[] = [];
  readonly socket: Socket;

  constructor(port: number, token: string, identity?: Identity) {
    this.socket = connect(port, '127.0.0.1');
    const who = identity
      ? `${CLIENT_ID_HEADER}: ${identity.clientId}\r\n${CLIENT_TOKEN_HEADER}: ${identity.clientToken}\r\n`
      : '';
    this.socket.write(
      `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Bearer ${token}\r\n${who}\r\n`,
    );
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => {
      this.text += chunk;
      this.poke();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.poke();
    });
  }

  get status(): number {
    return Number(/^HTTP\/1\.1 (\d+)/.exec(this.text)?.[1] ?? 0);
  }

  get connected(): boolean {
    return this.text.includes(': connected');
  }

  /** The server ended the response (its last chunk), or the connection closed. */
  get ended(): boolean {
    return this.closed || this.text.includes('\r\n0\r\n\r\n');
  }

  until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ ready, resolve }));
  }

  private poke(): void {
    this.waiting = this.waiting.filter((w) => !(w.ready() && (w.resolve(), true)));
  }
}

/** Opens a stream and waits until the server has answered it (opened, or refused). */
async function open(gh: TestGatehouse, identity?: Identity): Promise<RawStream> {
  const stream = new RawStream(gh.server.port, gh.token, identity);
  await stream.until(() => stream.connected || stream.ended || stream.status >= 400);
  return stream;
}

/** A page's stream, counted each time it (re)opens. */
function listen(page: HttpApi) {
  const state = { opens: 0, heard: [] as string[] };
  const waiting: { ready: () => boolean; resolve: () => void }[] = [];
  const poke = () => {
    for (const w of [...waiting]) {
      if (!w.ready()) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  page.subscribe((event) => {
    if (event.type === 'grants_changed') state.heard.push(event.type);
    poke();
  });
  page.onConnectionChange((online) => {
    if (online) state.opens++;
    poke();
  });
  return {
    state,
    until(ready: () => boolean): Promise<void> {
      if (ready()) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ ready, resolve }));
    },
  };
}

describe('the limit on open event streams', () => {
  let gh: TestGatehouse | undefined;
  const sockets: RawStream[] = [];
  let restoreSink: LogSink | undefined;
  afterEach(async () => {
    if (restoreSink) installLogSink(restoreSink);
    restoreSink = undefined;
    for (const s of sockets.splice(0)) s.socket.destroy();
    await gh?.close();
    gh = undefined;
  });

  it('a program opening streams past it displaces its own oldest, never a paired page, which hears on', async () => {
    const logged: Parameters<LogSink>[] = [];
    restoreSink = installLogSink((...line) => logged.push(line));
    gh = await startGatehouse({});
    const person = await gh.client({ register: false });
    const identity = await person.pair(gh.pairingSecret(), 'browser', 'browser');
    const page = listen(person);
    await page.until(() => page.state.opens === 1);

    for (let i = 1; i < MAX_EVENT_STREAMS; i++) sockets.push(await open(gh));
    expect(gh.server.eventStreams()).toMatchObject({ open: MAX_EVENT_STREAMS, displaced: 0 });
    expect(sockets.every((s) => s.status === 200 && !s.ended)).toBe(true);

    const extra = 10;
    for (let i = 0; i < extra; i++) sockets.push(await open(gh));
    // Each new one took the place of the oldest without a paired identity: the program's first.
    for (const s of sockets.slice(0, extra)) await s.until(() => s.ended);
    expect(sockets.slice(extra).every((s) => s.status === 200 && !s.ended)).toBe(true);
    expect(gh.server.eventStreams()).toMatchObject({
      open: MAX_EVENT_STREAMS,
      displaced: extra,
      refused: 0,
    });

    // Another tab of the same browser (its identity) takes the place of the program's oldest, not
    // that of the tab beside it.
    const tab = await open(gh, identity);
    sockets.push(tab);
    expect(tab.status).toBe(200);
    await sockets[extra]!.until(() => sockets[extra]!.ended);
    expect(gh.server.eventStreams()).toMatchObject({
      open: MAX_EVENT_STREAMS,
      displaced: extra + 1,
    });

    // The page kept its first stream: it hears what is published now without having reconnected.
    gh.core.bus.publish({ type: 'grants_changed' });
    await page.until(() => page.state.heard.length === 1);
    expect(page.state.opens).toBe(1);

    const cuts = logged
      .filter(([level, scope]) => level === 'warn' && scope === 'http')
      .map(([, , message]) => String(message));
    expect(cuts).toHaveLength(extra + 1);
    const cut = (who: string) =>
      new RegExp(
        `^event stream of an anonymous client \\(api, not paired\\) at 127\\.0\\.0\\.1:\\d+ ended: ` +
          `${MAX_EVENT_STREAMS} streams open \\(limit ${MAX_EVENT_STREAMS}\\), ${who} ` +
          `at 127\\.0\\.0\\.1:\\d+ opened another$`,
      );
    for (const line of cuts.slice(0, extra))
      expect(line).toMatch(cut('an anonymous client \\(api, not paired\\)'));
    expect(cuts[extra]).toMatch(cut(`client ${identity.clientId} \\(browser, paired\\)`));
  });

  it('when paired streams fill it, a person’s page keeps its stream, another gets one, and a stream without a paired identity is refused', async () => {
    gh = await startGatehouse({});
    const phone = listen(await gh.client({ label: 'phone' }));
    await phone.until(() => phone.state.opens === 1);
    // The worst case: the program holds a paired identity of its own and fills every place with it.
    const hostile = await gh.client({ register: false });
    const stolen = await hostile.pair(gh.pairingSecret(), 'program', 'api');
    for (let i = 1; i < MAX_EVENT_STREAMS; i++) sockets.push(await open(gh, stolen));
    expect(sockets.every((s) => s.status === 200)).toBe(true);

    // Opening more ends its own, never the phone's, the oldest of all.
    for (let i = 0; i < 5; i++) sockets.push(await open(gh, stolen));
    for (const s of sockets.slice(0, 5)) await s.until(() => s.ended);
    expect(gh.server.eventStreams()).toMatchObject({ open: MAX_EVENT_STREAMS, displaced: 5 });

    // Another device of the person's, paired, takes the place of the program's oldest.
    const laptop = listen(await gh.client({ label: 'laptop' }));
    await laptop.until(() => laptop.state.opens === 1);
    await sockets[5]!.until(() => sockets[5]!.ended);
    expect(gh.server.eventStreams()).toMatchObject({ open: MAX_EVENT_STREAMS, displaced: 6 });
    gh.core.bus.publish({ type: 'grants_changed' });
    await phone.until(() => phone.state.heard.length === 1);
    await laptop.until(() => laptop.state.heard.length === 1);
    expect([phone.state.opens, laptop.state.opens]).toEqual([1, 1]);

    // Every place is a paired client's: a stream with the token alone is refused, in words.
    const anonymous = await open(gh);
    sockets.push(anonymous);
    expect(anonymous.status).toBe(503);
    await anonymous.until(() => anonymous.text.includes('}'));
    const { text } = anonymous;
    const body = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as {
      error: { name: string; message: string };
    };
    expect(body.error.name).toBe('TooManyStreams');
    expect(text.toLowerCase()).toContain('retry-after: 5');
    expect(gh.server.eventStreams()).toMatchObject({
      open: MAX_EVENT_STREAMS,
      displaced: 6,
      refused: 1,
    });

    // Revoked, the program's identity is no longer a person's: its streams give way to anyone.
    expect(gh.core.clients.revoke(stolen.clientId, null)).toBe(true);
    const after = await open(gh);
    sockets.push(after);
    expect(after.status).toBe(200);
    await sockets[6]!.until(() => sockets[6]!.ended);
    gh.core.bus.publish({ type: 'grants_changed' });
    await phone.until(() => phone.state.heard.length === 2);
    expect([phone.state.opens, laptop.state.opens]).toEqual([1, 1]);
  });
});
