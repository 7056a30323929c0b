import Database from 'better-sqlite3';
import type * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStoreEngine, StoreWriteError } from '.';
import { openDatabase, type Db } from './database';
import { migrate } from './migrations';
import { prepareDecision, prepareRequest } from './records';
import { WalSync } from './wal-sync';
import { Writer } from './writer';
import { closedAfterEach, decision, request, storeKey } from '../../../../test/support/store';

const after = closedAfterEach();
const report = () => undefined;

/** An fdatasync that holds each call until the test ends it. */
function heldSyncs() {
  const calls: ((error: NodeJS.ErrnoException | null) => void)[] = [];
  const datasync = ((_fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
    calls.push(done);
  }) as unknown as typeof fs.fdatasync;
  return { calls, datasync };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function fullDb(): { db: Db; path: string } {
  const { dbPath } = after.tempDir();
  const db = openDatabase(dbPath, { durability: 'full' });
  migrate(db, dbPath);
  return { db, path: dbPath };
}

function decisionOp(writer: Writer, command: string) {
  const req = request({ command });
  writer.enqueue({ kind: 'request', prepared: prepareRequest(req) });
  let settled: 'pending' | 'resolved' | Error = 'pending';
  const promise = new Promise<void>((resolve, reject) =>
    writer.enqueue({
      kind: 'decision',
      prepared: prepareDecision(decision(req), { latencyMs: 1 }),
      waiter: { resolve, reject },
    }),
  ).then(
    () => void (settled = 'resolved'),
    (error: Error) => void (settled = error),
  );
  return { req, promise, state: () => settled };
}

describe('the WAL sync of durability full', () => {
  it('commits made while an fsync runs share the next one, each hears in the order asked, and nothing new asks none', () => {
    const { db, path } = fullDb();
    const { calls, datasync } = heldSyncs();
    const sync = new WalSync(db, `${path}-wal`, report, datasync);
    const heard: string[] = [];
    sync.unsynced(() => db.exec('CREATE TABLE t (v)'));
    sync.after(() => heard.push('a'));
    sync.after(() => heard.push('b'));
    sync.after(() => heard.push('c'));
    expect(calls).toHaveLength(1);
    calls[0]!(null);
    expect(heard).toEqual(['a']);
    // b and c were asked while a's fsync ran: one more fsync covers both.
    expect(calls).toHaveLength(2);
    calls[1]!(null);
    expect(heard).toEqual(['a', 'b', 'c']);
    expect(sync.syncs).toBe(2);
    // Nothing committed since: asked again, it is told at once, without an fsync.
    sync.after(() => heard.push('d'));
    expect(heard).toEqual(['a', 'b', 'c', 'd']);
    expect(calls).toHaveLength(2);
    sync.unsynced(() => db.exec('INSERT INTO t VALUES (1)'));
    sync.after(() => heard.push('e'));
    expect(calls).toHaveLength(3);
    sync.close();
    db.close();
  });

  it('a failed fsync fails what waits for it and everything asked after', () => {
    const { db, path } = fullDb();
    const { calls, datasync } = heldSyncs();
    const reported: string[] = [];
    const sync = new WalSync(db, `${path}-wal`, (error) => reported.push(error.message), datasync);
    sync.unsynced(() => db.exec('CREATE TABLE t (v)'));
    const heard: (Error | null)[] = [];
    sync.after((error) => heard.push(error));
    sync.after((error) => heard.push(error));
    calls[0]!(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    sync.after((error) => heard.push(error));
    expect(heard).toHaveLength(3);
    for (const error of heard)
      expect(error?.message).toMatch(/could not be written to the disk: EIO/);
    expect(calls).toHaveLength(1);
    expect(reported).toEqual([heard[0]!.message]);
    sync.close();
    db.close();
  });

  it('only what runs inside unsynced commits without SQLite fsync; the connection keeps its own', () => {
    const { db, path } = fullDb();
    const sync = new WalSync(db, `${path}-wal`, report);
    const inside = sync.unsynced(() => db.pragma('synchronous', { simple: true }));
    expect(inside).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(() =>
      sync.unsynced(() => {
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    sync.close();
    db.close();
  });
});

/** A writer on a full-durability database whose fsyncs the test ends. */
function fullWriter() {
  const { db, path } = fullDb();
  const { calls, datasync } = heldSyncs();
  const sync = new WalSync(db, `${path}-wal`, report, datasync);
  const writer = new Writer(db, storeKey(path), Date.now, report, sync);
  return { db, path, calls, sync, writer };
}

describe('the writer under durability full', () => {
  it('a decision is committed at once, and its caller hears of it only once the fsync is done', async () => {
    const { db, path, calls, sync, writer } = fullWriter();
    const first = decisionOp(writer, 'ls');
    await turn();
    const other = new Database(path, { readonly: true });
    const committed = other.prepare('SELECT count(*) FROM decisions WHERE request_id = ?').pluck();
    expect(committed.get(first.req.requestId)).toBe(1);
    await turn();
    expect(first.state()).toBe('pending');
    // Asked while the first fsync runs: its commit waits for the next one.
    const second = decisionOp(writer, 'pwd');
    await turn();
    expect(committed.get(second.req.requestId)).toBe(1);
    expect(calls).toHaveLength(1);
    calls[0]!(null);
    await first.promise;
    expect(first.state()).toBe('resolved');
    expect(second.state()).toBe('pending');
    calls[1]!(null);
    await second.promise;
    expect(second.state()).toBe('resolved');
    other.close();
    sync.close();
    db.close();
  });

  it('after a failed fsync its callers hear the write failed and nothing more is written', async () => {
    const { db, calls, sync, writer } = fullWriter();
    const first = decisionOp(writer, 'ls');
    await turn();
    calls[0]!(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await first.promise;
    expect(first.state()).toBeInstanceOf(StoreWriteError);
    const later = decisionOp(writer, 'pwd');
    await later.promise;
    expect(later.state()).toBeInstanceOf(StoreWriteError);
    expect(
      db
        .prepare('SELECT count(*) FROM requests WHERE request_id = ?')
        .pluck()
        .get(later.req.requestId),
    ).toBe(0);
    expect(calls).toHaveLength(1);
    sync.close();
    db.close();
  });

  it('a store opened with durability full records, syncs, verifies and closes', async () => {
    const { dbPath } = after.tempDir();
    const store = openStoreEngine({ path: dbPath, durability: 'full' });
    const requests = Array.from({ length: 50 }, (_, i) => request({ command: `echo ${i}` }));
    for (const req of requests) store.recordRequest(req);
    await Promise.all(requests.map((req) => store.recordDecision(decision(req), { latencyMs: 1 })));
    expect(store.stats()).toMatchObject({ records: 100 });
    expect(store.stats().syncs).toBeGreaterThanOrEqual(1);
    expect(store.verifyChain()).toMatchObject({ ok: true, rows: 100 });
    await store.close();
    const db = new Database(dbPath, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM decisions').pluck().get()).toBe(50);
    db.close();
  });
});
