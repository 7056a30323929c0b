// The WAL is copied back into the database file by the reader's thread, not inside the writer's
// commits: a page reaches the file without the writer's connection ever checkpointing.
import { statSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { openStore, openStoreEngine, type Store } from '.';
import { openDatabase } from './database';
import { closedAfterEach, decision, request, type TempDir } from '../../../../test/support/store';

let tmp: TempDir | undefined;
let store: Store | undefined;
const made = closedAfterEach();

async function decide(s: Pick<Store, 'recordRequest' | 'recordDecision'>, count: number) {
  for (let i = 0; i < count; i++) {
    const req = request({ command: `echo ${i} ${'x'.repeat(200)}` });
    s.recordRequest(req);
    await s.recordDecision(decision(req, 'allow'), { latencyMs: 1, votes: [], displayed: true });
  }
}

describe('WAL checkpoints', { timeout: 60_000 }, () => {
  it('the reader thread copies committed pages into the database file', async () => {
    tmp = made.tempDir();
    store = made.store(await openStore({ path: tmp.dbPath, checkpointKey: 'k' }));
    await store.flush();
    const before = statSync(tmp.dbPath).size;
    // Far fewer frames than SQLite's own threshold (1,000 pages): a commit would not checkpoint.
    await decide(store, 200);
    await store.flush();
    const reader = store.threads.reader;
    await vi.waitFor(
      async () => {
        const stats = await reader.call('walCheckpointStats');
        expect(stats.frames).toBeGreaterThan(0);
        expect(statSync(tmp!.dbPath).size).toBeGreaterThan(before);
      },
      { timeout: 30_000, interval: 50 },
    );
    // Everything committed is still read back, from the file and what is left of the WAL.
    expect((await store.history({ limit: 500 })).items).toHaveLength(200);
    expect((await store.verifyChain()).ok).toBe(true);
  });

  it('the writer leaves small checkpoints to the reader, and the engine alone keeps its own', () => {
    tmp = made.tempDir();
    const engine = openStoreEngine({ path: tmp.dbPath, checkpointKey: 'k' });
    engine.close();
    const elsewhere = openDatabase(tmp.dbPath, { walCheckpoints: 'elsewhere' });
    const self = openDatabase(tmp.dbPath);
    try {
      expect(elsewhere.pragma('wal_autocheckpoint', { simple: true })).toBeGreaterThan(1000);
      expect(self.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    } finally {
      elsewhere.close();
      self.close();
    }
  });
});
