// A decision's detail: the whole request, its votes and diffs restored from the store's blobs.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryDetail } from '../../../shared/history';
import type { StoreEngine } from '.';
import { decision, diff, request, tempStore } from '../../../../test/support/store';

describe('detail', () => {
  let detailStore: StoreEngine;
  let done: () => Promise<void>;
  beforeAll(() => {
    ({ store: detailStore, cleanup: done } = tempStore());
  });
  afterAll(async () => done());

  it('returns the whole request with votes, decision and diffs restored from compressed blobs', async () => {
    const big = 'line of a large file\n'.repeat(5000);
    const diffs = [
      diff('src/big.ts', big, big + 'added\n'),
      diff('src/new.ts', null, 'export {};\n'),
    ];
    const spoof = { $blob: 'deadbeef', $lit: 'x', note: 'not a reference' };
    const req = request({
      paths: ['src/big.ts'],
      diffs,
      rawInput: {
        file_path: 'src/big.ts',
        content: big + 'added\n',
        meta: spoof,
        arr: [{ $lit: { $blob: 1 } }],
      },
    });
    req.toolCall.content = [
      { type: 'diff', path: 'src/big.ts', oldText: big, newText: big + 'added\n' },
      { type: 'content', content: { type: 'text', text: 'hi' } },
    ];
    req.command = null;
    detailStore.recordRequest(req);
    const votes = [
      {
        clientId: 'c1',
        surface: 'notification' as const,
        identityProven: true,
        optionId: 'allow',
        outcome: 'accepted',
        at: req.issuedAt + 1,
      },
    ];
    await detailStore.recordDecision(decision(req, 'always'), { latencyMs: 7, votes });

    const detail = detailStore.historyDetail(req.requestId)!;
    expect(HistoryDetail.safeParse(detail).success).toBe(true);
    expect(detail.diffs).toEqual(diffs);
    expect(detail.toolCall).toEqual(req.toolCall);
    expect(detail.options).toEqual(req.options);
    expect(detail.votes).toEqual(votes);
    expect(detail).toMatchObject({
      cwd: req.cwd,
      policy: req.policy,
      expiresAt: req.expiresAt,
      displayed: false,
      optionName: 'Always allow',
      command: null,
    });
    expect(detail.reply).toEqual({
      outcome: 'selected',
      optionId: 'always',
      optionKind: 'allow_always',
    });

    // The same large texts again in a second request: no new blob rows.
    const count = () => {
      const db = new Database(detailStore.path, { readonly: true });
      const n = db
        .prepare('SELECT count(*) AS n, sum(length(data)) AS bytes, sum(size) AS size FROM blobs')
        .get() as { n: number; bytes: number; size: number };
      db.close();
      return n;
    };
    const before = count();
    expect(before.n).toBe(3); // big, big + 'added', 'export {};\n' (tool call strings > 1 KiB reuse the first two)
    expect(before.bytes).toBeLessThan(before.size / 20); // compressed
    const again = request({ paths: ['src/big.ts'], diffs });
    detailStore.recordRequest(again);
    await detailStore.recordDecision(decision(again, 'deny'), { latencyMs: 1 });
    expect(count().n).toBe(3);
    expect(detailStore.historyDetail(again.requestId)!.diffs).toEqual(diffs);
    expect(detailStore.verifyChain()).toMatchObject({ ok: true });
  });

  it('marks a request displayed by an event as well', async () => {
    const req = request({ command: 'ls' });
    detailStore.recordRequest(req);
    detailStore.markDisplayed(req.requestId, { clientId: 'desktop', surface: 'dialog' });
    await detailStore.recordDecision(decision(req), { latencyMs: 1 });
    expect(detailStore.historyDetail(req.requestId)!.displayed).toBe(true);
  });

  it('returns null for an unknown or undecided request', async () => {
    const req = request();
    detailStore.recordRequest(req);
    await detailStore.flush();
    expect(detailStore.historyDetail(req.requestId)).toBeNull();
    expect(detailStore.historyDetail('01900000-0000-7000-8000-000000000000')).toBeNull();
  });

  it('carries what an allowed command really changed, its preview beside it and the difference', async () => {
    const req = request();
    detailStore.recordRequest(req);
    await detailStore.recordDecision(decision(req, 'allow'), { latencyMs: 1, votes: [] });
    const counts = { created: 3, modified: 1, deleted: 0, renamed: 0, outside: 0, protected: 0 };
    const effects = {
      state: 'observed',
      reason: null,
      endedBy: 'completed',
      changes: [
        {
          path: '/w/a.txt',
          oldPath: null,
          change: 'modified',
          entry: 'file',
          size: 2,
          place: 'root',
        },
      ],
      counts,
      previewed: { ...counts, created: 0 },
      difference: 'previewed 1 file, changed 4',
      startedAt: 1,
      endedAt: 2,
    };
    detailStore.recordEvent({
      type: 'command_effects',
      requestId: req.requestId,
      payload: { ...effects, heldReplyMs: 12, notKept: [] },
    });
    await detailStore.flush();
    const detail = detailStore.historyDetail(req.requestId)!;
    expect(HistoryDetail.safeParse(detail).success).toBe(true);
    // What the audit keeps besides (how long the allow was held) stays in the audit.
    expect(detail.effects).toEqual(effects);
  });

  it('lists events newest first, by type, agent, session or request, with a keyset cursor', async () => {
    for (let i = 0; i < 5; i++)
      detailStore.recordEvent({
        type: i % 2 ? 'fs_write' : 'fs_write_refused',
        agentId: 'a1',
        sessionId: `x${i}`,
        requestId: null,
        payload: { n: i },
      });
    await detailStore.flush();
    const writes = detailStore.events({ type: 'fs_write' });
    expect(writes.map((e) => e.payload)).toEqual([{ n: 3 }, { n: 1 }]);
    expect(writes[0]).toMatchObject({
      type: 'fs_write',
      agentId: 'a1',
      sessionId: 'x3',
      requestId: null,
      at: expect.any(Number),
    });
    expect(detailStore.events({ sessionId: 'x2' })).toHaveLength(1);
    const firstTwo = detailStore.events({ agentId: 'a1', limit: 2 });
    const rest = detailStore.events({ agentId: 'a1', beforeSeq: firstTwo[1]!.seq });
    expect([...firstTwo, ...rest].map((e) => (e.payload as { n: number }).n)).toEqual([
      4, 3, 2, 1, 0,
    ]);
  });

  it('lists agents and sessions seen', async () => {
    detailStore.recordEvent({
      type: 'session_opened',
      agentId: 'qwen',
      sessionId: 'q1',
      payload: { cwd: '/w' },
      at: 5,
    });
    detailStore.recordEvent({ type: 'session_closed', agentId: 'qwen', sessionId: 'q1', at: 9 });
    await detailStore.flush();
    expect(detailStore.agents().map((a) => a.agentId)).toEqual(['gemini']);
    expect(detailStore.sessions('qwen')).toEqual([
      { agentId: 'qwen', sessionId: 'q1', cwd: '/w', openedAt: 5, closedAt: 9 },
    ]);
  });
});
