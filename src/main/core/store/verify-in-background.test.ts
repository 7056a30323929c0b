// The chain check a running core makes: the same verdicts as the check in one go, through a
// connection of its own, and commits keep landing while it walks the chain.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StoreEngine } from '.';
import { decision, request, tempStore } from '../../../../test/support/store';

let store: StoreEngine;
let cleanup: () => Promise<void>;
const ids: string[] = [];

beforeEach(async () => {
  ({ store, cleanup } = tempStore());
  ids.length = 0;
  for (let i = 0; i < 60; i++) {
    const req = request({ command: `make target${i}` });
    ids.push(req.requestId);
    store.recordRequest(req);
    await store.recordDecision(decision(req, i % 2 ? 'deny' : 'allow'), { latencyMs: 1 });
  }
});
afterEach(async () => {
  await cleanup();
});

it('gives the verdict of the check in one go, intact and tampered', async () => {
  expect(await store.verifyChainInBackground(7)).toEqual(store.verifyChain());
  expect(store.verifyChain()).toMatchObject({ ok: true, rows: 120 });

  const db = new Database(store.path);
  db.prepare("UPDATE requests SET title = 'harmless' WHERE request_id = ?").run(ids[41]);
  db.close();
  const broken = store.verifyChain();
  expect(broken).toMatchObject({ ok: false, requestId: ids[41] });
  expect(await store.verifyChainInBackground(7)).toEqual(broken);
});

it('lets commits land while it walks the chain, and checks the snapshot it started on', async () => {
  const verifying = store.verifyChainInBackground(5);
  let verified = false;
  void verifying.then(() => (verified = true));
  // Committed while the check is under way (it pauses every 5 entries): nothing waits for it.
  const late = request({ command: 'make late' });
  store.recordRequest(late);
  await store.recordDecision(decision(late, 'allow'), { latencyMs: 1 });
  expect(verified).toBe(false);
  expect(await verifying).toMatchObject({ ok: true, rows: 120 });
  expect(store.verifyChain()).toMatchObject({ ok: true, rows: 122 });
});
