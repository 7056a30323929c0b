import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStoreEngine, DatabaseTooNewError, MIGRATIONS, SCHEMA_VERSION } from '.';
import { openDatabase } from './database';
import { migrate, schemaVersion } from './migrations';
import { Writer } from './writer';
import { prepareDecision, prepareRequest } from './records';
import { decision, diff, request, tempDir, storeKey } from '../../../../test/support/store';
import type { TempDir } from '../../../../test/support/store';

let tmp: TempDir;
afterEach(() => tmp?.cleanup());

/**
 * A database as an older Gatehouse left it: only the first `version` steps applied, with history in it.
 * Rows are written with the current writer, which only touches tables that exist since step 1. The
 * decision's `message` (step 6) is lent to an older database for the writing and taken away again:
 * every row holds NULL there, which the chain does not hash, as an older writer left it.
 */
async function databaseAtVersion(path: string, version: number, count: number): Promise<string[]> {
  const db = openDatabase(path);
  migrate(db, path, version);
  expect(schemaVersion(db)).toBe(version);
  const lent = version < 6;
  if (lent) db.exec('ALTER TABLE decisions ADD COLUMN message TEXT');
  const writer = new Writer(
    db,
    storeKey(path),
    () => 1_700_000_000_000,
    () => undefined,
  );
  const ids: string[] = [];
  const pending: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const req = request({
      command: `npm run build:${i}`,
      title: `Build step ${i}`,
      issuedAt: 1_700_000_000_000 + i * 10,
    });
    ids.push(req.requestId);
    writer.enqueue({ kind: 'request', prepared: prepareRequest(req) });
    pending.push(
      new Promise((resolve, reject) =>
        writer.enqueue({
          kind: 'decision',
          prepared: prepareDecision(decision(req, i % 2 ? 'deny' : 'allow'), { latencyMs: 5 }),
          waiter: { resolve, reject },
        }),
      ),
    );
  }
  await Promise.all(pending);
  if (lent) db.exec('ALTER TABLE decisions DROP COLUMN message');
  db.close();
  return ids;
}

describe('migrations', () => {
  it('creates the current schema on an empty database', async () => {
    tmp = tempDir();
    const store = openStoreEngine({ path: tmp.dbPath });
    await store.close();
    const db = new Database(tmp.dbPath, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")
      .pluck()
      .all();
    expect(tables).toEqual(
      expect.arrayContaining([
        'audit_log',
        'requests',
        'votes',
        'decisions',
        'events',
        'grants',
        'blobs',
        'history_fts',
        'decisions_by_agent',
      ]),
    );
    db.close();
  });

  it('has numbered steps 1..N', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
  });

  for (let version = 1; version < SCHEMA_VERSION; version++) {
    it(`upgrades a database at version ${version} with history in it`, async () => {
      tmp = tempDir();
      const ids = await databaseAtVersion(tmp.dbPath, version, 30);
      const store = openStoreEngine({ path: tmp.dbPath });
      try {
        const db = new Database(tmp.dbPath, { readonly: true });
        expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
        db.close();
        expect(store.verifyChain()).toMatchObject({ ok: true, rows: 60 });
        const all = store.history({ limit: 500 });
        expect(all.items.map((i) => i.requestId).sort()).toEqual([...ids].sort());
        // Full-text search covers rows written before the index existed.
        expect(store.history({ q: 'build 7' }).items.map((i) => i.title)).toContain('Build step 7');
        expect(store.history({ decision: 'deny', agentId: 'gemini' }).items).toHaveLength(15);
        // And the upgraded store keeps writing on the same chain.
        const req = request({ paths: ['a.ts'], diffs: [diff('a.ts', 'x', 'y')] });
        store.recordRequest(req);
        await store.recordDecision(decision(req), { latencyMs: 1 });
        expect(store.verifyChain()).toMatchObject({ ok: true, rows: 62 });
      } finally {
        await store.close();
      }
    });
  }

  it('refuses a database written by a newer Gatehouse, naming both versions', () => {
    tmp = tempDir();
    const db = openDatabase(tmp.dbPath);
    migrate(db, tmp.dbPath);
    db.pragma(`user_version = ${SCHEMA_VERSION + 3}`);
    db.close();
    let error: unknown;
    try {
      openStoreEngine({ path: tmp.dbPath });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DatabaseTooNewError);
    const message = (error as Error).message;
    expect(message).toContain(`version ${SCHEMA_VERSION + 3}`);
    expect(message).toContain(`up to ${SCHEMA_VERSION}`);
    expect(message).toMatch(/newer|move the file aside/);
    // Untouched.
    const check = new Database(tmp.dbPath, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 3);
    check.close();
  });

  it('applies pending steps in one transaction: a failing step leaves the old version intact', async () => {
    tmp = tempDir();
    await databaseAtVersion(tmp.dbPath, 1, 3);
    const db = new Database(tmp.dbPath);
    // Step 2 creates history_fts; an object already holding that name makes it fail half-way.
    db.exec('CREATE TABLE history_fts (x)');
    db.close();
    expect(() => openStoreEngine({ path: tmp.dbPath })).toThrow(/history_fts/);
    const check = new Database(tmp.dbPath, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(1);
    // The indexes step 2 creates before the failing statement were rolled back too.
    expect(
      check
        .prepare("SELECT count(*) FROM sqlite_master WHERE name = 'decisions_by_agent'")
        .pluck()
        .get(),
    ).toBe(0);
    check.close();
  });
});
