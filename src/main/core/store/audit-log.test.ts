import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreEngine } from '.';
import { entryHash, entryHashReference, GENESIS_HASH } from './audit-log';
import { canonicalJson } from './canonical';
import { decision, diff, request, tempStore } from '../../../../test/support/store';

let store: StoreEngine;
let dbPath: string;
let cleanup: () => Promise<void>;
let ids: string[];

beforeEach(async () => {
  ({ store, cleanup } = tempStore());
  dbPath = store.path;
  ids = [];
  for (let i = 0; i < 6; i++) {
    const req = request({
      command: `make target${i}`,
      diffs: i === 2 ? [diff('a.txt', 'old\n', 'new\n')] : [],
    });
    ids.push(req.requestId);
    store.recordRequest(req);
    store.recordEvent({
      type: 'fs_write',
      agentId: 'gemini',
      sessionId: 's1',
      payload: { path: `/tmp/${i}` },
    });
    await store.recordDecision(decision(req, i % 2 ? 'deny' : 'allow'), {
      latencyMs: 3,
      votes: [
        {
          clientId: 'desktop',
          surface: 'dialog',
          identityProven: true,
          optionId: 'allow',
          outcome: 'accepted',
          at: req.issuedAt + 5,
        },
      ],
    });
  }
  await store.saveGrant({
    agentId: 'gemini',
    scope: 'session',
    sessionId: 's1',
    toolKind: 'edit',
    paths: ['/x'],
  });
});
afterEach(async () => cleanup());

/** Tampers with the file from outside, the way a person with sqlite3 would. */
function tamper(sql: string, ...params: unknown[]): void {
  const db = new Database(dbPath);
  db.prepare(sql).run(...params);
  db.close();
}

function seqOf(kind: string, ref: string): number {
  const db = new Database(dbPath, { readonly: true });
  const seq = db
    .prepare('SELECT seq FROM audit_log WHERE kind = ? AND ref = ?')
    .pluck()
    .get(kind, ref) as number;
  db.close();
  return seq;
}

