import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStore, openStoreEngine } from '.';
import { closedAfterEach, decide, decision, request } from '../../../../test/support/store';
import { TEXT_DELAY_MS, TEXT_ROWS_DUE } from './full-text-batch';

const stores = closedAfterEach();
afterEach(() => {
  vi.useRealTimers();
});

function ftsRows(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM history_fts').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe("decisions' full-text rows", () => {
  it('follow the commit: a decision alone waits, a full batch goes at once, and so does a flush or the delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const tmp = stores.tempDir();
    const store = stores.store(openStoreEngine({ path: tmp.dbPath }));

    await decide(store, { title: 'Run the tests' });
    expect(ftsRows(tmp.dbPath)).toBe(0);
    await store.flush();
    expect(ftsRows(tmp.dbPath)).toBe(1);
    expect(store.history({ q: 'tests' }).items.map((i) => i.title)).toEqual(['Run the tests']);

    // One commit holding as many decisions as make an insert due.
    const requests = Array.from({ length: TEXT_ROWS_DUE }, (_, i) =>
      request({ title: `Job ${i}` }),
    );
    for (const r of requests) store.recordRequest(r);
    await Promise.all(
      requests.map((r) => store.recordDecision(decision(r, 'allow'), { latencyMs: 1 })),
    );
    expect(ftsRows(tmp.dbPath)).toBe(1 + TEXT_ROWS_DUE);

    await decide(store, { title: 'Deploy the site' });
    expect(ftsRows(tmp.dbPath)).toBe(1 + TEXT_ROWS_DUE);
    vi.advanceTimersByTime(TEXT_DELAY_MS);
    expect(ftsRows(tmp.dbPath)).toBe(2 + TEXT_ROWS_DUE);
  });

  it('a text search finds a decision at once, through the store on its threads', async () => {
    const tmp = stores.tempDir();
    const store = stores.store(await openStore({ path: tmp.dbPath }));
    const req = request({ title: 'Rotate the signing keys' });
    store.recordRequest(req);
    await store.recordDecision(decision(req, 'deny'), { latencyMs: 1 });
    const page = await store.history({ q: 'signing' });
    expect(page.items.map((i) => i.requestId)).toEqual([req.requestId]);
  });

  it('rows a crash kept from being written are written when the store next opens', async () => {
    const tmp = stores.tempDir();
    const first = openStoreEngine({ path: tmp.dbPath });
    const titles = ['Build the docs', 'Lint the sources', 'Format the tree'];
    for (const title of titles) await decide(first, { title });
    await first.close();
    // As if the process died between the decisions' commit and their full-text rows.
    const db = new Database(tmp.dbPath);
    db.prepare(
      'DELETE FROM history_fts WHERE rowid IN (SELECT hid FROM decisions ORDER BY hid DESC LIMIT 2)',
    ).run();
    db.close();
    expect(ftsRows(tmp.dbPath)).toBe(1);

    const again = stores.store(openStoreEngine({ path: tmp.dbPath }));
    expect(ftsRows(tmp.dbPath)).toBe(3);
    expect(
      again
        .history({ q: 'the' })
        .items.map((i) => i.title)
        .sort(),
    ).toEqual([...titles].sort());
  });
});
