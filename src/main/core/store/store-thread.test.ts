// The store as the core opens it: the engine on a writer thread and a reader thread. What crosses
// between the threads, the one clock, and a thread that dies.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { HistoryPage } from '../../../shared/history';
import {
  EncodedJson,
  openStore,
  RecordRejectedError,
  StoreClosedError,
  StoreInputError,
  StoreWriteError,
  type Store,
} from '.';
import { closedAfterEach, decision, request, type TempDir } from '../../../../test/support/store';

const WAIT = { timeout: 30_000, interval: 20 };
let tmp: TempDir | undefined;
let store: Store | undefined;
const made = closedAfterEach();

async function open(options: Partial<Parameters<typeof openStore>[0]> = {}) {
  tmp = made.tempDir();
  const died: { role: string; exitCode: number; replaced: boolean }[] = [];
  const reports: string[] = [];
  store = made.store(
    await openStore({
      path: tmp.dbPath,
      checkpointKey: 'k',
      onError: (error) => reports.push(`${error.name}: ${error.message}`),
      onThreadDied: (info) => died.push(info),
      ...options,
    }),
  );
  return { store, died, reports };
}

/** Lets `n` turns of the event loop go by. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Ends a store thread as a crash would. */
function crash(s: Store, role: 'writer' | 'reader'): Promise<number> {
  return s.threads[role].worker!.terminate();
}

