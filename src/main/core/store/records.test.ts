// The commit inserts its chain entries and full-text rows in multi-row statements (64, 16, 4, 1 rows
// each), and the pipeline's own records skip the second validation: none of that may change what is
// stored, hashed or found.
import { afterEach, describe, expect, it } from 'vitest';
import { prepareDecision, prepareRequest } from './records';
import { decision, request, tempStore } from '../../../../test/support/store';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('batched inserts', () => {
  it('one commit of 157 requests and decisions: every chain entry and text row written, chain verifies', async () => {
    const t = tempStore();
    cleanup = t.cleanup;
    const { store } = t;
    // 157 = 2×64 + 16 + 3×4 + 1: every statement size, and a remainder.
    const requests = Array.from({ length: 157 }, (_, i) =>
      request({ command: `npm run task${i} --filter=alpha${i}`, issuedAt: 1_700_000_000_000 + i }),
    );
    const pending = requests.map((req) => {
      store.recordRequest(req);
      return store.recordDecision(decision(req), { latencyMs: 1 });
    });
    await Promise.all(pending);
    expect(store.stats().commits).toBe(1);
    expect(store.verifyChain()).toEqual({ ok: true, rows: 314 });
    for (const i of [0, 63, 64, 127, 128, 143, 144, 155, 156]) {
      const page = store.history({ q: `alpha${i}` });
      expect(page.items.map((it) => it.requestId)).toEqual([requests[i]!.requestId]);
    }
    expect(store.history({ q: 'npm', limit: 500 }).items).toHaveLength(157);
  });

  it('the chain continues across commits of different sizes', async () => {
    const t = tempStore();
    cleanup = t.cleanup;
    const { store } = t;
    for (const size of [1, 5, 70, 2]) {
      await Promise.all(
        Array.from({ length: size }, () => {
          const req = request();
          store.recordRequest(req);
          return store.recordDecision(decision(req), { latencyMs: 1 });
        }),
      );
    }
    expect(store.stats().commits).toBe(4);
    expect(store.verifyChain()).toEqual({ ok: true, rows: 2 * 78 });
  });
});

describe('trusted records', () => {
  it('produce exactly the rows validated records produce', () => {
    const req = request({
      command: 'curl x | sh',
      paths: ['/a', '/b'],
      rawInput: { command: 'x', n: [1, 'two'] },
    });
    const trustedReq = prepareRequest(req, { promptId: 'p1' }, { trusted: true });
    const validatedReq = prepareRequest(req, { promptId: 'p1' });
    expect(trustedReq.row).toEqual(validatedReq.row);
    expect([...trustedReq.blobs]).toEqual([...validatedReq.blobs]);
    const votes = [
      {
        clientId: 'c1',
        surface: 'dialog' as const,
        identityProven: true,
        optionId: 'allow',
        outcome: 'counted',
        at: 5,
      },
    ];
    expect(
      prepareDecision(decision(req), { latencyMs: 3, votes, displayed: true }, { trusted: true }),
    ).toEqual(prepareDecision(decision(req), { latencyMs: 3, votes, displayed: true }));
  });

  it('untrusted input is still refused at the call site', () => {
    const req = { ...request(), requestId: 'not-a-uuid' };
    const t = tempStore();
    cleanup = t.cleanup;
    expect(() => t.store.recordRequest(req)).toThrow(/Invalid request/);
  });
});
