import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStoreEngine, type StoreEngine } from '.';
import { ChainWriter } from './audit-log';
import { openDatabase } from './database';
import { Pruner } from './retention';
import { decide, decision, diff, request, tempDir, storeKey } from '../../../../test/support/store';
import type { TempDir } from '../../../../test/support/store';

const DAY = 86_400_000;
let tmp: TempDir;
let store: StoreEngine | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  tmp.cleanup();
});

function count(sql: string): number {
  const db = new Database(tmp.dbPath, { readonly: true });
  const n = db.prepare(sql).pluck().get() as number;
  db.close();
  return n;
}

describe('retention', () => {
  it('keeps the newest N requests, checkpoints the pruned head, and the rest still verifies', async () => {
    tmp = tempDir();
    store = openStoreEngine({ path: tmp.dbPath, retention: { rows: 10 } });
    const reqs = [];
    for (let i = 0; i < 30; i++) {
      reqs.push(
        await decide(store, {
          title: `Task ${i}`,
          paths: [`f${i}.txt`],
          diffs: [diff(`f${i}.txt`, `old ${i}`, `new ${i}`)],
          issuedAt: 1e12 + i,
        }),
      );
    }
    const result = await store.prune();
    expect(result).toMatchObject({ requests: 20, entries: 40 });
    expect(result.checkpoint).toMatchObject({ seq: 40, prunedRows: 40 });
    const verdict = store.verifyChain();
    expect(verdict).toMatchObject({ ok: true, rows: 20, checkpoint: { seq: 40, prunedRows: 40 } });
    const left = store.history({ limit: 500 }).items.map((i) => i.requestId);
    expect(left.sort()).toEqual(
      reqs
        .slice(20)
        .map((r) => r.requestId)
        .sort(),
    );
    // Full-text rows and blobs went with their requests.
    expect(store.history({ q: 'task 3' }).items).toEqual([]);
    expect(count('SELECT count(*) FROM decisions')).toBe(10);
    expect(count('SELECT count(*) FROM history_fts')).toBe(10);
    expect(count('SELECT count(*) FROM blobs')).toBe(20);
    // Writing continues from the checkpoint.
    await decide(store, { title: 'after prune' });
    expect(store.verifyChain()).toMatchObject({ ok: true, rows: 22 });
    // Pruning again moves the checkpoint forward.
    await store.prune();
    expect(store.verifyChain()).toMatchObject({
      ok: true,
      rows: 20,
      checkpoint: { seq: 42, prunedRows: 42 },
    });
  });

  it('keeps N days by commit time', async () => {
    tmp = tempDir();
    let now = 1_700_000_000_000;
    store = openStoreEngine({ path: tmp.dbPath, now: () => now, retention: { days: 3 } });
    for (let i = 0; i < 5; i++) await decide(store, { title: `old ${i}` });
    now += 5 * DAY;
    for (let i = 0; i < 4; i++) await decide(store, { title: `new ${i}` });
    now += 1 * DAY;
    await store.prune();
    expect(
      store
        .history({ limit: 50 })
        .items.map((i) => i.title)
        .sort(),
    ).toEqual(['new 0', 'new 1', 'new 2', 'new 3']);
    expect(store.verifyChain()).toMatchObject({ ok: true, rows: 8, checkpoint: { seq: 10 } });
  });

  it('a tampered checkpoint fails verification', async () => {
    tmp = tempDir();
    store = openStoreEngine({ path: tmp.dbPath, retention: { rows: 2 } });
    for (let i = 0; i < 6; i++) await decide(store);
    await store.prune();
    expect(store.verifyChain()).toMatchObject({ ok: true });
    for (const edit of [
      "UPDATE chain_anchor SET seq = seq - 2 WHERE name = 'checkpoint'",
      "UPDATE chain_anchor SET hash = ? WHERE name = 'checkpoint'",
      "UPDATE chain_anchor SET pruned_rows = 0 WHERE name = 'checkpoint'",
    ]) {
      const db = new Database(tmp.dbPath);
      const saved = db
        .prepare("SELECT * FROM chain_anchor WHERE name = 'checkpoint'")
        .get() as Record<string, unknown>;
      db.prepare(edit).run(...(edit.includes('?') ? ['e'.repeat(64)] : []));
      db.close();
      const result = store.verifyChain();
      expect(result, edit).toMatchObject({ ok: false, firstBrokenSeq: expect.any(Number) });
      expect(!result.ok && result.reason).toMatch(/checkpoint/);
      const restore = new Database(tmp.dbPath);
      restore
        .prepare(
          "UPDATE chain_anchor SET seq = @seq, hash = @hash, pruned_rows = @pruned_rows WHERE name = 'checkpoint'",
        )
        .run(saved);
      restore.close();
    }
    expect(store.verifyChain()).toMatchObject({ ok: true });
  });

  it('a checkpoint signed with another key fails; rows before the checkpoint left behind fail', async () => {
    tmp = tempDir();
    store = openStoreEngine({ path: tmp.dbPath, retention: { rows: 1 }, checkpointKey: 'key-one' });
    for (let i = 0; i < 3; i++) await decide(store);
    await store.prune();
    await store.close();
    store = openStoreEngine({ path: tmp.dbPath, checkpointKey: 'key-two' });
    expect(store.verifyChain()).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/checkpoint .*signature/),
    });
    await store.close();
    store = openStoreEngine({ path: tmp.dbPath, checkpointKey: 'key-one' });
    expect(store.verifyChain()).toMatchObject({ ok: true });
  });

  it('never prunes a request whose votes or decision are still ahead, nor an open one', async () => {
    tmp = tempDir();
    store = openStoreEngine({ path: tmp.dbPath, retention: { rows: 1 } });
    const open = request({ title: 'still pending' });
    open.expiresAt = Date.now() + DAY;
    store.recordRequest(open);
    for (let i = 0; i < 3; i++) await decide(store);
    const result = await store.prune();
    expect(result.entries).toBe(0); // the pending request is the oldest entry and pins everything
    await store.recordDecision(decision(open, 'deny'), { latencyMs: 1 });
    // Decided, but its decision lies after the cut (the newest request): still kept whole.
    expect((await store.prune()).entries).toBe(0);
    await decide(store, { title: 'newest' });
    const again = await store.prune();
    expect(again.requests).toBe(4);
    expect(store.history({}).items.map((i) => i.title)).toEqual(['newest']);
    expect(store.verifyChain()).toMatchObject({ ok: true });
  });

  it('carries grants still in force past the checkpoint and drops revoked ones', async () => {
    tmp = tempDir();
    store = openStoreEngine({ path: tmp.dbPath, retention: { rows: 1 } });
    const live = await store.saveGrant({
      id: 'g-live',
      agentId: 'gemini',
      scope: 'agent',
      toolKind: 'read',
      paths: ['/a'],
    });
    const gone = await store.saveGrant({
      id: 'g-gone',
      agentId: 'gemini',
      scope: 'agent',
      toolKind: 'read',
      paths: ['/b'],
    });
    expect(await store.revokeGrant(gone.id, { reason: 'user' })).toBe(true);
    for (let i = 0; i < 4; i++) await decide(store);
    await store.prune();
    expect(store.listGrants({ includeInactive: true }).map((g) => g.id)).toEqual(['g-live']);
    expect(store.listGrants()[0]!.grant).toEqual(live.grant);
    expect(store.verifyChain()).toMatchObject({ ok: true });
    expect(count("SELECT count(*) FROM audit_log WHERE kind = 'grant'")).toBe(1);
  });

  it('prunes in chunks, each a transaction with its own checkpoint', async () => {
    tmp = tempDir();
    store = openStoreEngine({ path: tmp.dbPath });
    for (let i = 0; i < 12; i++) await decide(store);
    await store.close();
    store = undefined;
    const db = openDatabase(tmp.dbPath);
    const key = storeKey(tmp.dbPath);
    const pruner = new Pruner(db, key, new ChainWriter(db, key));
    const sizes: number[] = [];
    for (let done; (done = pruner.chunk(20, Date.now(), 7));) sizes.push(done.entries);
    db.close();
    expect(sizes).toEqual([6, 6, 6, 2]); // 7 would split a request from its decision
    store = openStoreEngine({ path: tmp.dbPath });
    expect(store.verifyChain()).toMatchObject({ ok: true, rows: 4, checkpoint: { seq: 20 } });
  });

  it('runs on open when a policy is configured', async () => {
    tmp = tempDir();
    store = openStoreEngine({ path: tmp.dbPath });
    for (let i = 0; i < 5; i++) await decide(store);
    await store.close();
    store = openStoreEngine({ path: tmp.dbPath, retention: { rows: 2 } });
    await new Promise((r) => setImmediate(r));
    await store.prune();
    expect(store.history({}).items).toHaveLength(2);
  });

  it('keep 100 rows and 1 day: requests overlapping their neighbours, with votes, decisions, grants, events and blobs', async () => {
    tmp = tempDir();
    let now = 1_700_000_000_000;
    store = openStoreEngine({ path: tmp.dbPath, now: () => now });
    // As a busy pipeline writes them: a, b and c of each turn overlap (b is asked before a is
    // decided, c before b is), so a cut can fall between a request and its decision.
    const vote = { clientId: 'desktop', surface: 'dialog' as const, identityProven: true };
    const grants: string[] = [];
    const ask = (name: string, i: number) => {
      const req = request({
        title: `Task ${i}${name}`,
        paths: [`f${i % 9}.txt`],
        diffs: [diff(`f${i % 9}.txt`, 'old line\n'.repeat(200), `new ${i % 4}\n`.repeat(200))],
        issuedAt: now,
      });
      req.expiresAt = now + 60_000;
      store!.recordRequest(req);
      store!.markDisplayed(req.requestId, { at: now, clientId: 'desktop', surface: 'dialog' });
      return req;
    };
    const answer = async (req: ReturnType<typeof request>) => {
      store!.recordVote(req.requestId, {
        ...vote,
        optionId: 'always',
        outcome: 'resolved',
        at: now,
      });
      await store!.recordDecision(decision(req, 'always', { decidedAt: now }), { latencyMs: 5 });
    };
    for (let i = 0; i < 120; i++) {
      const a = ask('a', i);
      const b = ask('b', i);
      await answer(a);
      const c = ask('c', i);
      await answer(b);
      await answer(c);
      if (i % 15 === 0) {
        const saved = await store.saveGrant({
          agentId: 'gemini',
          scope: 'agent',
          toolKind: 'read',
          paths: [`/p${i}`],
        });
        grants.push(saved.id);
      }
      if (i % 15 === 7) await store.revokeGrant(grants[grants.length - 1]!, { reason: 'test' });
      store.recordEvent({ type: 'settings_changed', payload: { i } });
      now += 30 * 60_000;
    }
    store.setRetention({ rows: 100, days: 1 });
    const result = await store.prune();

    expect(result.requests).toBeGreaterThan(250);
    expect(result.checkpoint).not.toBeNull();
    const db = new Database(tmp.dbPath, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(
      db
        .prepare(
          'SELECT count(*) FROM votes WHERE request_id NOT IN (SELECT request_id FROM requests)',
        )
        .pluck()
        .get(),
    ).toBe(0);
    db.close();
    expect(store.verifyChain()).toMatchObject({
      ok: true,
      checkpoint: { seq: result.checkpoint!.seq },
    });
    // 360 requests: the 100 rows are fewer than a day's 144; a turn is kept whole.
    expect(store.history({ limit: 500 }).items.length).toBeGreaterThanOrEqual(100);
    expect(store.history({ limit: 500 }).items.length).toBeLessThanOrEqual(102);
  });
});