describe('audit chain verification', () => {
  it('verifies an untouched chain over requests, votes, decisions, events and grants', () => {
    // 6 × (request, event, vote, decision) + 1 grant
    expect(store.verifyChain()).toEqual({ ok: true, rows: 25 });
  });

  it('detects an edited decision row (projection), naming the entry and the request', () => {
    tamper("UPDATE decisions SET reason = 'rule:allow-all' WHERE request_id = ?", ids[3]);
    const result = store.verifyChain();
    expect(result).toMatchObject({
      ok: false,
      firstBrokenSeq: seqOf('decision', ids[3]!),
      requestId: ids[3],
    });
    expect(!result.ok && result.reason).toMatch(/decisions row was changed/);
  });

  it('detects a decision flipped from deny to allow', () => {
    tamper(
      "UPDATE decisions SET verdict = 'allow', option_id = 'allow', option_kind = 'allow_once' WHERE request_id = ?",
      ids[1],
    );
    expect(store.verifyChain()).toMatchObject({
      ok: false,
      firstBrokenSeq: seqOf('decision', ids[1]!),
    });
  });

  it('detects an edited request title and an edited vote', () => {
    tamper("UPDATE requests SET title = 'harmless' WHERE request_id = ?", ids[4]);
    expect(store.verifyChain()).toMatchObject({
      ok: false,
      firstBrokenSeq: seqOf('request', ids[4]!),
      requestId: ids[4],
    });
    tamper('UPDATE votes SET identity_proven = 0 WHERE request_id = ?', ids[0]);
    expect(store.verifyChain()).toMatchObject({
      ok: false,
      firstBrokenSeq: seqOf('vote', ids[0]!),
    });
  });

  it('detects a decision re-pointed at another request row', () => {
    tamper(
      'UPDATE decisions SET request_seq = (SELECT seq FROM requests WHERE request_id = ?) WHERE request_id = ?',
      ids[0],
      ids[4],
    );
    expect(store.verifyChain()).toMatchObject({
      ok: false,
      firstBrokenSeq: seqOf('decision', ids[4]!),
      reason: expect.stringMatching(/another request/),
    });
  });

  it('detects an edited audit_log entry (hash or kind)', () => {
    const seq = seqOf('decision', ids[2]!);
    tamper('UPDATE audit_log SET hash = ? WHERE seq = ?', 'f'.repeat(64), seq);
    expect(store.verifyChain()).toMatchObject({ ok: false, firstBrokenSeq: seq });
  });

  it('detects an audit_log entry deleted from the middle', () => {
    const seq = seqOf('request', ids[3]!);
    tamper('DELETE FROM audit_log WHERE seq = ?', seq);
    const result = store.verifyChain();
    expect(result).toMatchObject({ ok: false, firstBrokenSeq: seq });
    expect(!result.ok && result.reason).toMatch(/missing/);
  });

  it('detects a deleted decision (projection row gone, entry left)', () => {
    tamper(
      'DELETE FROM history_fts WHERE rowid = (SELECT hid FROM decisions WHERE request_id = ?)',
      ids[5],
    );
    tamper('DELETE FROM decisions WHERE request_id = ?', ids[5]);
    expect(store.verifyChain()).toMatchObject({
      ok: false,
      firstBrokenSeq: seqOf('decision', ids[5]!),
      requestId: ids[5],
    });
  });

  it('detects a deleted request with everything about it (entries renumbered to hide the gap)', () => {
    // The careful forger deletes the rows and their entries, then closes the seq gap.
    const db = new Database(dbPath);
    const gone = db
      .prepare('SELECT seq FROM audit_log WHERE ref = ? ORDER BY seq')
      .pluck()
      .all(ids[1]) as number[];
    db.prepare(
      'DELETE FROM history_fts WHERE rowid = (SELECT hid FROM decisions WHERE request_id = ?)',
    ).run(ids[1]);
    for (const t of ['decisions', 'votes', 'requests'])
      db.prepare(`DELETE FROM ${t} WHERE request_id = ?`).run(ids[1]);
    db.prepare('DELETE FROM audit_log WHERE ref = ?').run(ids[1]);
    db.close();
    expect(store.verifyChain()).toMatchObject({ ok: false, firstBrokenSeq: gone[0] });
  });

  it('detects reordered entries (two entries swapped)', () => {
    const a = seqOf('decision', ids[1]!);
    const b = seqOf('decision', ids[2]!);
    const db = new Database(dbPath);
    const rows = db
      .prepare('SELECT * FROM audit_log WHERE seq IN (?, ?) ORDER BY seq')
      .all(a, b) as Record<string, unknown>[];
    db.prepare('DELETE FROM audit_log WHERE seq IN (?, ?)').run(a, b);
    const insert = db.prepare(
      'INSERT INTO audit_log (seq, kind, ref, at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const [first, second] = rows as [Record<string, unknown>, Record<string, unknown>];
    insert.run(a, second.kind, second.ref, second.at, second.prev_hash, second.hash);
    insert.run(b, first.kind, first.ref, first.at, first.prev_hash, first.hash);
    db.close();
    expect(store.verifyChain()).toMatchObject({ ok: false, firstBrokenSeq: a });
  });

  it('detects a row added to a history table without an entry', () => {
    tamper(
      `INSERT INTO votes (seq, request_id, client_id, surface, identity_proven, option_id, outcome, at)
       VALUES (100000, ?, 'intruder', 'api', 1, 'allow', 'accepted', 1)`,
      ids[0],
    );
    const result = store.verifyChain();
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.reason).toMatch(/votes holds 7 vote rows but the chain has 6/);
  });

  it('detects entries cut from the end through the signed head', () => {
    const db = new Database(dbPath);
    const last = db.prepare('SELECT seq, ref FROM audit_log ORDER BY seq DESC LIMIT 1').get() as {
      seq: number;
      ref: string;
    };
    db.prepare('DELETE FROM grants WHERE grant_id = ?').run(last.ref);
    db.prepare('DELETE FROM audit_log WHERE seq = ?').run(last.seq);
    db.close();
    const result = store.verifyChain();
    expect(result).toMatchObject({ ok: false, firstBrokenSeq: last.seq });
    expect(!result.ok && result.reason).toMatch(/removed from the end/);
  });

  it('detects a changed diff blob', () => {
    tamper(
      "UPDATE blobs SET data = CAST('evil' AS BLOB), codec = 'identity' WHERE hash = (SELECT hash FROM blobs LIMIT 1)",
    );
    const result = store.verifyChain();
    expect(result).toMatchObject({ ok: false, requestId: ids[2] });
    expect(!result.ok && result.reason).toMatch(/Blob .* does not match/);
  });

  it('detects a forged head signature', () => {
    tamper("UPDATE chain_anchor SET mac = ? WHERE name = 'head'", '0'.repeat(64));
    expect(store.verifyChain()).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/signature/),
    });
  });
});

describe('entry hash', () => {
  it('the fast serializer equals canonical JSON of { seq, kind, ref, at, row }', () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constant(null),
    );
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.integer({ min: 1 }),
        fc.integer(),
        fc.array(value, { minLength: 7, maxLength: 7 }),
        (prev, ref, seq, at, values) => {
          const row = {
            request_id: values[0],
            client_id: values[1],
            surface: values[2],
            identity_proven: values[3],
            option_id: values[4],
            outcome: values[5],
            at: values[6],
          };
          const entry = { seq, kind: 'vote' as const, ref, at, row };
          expect(entryHash(prev, entry)).toBe(entryHashReference(prev, entry));
        },
      ),
    );
  });

  it('canonical JSON sorts keys and drops undefined members', () => {
    expect(
      canonicalJson({ b: 1, a: [1, undefined, 'x'], c: undefined, d: { z: null, y: 'é' } }),
    ).toBe('{"a":[1,null,"x"],"b":1,"d":{"y":"é","z":null}}');
    expect(GENESIS_HASH).toMatch(/^0{64}$/);
  });

  it('round-trips hostile strings through SQLite and still verifies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'grapheme' }),
        async (title, reason) => {
          const req = request({ title: title + '\u0000\ud800', command: reason });
          store.recordRequest(req);
          await store.recordDecision(decision(req, 'allow', { reason: reason + '\udfff' }), {
            latencyMs: 0,
          });
        },
      ),
      { numRuns: 40 },
    );
    expect(store.verifyChain()).toMatchObject({ ok: true });
  });
});
