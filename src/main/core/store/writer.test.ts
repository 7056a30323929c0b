import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  RecordRejectedError,
  StoreClosedError,
  StoreInputError,
  StoreWriteError,
  type StoreEngine,
} from '.';
import { decide, decision, request, tempStore } from '../../../../test/support/store';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function open(options: Parameters<typeof tempStore>[0] = {}): StoreEngine {
  const t = tempStore(options);
  cleanup = t.cleanup;
  return t.store;
}

describe('group commit', () => {
  it('commits many concurrent decisions in one or a few transactions, each before its promise resolves', async () => {
    const store = open();
    const reader = new Database(store.path, { readonly: true });
    const committedAtResolve: boolean[] = [];
    const seen = reader.prepare('SELECT 1 FROM decisions WHERE request_id = ?').pluck();
    const requests = Array.from({ length: 500 }, (_, i) => request({ command: `echo ${i}` }));
    for (const req of requests) store.recordRequest(req);
    const before = store.stats().commits;
    await Promise.all(
      requests.map((req) =>
        store.recordDecision(decision(req), { latencyMs: 1 }).then(() => {
          // Another connection sees only committed data: the decision must already be there.
          committedAtResolve.push(seen.get(req.requestId) === 1);
        }),
      ),
    );
    reader.close();
    expect(committedAtResolve).toHaveLength(500);
    expect(committedAtResolve.every(Boolean)).toBe(true);
    // Queued in the same turn, so all 1000 records (requests + decisions) shared one commit.
    expect(store.stats().commits - before).toBe(1);
    expect(store.stats().maxBatch).toBe(1000);
    expect(store.verifyChain()).toMatchObject({ ok: true, rows: 1000 });
  });

  it('decisions arriving over several turns share commits per turn', async () => {
    const store = open();
    let next = 0;
    const worker = async () => {
      while (next < 400) {
        next++;
        await decide(store, { command: 'ls' });
      }
    };
    await Promise.all(Array.from({ length: 40 }, worker));
    const { commits, records } = store.stats();
    expect(records).toBe(800);
    // 40 in flight: about one commit per 40 decisions, never one per decision.
    expect(commits).toBeLessThanOrEqual(20);
    expect(store.verifyChain()).toMatchObject({ ok: true, rows: 800 });
  });

  it('a failed commit rejects every waiting decision, and the store stays usable', async () => {
    const errors: Error[] = [];
    const store = open({ busyTimeoutMs: 20, onError: (e) => errors.push(e) });
    const ready = await decide(store, { command: 'true' });
    // Another connection holds the write lock, so the next batch cannot begin.
    const locker = new Database(store.path);
    locker.exec('BEGIN IMMEDIATE');
    const reqs = [request({ command: 'a' }), request({ command: 'b' })];
    for (const r of reqs) store.recordRequest(r);
    const results = await Promise.allSettled(
      reqs.map((r) => store.recordDecision(decision(r), { latencyMs: 1 })),
    );
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const r of results)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(StoreWriteError);
    expect(errors.length).toBe(2); // the two fire-and-forget requests of the failed batch
    expect(store.stats().failedCommits).toBe(1);
    locker.exec('ROLLBACK');
    locker.close();

    // Nothing of the failed batch was written; the same decisions fail closed (request unknown)...
    await expect(store.recordDecision(decision(reqs[0]!), { latencyMs: 1 })).rejects.toBeInstanceOf(
      RecordRejectedError,
    );
    // ...and new work goes through on an intact chain.
    await decide(store, { command: 'after' });
    expect(store.history({}).items).toHaveLength(2);
    expect(store.historyDetail(ready.requestId)).not.toBeNull();
    expect(store.verifyChain()).toMatchObject({ ok: true, rows: 4 });
  });

  it('refuses one bad record without failing the rest of its batch', async () => {
    const errors: string[] = [];
    const store = open({ onError: (e) => errors.push(e.message) });
    const good = request({ command: 'ok' });
    const dup = request({ command: 'dup' });
    const unknown = request({ command: 'never recorded' });
    store.recordRequest(good);
    store.recordRequest(dup);
    store.recordRequest({ ...dup }); // duplicate request id
    const outcomes = await Promise.allSettled([
      store.recordDecision(decision(good), { latencyMs: 1 }),
      store.recordDecision(decision(unknown), { latencyMs: 1 }),
      store.recordDecision(
        {
          ...decision(dup),
          reply: { outcome: 'selected', optionId: 'nope', optionKind: 'allow_once' },
        },
        { latencyMs: 1 },
      ),
      store.recordDecision(
        {
          ...decision(dup),
          reply: { outcome: 'selected', optionId: 'deny', optionKind: 'allow_once' },
        },
        { latencyMs: 1 },
      ),
      store.recordDecision({ ...decision(dup), sessionId: 'other' }, { latencyMs: 1 }),
      store.recordDecision(decision(dup, 'deny'), { latencyMs: 1 }),
      store.recordDecision(decision(dup, 'allow'), { latencyMs: 1 }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
    const reasons = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [(o.reason as Error).message] : [],
    );
    expect(reasons[0]).toMatch(/no such request/);
    expect(reasons[1]).toMatch(/option nope was not offered/);
    expect(reasons[2]).toMatch(/is reject_once, not allow_once/);
    expect(reasons[3]).toMatch(/agent or session differs/);
    expect(reasons[4]).toMatch(/already decided/);
    expect(errors).toEqual([expect.stringMatching(/request .*UNIQUE constraint failed/)]);
    expect(store.stats().failedCommits).toBe(0);
    expect(store.verifyChain()).toMatchObject({ ok: true, rows: 4 });
  });

  it('refuses a decision whose request row disappeared after it was cached, alone', async () => {
    const store = open();
    const gone = request({ command: 'gone' });
    const kept = request({ command: 'kept' });
    store.recordRequest(gone);
    store.recordRequest(kept);
    await store.flush();
    const db = new Database(store.path);
    db.prepare('DELETE FROM requests WHERE request_id = ?').run(gone.requestId); // as retention would
    db.close();
    const outcomes = await Promise.allSettled([
      store.recordDecision(decision(gone), {
        latencyMs: 1,
        votes: [
          {
            clientId: 'c',
            surface: 'api',
            identityProven: true,
            optionId: 'allow',
            outcome: 'accepted',
            at: 1,
          },
        ],
      }),
      store.recordDecision(decision(kept), { latencyMs: 1 }),
    ]);
    expect(outcomes[0]).toMatchObject({
      status: 'rejected',
      reason: expect.any(RecordRejectedError),
    });
    expect(outcomes[1]).toMatchObject({ status: 'fulfilled' });
    expect(store.stats().failedCommits).toBe(0);
    const check = new Database(store.path, { readonly: true });
    expect(check.prepare('SELECT count(*) FROM votes').pluck().get()).toBe(0);
    check.close();
  });

  it('refuses malformed input at the call site', async () => {
    const store = open();
    expect(() => store.recordRequest({ ...request(), requestId: 'not-a-uuid' })).toThrow(
      StoreInputError,
    );
    expect(() =>
      store.recordVote('', {
        clientId: null,
        surface: null,
        identityProven: false,
        optionId: null,
        outcome: 'x',
        at: 1,
      }),
    ).toThrow(StoreInputError);
    expect(() => store.recordEvent({ type: '' })).toThrow(StoreInputError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => store.recordEvent({ type: 'x', payload: cyclic })).toThrow(
      /Cannot serialise event payload/,
    );
    const req = request();
    await expect(
      store.recordDecision({ ...decision(req), decidedAt: Number.NaN }, { latencyMs: 1 }),
    ).rejects.toBeInstanceOf(StoreInputError);
    await expect(
      store.recordDecision(decision(req, 'allow', { decidedAt: 2 ** 50 }), { latencyMs: 1 }),
    ).rejects.toThrow(/not a plausible time/);
    await expect(
      store.recordDecision(decision(req), { latencyMs: Number.POSITIVE_INFINITY }),
    ).rejects.toBeInstanceOf(StoreInputError);
    expect(store.stats().records).toBe(0);
  });

  it('records votes and displayed with the decision, in the same commit', async () => {
    const store = open();
    const req = request({ command: 'rm -rf build' });
    store.recordRequest(req);
    const votes = [
      {
        clientId: 'phone',
        surface: 'browser' as const,
        identityProven: true,
        optionId: 'deny',
        outcome: 'accepted',
        at: req.issuedAt + 10,
      },
      {
        clientId: null,
        surface: null,
        identityProven: false,
        optionId: null,
        outcome: 'cancelled',
        at: req.issuedAt + 20,
      },
    ];
    await store.recordDecision(decision(req, 'deny'), { latencyMs: 20, votes, displayed: true });
    const detail = store.historyDetail(req.requestId)!;
    expect(detail.votes).toEqual(votes);
    expect(detail.displayed).toBe(true);
    expect(store.stats().commits).toBe(1);
  });

  it('flush() waits for fire-and-forget records; close() flushes, then refuses', async () => {
    const store = open();
    const req = request({ command: 'x' });
    store.recordRequest(req);
    store.recordEvent({
      type: 'agent_exited',
      agentId: 'gemini',
      sessionId: 's1',
      payload: { code: 1 },
    });
    expect(store.stats().queued).toBe(2);
    await store.flush();
    expect(store.stats()).toMatchObject({ queued: 0, records: 2 });
    const pending = store.recordDecision(decision(req), { latencyMs: 1 });
    await store.close();
    await expect(pending).resolves.toBeUndefined();
    await expect(store.recordDecision(decision(req), { latencyMs: 1 })).rejects.toBeInstanceOf(
      StoreClosedError,
    );
    expect(() => store.recordRequest(request())).toThrow(StoreClosedError);
    await store.close(); // idempotent
  });
});