// Each store starts two threads, which takes seconds on a loaded machine.
describe('the store on its threads', { timeout: 60_000 }, () => {
  it('commits on the writer, reads on the reader: pages, details, exports, events, the chain', async () => {
    const { store } = await open();
    const req = request({ command: 'ls -la' });
    store.recordRequest(req);
    await store.recordDecision(decision(req, 'deny'), { latencyMs: 1, votes: [], displayed: true });
    store.recordEvent({ type: 'note', payload: { n: 1 } });
    await store.flush();

    expect((await store.history({})).items.map((i) => i.requestId)).toEqual([req.requestId]);
    expect(await store.historyDetail(req.requestId)).toMatchObject({
      title: 'Run ls -la',
      displayed: true,
    });
    expect(await store.historyDetail('nope')).toBeNull();
    const file = join(tmp!.dir, 'export.jsonl');
    expect(await store.exportHistoryToFile({}, 'jsonl', file)).toEqual({
      rows: 1,
      truncated: false,
    });
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { requestId: string }).requestId)).toEqual([
      req.requestId,
    ]);
    expect((await store.events({ type: 'note' })).map((e) => e.payload)).toEqual([{ n: 1 }]);
    expect(await store.verifyChain()).toMatchObject({ ok: true });
    expect((await store.stats()).commits).toBeGreaterThan(0);
  });

  it('an export is written to its file by the reader, and says when the filter matched more', async () => {
    const { store } = await open();
    const decided = Array.from({ length: 501 }, () => request());
    for (const req of decided) store.recordRequest(req);
    await Promise.all(
      decided.map((req) =>
        store.recordDecision(decision(req), { latencyMs: 1, votes: [], displayed: false }),
      ),
    );
    const lines = (name: string) =>
      readFileSync(join(tmp!.dir, name), 'utf8').trim().split('\n').length;
    const at = (name: string) => join(tmp!.dir, name);
    expect(await store.exportHistoryToFile({}, 'jsonl', at('cut'), 500)).toEqual({
      rows: 500,
      truncated: true,
    });
    expect(lines('cut')).toBe(500);
    expect(await store.exportHistoryToFile({}, 'jsonl', at('whole'), 501)).toEqual({
      rows: 501,
      truncated: false,
    });
    expect(lines('whole')).toBe(501);
    expect(await store.exportHistoryToFile({}, 'csv', at('csv'))).toEqual({
      rows: 501,
      truncated: false,
    });
    expect(lines('csv')).toBe(502);
  });

  it("a page's JSON is encoded on the reader: the page the objects give, in the contract's shape", async () => {
    const { store } = await open();
    const decided = Array.from({ length: 30 }, (_, i) =>
      request({
        title: `"step" ${i}\u2028`,
        command: `echo ${i}`,
        issuedAt: 1_700_000_000_000 + i,
      }),
    );
    for (const req of decided) store.recordRequest(req);
    // No flush: like every read, the page waits for the records sent before it.
    const pending = decided.map((req) =>
      store.recordDecision(decision(req, 'deny'), { latencyMs: 1, votes: [], displayed: true }),
    );
    const first = await store.historyJson({ limit: 20 });
    await Promise.all(pending);
    expect(first).toBeInstanceOf(EncodedJson);
    expect(first.bytes.byteLength).toBe(first.bytes.buffer.byteLength);
    const page = first.decode() as HistoryPage;
    expect(page).toEqual(await store.history({ limit: 20 }));
    expect(HistoryPage.parse(page)).toEqual(page);
    expect(page.items).toHaveLength(20);
    const rest = HistoryPage.parse(
      (await store.historyJson({ limit: 20, cursor: page.nextCursor! })).decode(),
    );
    expect(rest.items.map((i) => i.title)).toEqual(
      decided
        .slice(0, 10)
        .map((r) => r.toolCall.title)
        .reverse(),
    );
    await expect(store.historyJson({ cursor: 'not a cursor' })).rejects.toThrow(StoreInputError);
  });

  it('a read sees every record made before it, committed first', async () => {
    const { store } = await open();
    for (let i = 0; i < 50; i++) store.recordEvent({ type: 'burst', payload: { i } });
    // No flush: the reader thread answers only once the writer committed the burst.
    expect(await store.events({ type: 'burst', limit: 1000 })).toHaveLength(50);
  });

  it("a request's record waits for the next write to cross with it, or crosses alone a moment later", async () => {
    const { store } = await open();
    const posted = vi.spyOn(store.threads.writer.worker!, 'postMessage');
    const before = (await store.stats()).commits;
    posted.mockClear();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const first = request();
      store.recordRequest(first);
      await turns(3);
      expect(posted).not.toHaveBeenCalled();
      // Its decision takes it along: one message, one commit for both.
      await store.recordDecision(decision(first), { latencyMs: 1, votes: [], displayed: false });
      expect(posted).toHaveBeenCalledTimes(1);
      expect((await store.stats()).commits - before).toBe(1);

      // Nothing follows: it crosses on its own once its moment is up.
      const second = request();
      store.recordRequest(second);
      await turns(3);
      posted.mockClear();
      vi.advanceTimersByTime(20);
      expect(posted).toHaveBeenCalledTimes(1);
      expect((posted.mock.calls[0]![0] as { method: string }[]).map((c) => c.method)).toEqual([
        'recordRequest',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an observation waits for the next write to cross with it, and a read still sees it', async () => {
    const { store } = await open();
    const posted = vi.spyOn(store.threads.writer.worker!, 'postMessage');
    const asked = request();
    store.recordRequest(asked);
    await store.flush();
    posted.mockClear();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      store.recordEvent({ type: 'command_effects', requestId: asked.requestId }, { soon: true });
      await turns(3);
      expect(posted).not.toHaveBeenCalled();
      await store.recordDecision(decision(asked), { latencyMs: 1, votes: [], displayed: false });
      expect(posted).toHaveBeenCalledTimes(1);
      const calls = posted.mock.calls[0]![0] as { method: string }[];
      expect(calls.map((c) => c.method)).toEqual(['recordEvent', 'recordDecision']);

      // Alone, a read takes it along at once, without its moment being up.
      store.recordEvent({ type: 'command_previewed', requestId: asked.requestId }, { soon: true });
      const events = await store.events({ type: 'command_previewed' });
      expect(events.map((e) => e.requestId)).toEqual([asked.requestId]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a burst asked in one turn crosses in slices of 32 calls, in the order asked', async () => {
    const { store } = await open();
    const posted = vi.spyOn(store.threads.writer.worker!, 'postMessage');
    const burst = Array.from({ length: 100 }, () => request());
    const decided = burst.map((r) => {
      store.recordRequest(r);
      return store.recordDecision(decision(r), { latencyMs: 1, votes: [], displayed: false });
    });
    await Promise.all(decided);
    const sent = posted.mock.calls.map((c) => c[0] as { method: string; args: unknown[] }[]);
    expect(sent.map((calls) => calls.length)).toEqual([32, 32, 32, 32, 32, 32, 8]);
    const asked = sent.flat().map((c) => (c.args[0] as { requestId: string }).requestId);
    expect(asked).toEqual(burst.flatMap((r) => [r.requestId, r.requestId]));
    expect(await store.history({ limit: 200 })).toMatchObject({ items: { length: 100 } });
  });

  it("a refused record rejects with the store's own error class", async () => {
    const { store } = await open();
    const never = request();
    await expect(
      store.recordDecision(decision(never), { latencyMs: 1, votes: [], displayed: false }),
    ).rejects.toBeInstanceOf(RecordRejectedError);
  });

  it("commit times and events follow the core's clock, a fake one included", async () => {
    let clock = 1_800_000_000_000;
    const { store } = await open({ now: () => clock });
    store.recordEvent({ type: 'first' });
    clock += 5_000;
    store.recordEvent({ type: 'second' });
    await store.flush();
    const events = await store.events({});
    expect(events.find((e) => e.type === 'first')?.at).toBe(1_800_000_000_000);
    expect(events.find((e) => e.type === 'second')?.at).toBe(1_800_000_005_000);
  });

  it('a writer that dies fails what it owed, loses what it had not committed, and is replaced', async () => {
    const { store, died } = await open();
    const kept = request();
    store.recordRequest(kept);
    await store.flush();

    const lost = request();
    store.recordRequest(lost);
    const owed = store.recordDecision(decision(kept), {
      latencyMs: 1,
      votes: [],
      displayed: false,
    });
    const exitCode = await crash(store, 'writer');
    // The decision it had not committed fails: the pipeline denies the agent.
    await expect(owed).rejects.toBeInstanceOf(StoreWriteError);
    expect(died).toEqual([{ role: 'writer', exitCode, replaced: true }]);

    // The new writer takes calls; the request committed before is there, the lost one is not.
    await store.recordDecision(decision(kept), { latencyMs: 1, votes: [], displayed: false });
    await expect(
      store.recordDecision(decision(lost), { latencyMs: 1, votes: [], displayed: false }),
    ).rejects.toBeInstanceOf(RecordRejectedError);
    expect((await store.history({})).items.map((i) => i.requestId)).toEqual([kept.requestId]);
    expect(await store.verifyChain()).toMatchObject({ ok: true });
  });

  it('a reader that dies fails its call and is replaced; writes go on', async () => {
    const { store, died } = await open();
    const page = store.history({});
    await crash(store, 'reader');
    await expect(page).rejects.toBeInstanceOf(StoreWriteError);
    const req = request();
    store.recordRequest(req);
    await store.recordDecision(decision(req), { latencyMs: 1, votes: [], displayed: false });
    expect((await store.history({})).items).toHaveLength(1);
    expect(died.map((d) => d.role)).toEqual(['reader']);
  });

  it('a thread that keeps dying is given up on: calls fail at once instead of hanging', async () => {
    const { store, died } = await open();
    for (let i = 0; i < 6; i++) {
      // A call answered: the replacement is up before it is ended in turn.
      await store.history({});
      await crash(store, 'reader');
    }
    await vi.waitFor(() => expect(died).toHaveLength(6), WAIT);
    expect(died.map((d) => d.replaced)).toEqual([true, true, true, true, true, false]);
    await expect(store.history({})).rejects.toBeInstanceOf(StoreWriteError);
    // The writer is not the reader: records still commit.
    store.recordEvent({ type: 'still' });
    await store.flush();
  });

  it('after close, records throw and reads reject with StoreClosedError', async () => {
    const { store } = await open();
    await store.close();
    expect(() => store.recordEvent({ type: 'late' })).toThrow(StoreClosedError);
    await expect(store.history({})).rejects.toBeInstanceOf(StoreClosedError);
  });

  it('once closed, the database is one file again: its WAL copied in and removed, every record in it', async () => {
    const { store } = await open();
    const req = request({ command: 'ls' });
    store.recordRequest(req);
    await store.recordDecision(decision(req, 'allow'), {
      latencyMs: 1,
      votes: [],
      displayed: true,
    });
    await store.close();
    expect(readdirSync(tmp!.dir).filter((name) => name.startsWith('gatehouse.db'))).toEqual([
      'gatehouse.db',
    ]);
    const again = made.store(await openStore({ path: tmp!.dbPath, checkpointKey: 'k' }));
    expect((await again.history({})).items.map((i) => i.requestId)).toEqual([req.requestId]);
    await expect(again.verifyChain()).resolves.toMatchObject({ ok: true });
  });

  it('a store the writer cannot open is an error at open', async () => {
    tmp = made.tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(tmp.dbPath, 'not a database, but long enough to be read as one '.repeat(200));
    await expect(openStore({ path: tmp.dbPath, checkpointKey: 'k' })).rejects.toThrow(
      /not a database|file is not/i,
    );
  });
});
