// Every history filter combination on a 200k-decision store is read through an index in history
// order, never by a sort or by a walk of the table that checks each row.
//
// Accepted plans, no sort step (USE TEMP B-TREE) in any:
// - requests only by rowid from the decision row;
// - text search: the full-text index drives, one decision by rowid per match (the walk is over the
//   rows the words match, newest first, checked against the other filters);
// - no equality filter: decisions in rowid (history) order, whole or a rowid range (cursor, from, to),
//   left after one page: every row visited is on the page;
// - equality filters: an index SEARCH with an equality on each of its columns (so rows come in history
//   order and the reader stops after one page), on a filtered column, never a SCAN. Exact (every row
//   visited is shown) for a single column and for "has warnings" with one more column; with a session
//   filter, the session's index (bounded by the session's rows); other combinations are read through
//   one of their columns' index and the rest is checked row by row (bounded by that column's rows).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeciderType, ToolKind } from '../../../shared/domain';
import type { HistoryFilter, HistoryQuery } from '../../../shared/history';
import { openDatabase, type Db } from './database';
import { migrate } from './migrations';
import { Reader } from './reader';

const ROWS = 200_000;
const T0 = 1_750_000_000_000;
const AGENTS = ['gemini', 'claude', 'qwen', 'codex', 'goose', 'opencode', 'cursor', 'aider'];
const VERDICTS = ['allow', 'deny', 'cancelled'] as const;

interface Row {
  id: string;
  agent: string;
  session: string;
  kind: string;
  verdict: string;
  decider: string;
  warned: number;
  at: number;
}

/** Deterministic, with rare combinations: decider and warnings are drawn from unrelated strides. */
function row(i: number): Row {
  return {
    id: `01900000-0000-7000-8000-${i.toString(16).padStart(12, '0')}`,
    agent: AGENTS[i % AGENTS.length]!,
    session: `sess-${Math.floor(i / 500)}`,
    kind: ToolKind.options[(i * 31) % ToolKind.options.length]!,
    verdict: VERDICTS[(i * 17) % 3]!,
    decider: DeciderType.options[(i * 13) % DeciderType.options.length]!,
    warned: (i * 7) % 100 < 3 ? 1 : 0,
    // Two decisions share each millisecond, as a busy store has.
    at: T0 + Math.floor(i / 2) * 5,
  };
}

function generate(db: Db): Row[] {
  const rows: Row[] = [];
  const req =
    db.prepare(`INSERT INTO requests (seq, request_id, agent_id, agent_name, session_id, cwd,
    tool_call_id, tool_kind, title, tool_call_json, paths_json, options_json, warnings_json, warning_codes,
    has_warnings, diffs_json, policy, issued_at, expires_at)
    VALUES (?, ?, ?, ?, ?, '/p', 'tc', ?, ?, '{}', '[]', '[]', '[]', '[]', ?, '[]', 'first-responder', ?, ?)`);
  const dec =
    db.prepare(`INSERT INTO decisions (hid, request_id, request_seq, seq, agent_id, session_id,
    tool_kind, has_warnings, verdict, outcome, decider_type, decider_json, reason, decided_at, latency_ms,
    displayed) VALUES ((? << 21) | ?, ?, ?, ?, ?, ?, ?, ?, ?, 'cancelled', ?, '{}', 'r', ?, 1, 0)`);
  const fts = db.prepare(
    "INSERT INTO history_fts (rowid, title, command, paths) VALUES ((? << 21) | ?, ?, '', '')",
  );
  // Indexes built once over the rows are several times faster than kept up row by row.
  const indexes = db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'decisions' AND sql IS NOT NULL",
    )
    .all() as { name: string; sql: string }[];
  db.transaction(() => {
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
    for (let i = 0; i < ROWS; i++) {
      const r = row(i);
      const title = `Run deploy step ${i % 97}`;
      rows.push(r);
      req.run(2 * i + 1, r.id, r.agent, r.agent, r.session, r.kind, title, r.warned, r.at, r.at);
      dec.run(
        r.at,
        i % 2,
        r.id,
        2 * i + 1,
        2 * i + 2,
        r.agent,
        r.session,
        r.kind,
        r.warned,
        r.verdict,
        r.decider,
        r.at,
      );
      if (i % 10 === 0) fts.run(r.at, i % 2, title);
    }
    for (const index of indexes) db.exec(index.sql);
  })();
  db.exec('ANALYZE');
  return rows;
}

const FILTER: Required<Omit<HistoryFilter, 'q'>> = {
  agentId: 'gemini',
  sessionId: 'sess-8',
  toolKind: 'edit',
  decision: 'deny',
  decider: 'timeout',
  hasWarnings: true,
  from: T0 + 1000,
  to: T0 + 400_000,
};
const COLUMN = {
  agentId: 'agent_id',
  sessionId: 'session_id',
  toolKind: 'tool_kind',
  decision: 'verdict',
  decider: 'decider_type',
  hasWarnings: 'has_warnings',
} as const;
const EQUALITY = Object.keys(COLUMN) as (keyof typeof COLUMN)[];

/** Every subset of the filter's fields, with and without text, with and without a cursor. */
function combinations(cursor: string): HistoryQuery[] {
  const keys = [...(Object.keys(FILTER) as (keyof typeof FILTER)[]), 'q', 'cursor'] as const;
  const out: HistoryQuery[] = [];
  for (let mask = 0; mask < 1 << keys.length; mask++) {
    const query: Record<string, unknown> = {};
    keys.forEach((k, bit) => {
      if (!(mask & (1 << bit))) return;
      query[k] = k === 'q' ? 'deploy' : k === 'cursor' ? cursor : FILTER[k];
    });
    out.push(query as HistoryQuery);
  }
  return out;
}

