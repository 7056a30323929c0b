// A reject's message is part of its decision's audit entry: kept, read back by the history, and
// covered by the chain, while entries without one hash exactly as before the column existed.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';
import { canonicalEntry, rowContent } from './projections';
import { decision, request, tempStore } from '../../../../test/support/store';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => cleanup?.());

describe("a reject's message in the audit", () => {
  it('is kept with the decision, shown by the history, and a change to it breaks the chain', async () => {
    const made = tempStore();
    cleanup = made.cleanup;
    const { store } = made;
    const req = request({ command: 'rm -rf build' });
    store.recordRequest(req);
    await store.recordDecision(
      { ...decision(req, 'deny'), message: 'keep build, clean dist' },
      { latencyMs: 2 },
    );
    const quiet = request({ command: 'ls' });
    store.recordRequest(quiet);
    await store.recordDecision(decision(quiet, 'deny'), { latencyMs: 2 });

    expect(store.historyDetail(req.requestId)?.message).toBe('keep build, clean dist');
    expect(store.historyDetail(quiet.requestId)?.message).toBeUndefined();
    const items = store.history({}).items;
    expect(items.find((i) => i.requestId === req.requestId)?.message).toBe(
      'keep build, clean dist',
    );
    expect(store.verifyChain()).toMatchObject({ ok: true });

    const db = new Database(store.path);
    db.prepare("UPDATE decisions SET message = 'delete it all' WHERE request_id = ?").run(
      req.requestId,
    );
    db.close();
    expect(store.verifyChain()).toMatchObject({ ok: false, requestId: req.requestId });
  });

  it('an entry without a message hashes as one written before the column existed', () => {
    const row = { request_id: 'r', reason: 'first-responder', message: null };
    const before = { request_id: 'r', reason: 'first-responder' };
    const entry = canonicalEntry(7, 'decision', 'r', 1, row);
    expect(entry).toBe(canonicalEntry(7, 'decision', 'r', 1, before));
    expect(entry).not.toContain('"message"');
    expect(entry).toBe(
      canonicalJson({
        seq: 7,
        kind: 'decision',
        ref: 'r',
        at: 1,
        row: rowContent('decision', row),
      }),
    );
    const said = canonicalEntry(7, 'decision', 'r', 1, { ...row, message: 'no' });
    expect(said).toContain('"message":"no"');
  });
});