/** Why the plan is not accepted (see the top of this file), or null. */
function rejection(query: HistoryQuery, plan: string[], withWarnings: Set<string>): string | null {
  if (plan.some((l) => l.includes('TEMP B-TREE'))) return 'sorts';
  const requests = plan.filter((l) => / r\b/.test(l));
  if (requests.length !== 1 || requests[0] !== 'SEARCH r USING INTEGER PRIMARY KEY (rowid=?)') {
    return 'reads requests other than by rowid';
  }
  const decisions = plan.filter((l) => / d\b/.test(l));
  if (decisions.length !== 1) return 'reads decisions twice';
  const step = decisions[0]!;
  if (query.q !== undefined) {
    const driven = /^SCAN f VIRTUAL TABLE/.test(plan[0]!);
    return driven && step === 'SEARCH d USING INTEGER PRIMARY KEY (rowid=?)'
      ? null
      : 'text search not driven by the full-text index';
  }
  const pinned = EQUALITY.filter((k) => query[k] !== undefined).map((k) => COLUMN[k]);
  if (pinned.length === 0) {
    return /^(SCAN d$|SEARCH d USING INTEGER PRIMARY KEY \(rowid[<>])/.test(step)
      ? null
      : 'unfiltered page not read in rowid order';
  }
  const search = /^SEARCH d USING INDEX (\w+) \((.*)\)$/.exec(step);
  if (!search) return 'equality filter without an index search';
  const covered = search[2]!
    .split(' AND ')
    .filter((c) => c.endsWith('=?'))
    .map((c) => c.slice(0, -2));
  // A partial index on has_warnings = 1 pins that column too.
  if (withWarnings.has(search[1]!)) covered.push('has_warnings');
  if (covered.length === 0 || covered.some((c) => !(pinned as string[]).includes(c))) {
    return 'index not on the filtered columns';
  }
  if (covered.includes('session_id')) return null;
  const exact = pinned.length === 1 || (pinned.length === 2 && query.hasWarnings === true);
  const loose = pinned.filter((c) => !covered.includes(c));
  return exact && loose.length > 0 ? `checks ${loose.join(', ')} row by row` : null;
}

describe('history page plans on a 200k-decision store', () => {
  let dir: string;
  let db: Db;
  let rows: Row[];
  let reader: Reader;
  let withWarnings: Set<string>;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-plans-'));
    const path = join(dir, 'gatehouse.db');
    db = openDatabase(path);
    migrate(db, path);
    rows = generate(db);
    reader = new Reader(db);
    withWarnings = new Set(
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '%WHERE has_warnings = 1'",
        )
        .pluck()
        .all() as string[],
    );
  }, 60_000);

  afterAll(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads every filter combination through an index or a walk bounded by the page', () => {
    const cursor = reader.page({ limit: 50 }).nextCursor!;
    const queries = combinations(cursor);
    expect(queries).toHaveLength(1 << 10);
    const rejected = queries
      .map((q) => ({ q, plan: reader.explain(q) }))
      .map(({ q, plan }) => ({ q, plan, why: rejection(q, plan, withWarnings) }))
      .filter((r) => r.why !== null);
    expect(
      rejected.slice(0, 5).map((r) => `${JSON.stringify(r.q)}: ${r.why} (${r.plan.join(' | ')})`),
    ).toEqual([]);
  });

  it('rejects scans, sorts and row-by-row checks where an exact index is required', () => {
    const byRowid = 'SEARCH r USING INTEGER PRIMARY KEY (rowid=?)';
    const none = new Set<string>();
    const q = { decider: 'timeout', hasWarnings: true } as const;
    // The plan before the partial indexes: the timeouts read and their warnings checked one by one.
    expect(
      rejection(
        q,
        ['SEARCH d USING INDEX decisions_by_decider (decider_type=? AND rowid<?)', byRowid],
        none,
      ),
    ).toMatch(/has_warnings/);
    expect(
      rejection(q, ['SEARCH d USING INDEX w (decider_type=?)', byRowid], new Set(['w'])),
    ).toBeNull();
    expect(rejection(q, ['SCAN d', byRowid], none)).not.toBeNull();
    expect(rejection({ hasWarnings: false }, ['SCAN d', byRowid], none)).not.toBeNull();
    expect(rejection({}, ['SCAN d', byRowid, 'USE TEMP B-TREE FOR ORDER BY'], none)).toBe('sorts');
    expect(rejection({}, ['SCAN d', byRowid], none)).toBeNull();
  });

  it('returns the same first page as a filter over all rows, for every equality combination', () => {
    for (let mask = 0; mask < 1 << EQUALITY.length; mask++) {
      const filter: HistoryFilter = {};
      EQUALITY.forEach((k, bit) => {
        if (mask & (1 << bit)) Object.assign(filter, { [k]: FILTER[k] });
      });
      const expected = rows
        .filter(
          (r) =>
            (filter.agentId === undefined || r.agent === filter.agentId) &&
            (filter.sessionId === undefined || r.session === filter.sessionId) &&
            (filter.toolKind === undefined || r.kind === filter.toolKind) &&
            (filter.decision === undefined || r.verdict === filter.decision) &&
            (filter.decider === undefined || r.decider === filter.decider) &&
            (filter.hasWarnings === undefined || r.warned === (filter.hasWarnings ? 1 : 0)),
        )
        .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
        .slice(0, 20)
        .map((r) => r.id);
      const page = reader.page({ ...filter, limit: 20 }).items.map((i) => i.requestId);
      expect(page, JSON.stringify(filter)).toEqual(expected);
    }
  });
});
