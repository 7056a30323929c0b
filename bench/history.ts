// History store benchmark: page queries on 1,000,000 decisions and write throughput through group
// commit, each next to a floor measured in the same run on the same machine (ratios are what we hold).
//   npx tsx bench/history.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { v7 as uuidv7 } from 'uuid';
import type { Decision, PendingApproval } from '../src/shared/domain';
import type { HistoryQuery } from '../src/shared/history';
import { openStore, type Durability, type Store } from '../src/main/core/store';
import { openDatabase, type Db } from '../src/main/core/store/database';

export type Report = (name: string, figures: Record<string, number | string>) => void;

const ROWS = Number(process.env.BENCH_HISTORY_ROWS ?? 1_000_000);
const T0 = 1_700_000_000_000;
const AGENTS = ['gemini', 'claude', 'qwen', 'codex', 'goose', 'opencode', 'cursor', 'aider'];
const WORDS = (
  'build test lint deploy migrate render cleanup format compile bundle publish release install update ' +
  'server client router button dialog modal table chart form input select upload download cache queue ' +
  'worker scheduler parser lexer token session auth login logout signup profile settings config schema ' +
  'database index query model view controller service handler middleware plugin theme layout header footer ' +
  'sidebar menu navbar search filter sort paginate export import backup restore sync stream socket channel ' +
  'event emitter listener observer reducer store action effect hook context provider consumer fixture mock ' +
  'stub spy snapshot coverage report metric trace span logger audit policy rule grant permission approval ' +
  'agent mediator pipeline payload request response header cookie token refresh secret vault key cert'
).split(' ');

function quantiles(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/** p50/p95 in ms of `run` over `iterations` calls, after a warm-up whose calls pass measured = false. */
function time(
  iterations: number,
  run: (i: number, measured: boolean) => void,
): { p50: number; p95: number } {
  for (let i = 0; i < Math.min(30, iterations); i++) run(i, false);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    run(i, true);
    samples.push(performance.now() - start);
  }
  return quantiles(samples);
}

const round = (n: number, digits = 3) => Number(n.toFixed(digits));

/** Bulk-generates `rows` decided requests directly in SQL (no audit chain: the bench never verifies). */
export function generate(db: Db, rows: number): void {
  db.pragma('synchronous = OFF');
  const indexes = db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'decisions' AND sql IS NOT NULL",
    )
    .all() as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
  db.exec('CREATE TEMP TABLE words (id INTEGER PRIMARY KEY, w TEXT NOT NULL)');
  const word = db.prepare('INSERT INTO temp.words (id, w) VALUES (?, ?)');
  WORDS.forEach((w, i) => word.run(i, w));
  const agentCase = `CASE i % ${AGENTS.length} ${AGENTS.map((a, n) => `WHEN ${n} THEN '${a}'`).join(' ')} END`;
  const kindCase = `CASE WHEN (i * 31) % 100 < 30 THEN 'edit' WHEN (i * 31) % 100 < 60 THEN 'execute' WHEN (i * 31) % 100 < 80 THEN 'read'
    WHEN (i * 31) % 100 < 85 THEN 'delete' WHEN (i * 31) % 100 < 88 THEN 'move' WHEN (i * 31) % 100 < 92 THEN 'search'
    WHEN (i * 31) % 100 < 95 THEN 'fetch' WHEN (i * 31) % 100 < 97 THEN 'think' ELSE 'other' END`;
  db.transaction(() => {
    db.exec(`
      CREATE TEMP TABLE gen AS
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows - 1}),
      base AS (
        SELECT i,
          printf('01900000-%04x-7%03x-8000-%012x', (i >> 24) & 65535, (i >> 12) & 4095, i) AS id,
          ${agentCase} AS agent,
          printf('sess-%d', (i / 500) % 2000) AS session,
          ${kindCase} AS kind,
          (SELECT w FROM temp.words WHERE id = (i * 7919) % ${WORDS.length}) AS w1,
          (SELECT w FROM temp.words WHERE id = (i * 104729) % ${WORDS.length}) AS w2,
          ${T0} + (i / 2) * 16 AS decided_at
        FROM n
      )
      SELECT i, id, agent, session, kind, decided_at,
        CASE kind WHEN 'execute' THEN 'Run ' || w1 || ' ' || w2 ELSE 'Edit ' || w1 || '/' || w2 || (i % 97) || '.ts' END AS title,
        CASE kind WHEN 'execute' THEN printf('npm run %s -- --filter=%s', w1, w2) END AS command,
        CASE kind WHEN 'execute' THEN NULL ELSE printf('src/%s/%s%d.ts', w1, w2, i % 97) END AS path,
        (i * 7) % 100 < 3 AS warned,
        (i * 17) % 100 AS v,
        (i * 13) % 100 AS k
      FROM base;
      INSERT INTO requests (request_id, seq, agent_id, agent_name, session_id, prompt_id, cwd, tool_call_id, tool_kind,
        title, tool_call_json, paths_json, command_text, command_json, options_json, warnings_json, warning_codes,
        has_warnings, diffs_json, policy, issued_at, expires_at)
      SELECT id, 2 * i + 1, agent, agent, session, NULL, '/home/dev/' || agent, 'tc-' || i, kind, title,
        json_object('toolCallId', 'tc-' || i, 'kind', kind, 'title', title, 'locations', json_array(), 'rawInput', json_object('i', i), 'content', json_array()),
        CASE WHEN path IS NULL THEN '[]' ELSE json_array(path) END,
        command,
        CASE WHEN command IS NOT NULL THEN json_object('command', command, 'args', NULL, 'cwd', NULL, 'source', 'rawInput') END,
        '[{"optionId":"allow","name":"Allow once","kind":"allow_once"},{"optionId":"deny","name":"Deny","kind":"reject_once"}]',
        CASE WHEN warned THEN '[{"code":"secret_path","severity":"danger","message":"m","where":"path"}]' ELSE '[]' END,
        CASE WHEN warned THEN '["secret_path"]' ELSE '[]' END,
        warned, '[]', 'first-responder', decided_at - 900, decided_at + 300000
      FROM temp.gen;
      INSERT INTO decisions (hid, request_id, request_seq, seq, agent_id, session_id, tool_kind, has_warnings, verdict, outcome,
        option_id, option_kind, option_name, decider_type, decider_ref, decider_json, reason, decided_at, latency_ms, displayed)
      SELECT (decided_at << 21) + (i % 2), id, 2 * i + 1, 2 * i + 2, agent, session, kind, warned,
        CASE WHEN v < 70 THEN 'allow' WHEN v < 95 THEN 'deny' ELSE 'cancelled' END,
        CASE WHEN v < 95 THEN 'selected' ELSE 'cancelled' END,
        CASE WHEN v < 70 THEN 'allow' WHEN v < 95 THEN 'deny' END,
        CASE WHEN v < 70 THEN 'allow_once' WHEN v < 95 THEN 'reject_once' END,
        CASE WHEN v < 70 THEN 'Allow once' WHEN v < 95 THEN 'Deny' END,
        CASE WHEN k < 40 THEN 'person' WHEN k < 70 THEN 'rule' WHEN k < 80 THEN 'grant'
          WHEN k < 90 THEN 'mode' WHEN k < 95 THEN 'timeout' ELSE 'agent_exit' END,
        NULL, '{"type":"timeout"}', 'first-responder', decided_at, 900, 1
      FROM temp.gen;
      INSERT INTO history_fts (rowid, title, command, paths)
        SELECT (decided_at << 21) + (i % 2), title, coalesce(command, ''), coalesce(path, '') FROM temp.gen;
      DROP TABLE temp.gen;
      -- The floor: a plain table of the same size, read by primary key range.
      CREATE TABLE bench_floor (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value INTEGER NOT NULL);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
      INSERT INTO bench_floor SELECT i, 'row ' || i, i * 7 FROM n;
    `);
    for (const index of indexes) db.exec(index.sql);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
}

async function benchQueries(report: Report, dir: string): Promise<void> {
  const path = join(dir, 'history.db');
  openStore({ path })
    .close()
    .catch(() => undefined); // create the schema
  await new Promise((r) => setTimeout(r, 10));
  const db = openDatabase(path);
  const started = performance.now();
  generate(db, ROWS);
  const seconds = (performance.now() - started) / 1000;
  const floorStmt = db.prepare(
    'SELECT id, name, value FROM bench_floor WHERE id >= ? ORDER BY id LIMIT 100',
  );
  const floor = time(400, (i) => floorStmt.all(1 + ((i * 7919) % (ROWS - 100))));
  db.close();
  report('history: generated', { decisions: ROWS, seconds: round(seconds, 1) });
  report('history: floor (100 rows by primary key range, 1M-row table)', {
    p50_ms: round(floor.p50),
    p95_ms: round(floor.p95),
  });

  const store = openStore({ path });
  const measure = (name: string, iterations: number, query: (i: number) => HistoryQuery) => {
    let items = 0;
    const t = time(iterations, (i, measured) => {
      const n = store.history(query(i)).items.length;
      if (measured) items += n;
    });
    report(`history: ${name}`, {
      p50_ms: round(t.p50),
      p95_ms: round(t.p95),
      p50_vs_floor: round(t.p50 / floor.p50, 1),
      p95_vs_floor: round(t.p95 / floor.p95, 1),
      avg_items: round(items / iterations, 1),
    });
  };
  const first = store.history({ limit: 100 });
  measure('first page (100)', 300, () => ({ limit: 100 }));
  measure('next page (cursor)', 300, () => ({ limit: 100, cursor: first.nextCursor! }));
  measure('filtered page (agent + kind + decision)', 300, (i) => ({
    limit: 100,
    agentId: AGENTS[i % AGENTS.length]!,
    toolKind: i % 2 ? 'execute' : 'edit',
    decision: i % 3 ? 'allow' : 'deny',
  }));
  measure('filtered page (decider timeout + warnings)', 100, () => ({
    limit: 100,
    decider: 'timeout',
    hasWarnings: true,
  }));
  measure('text search, one word', 300, (i) => ({ limit: 100, q: WORDS[i % WORDS.length]! }));
  measure('text search, two words', 300, (i) => ({
    limit: 100,
    q: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}`,
  }));
  measure('text search, short prefix', 300, (i) => ({
    limit: 100,
    q: WORDS[i % WORDS.length]!.slice(0, 3),
  }));
  measure('text search + agent filter', 300, (i) => ({
    limit: 100,
    q: WORDS[i % WORDS.length]!,
    agentId: AGENTS[i % AGENTS.length]!,
  }));
  const detailIds = store
    .history({ limit: 200, cursor: first.nextCursor! })
    .items.map((it) => it.requestId);
  const detail = time(300, (i) => store.historyDetail(detailIds[i % detailIds.length]!));
  report('history: detail', { p50_ms: round(detail.p50), p95_ms: round(detail.p95) });
  await store.close();
}

function pending(i: number): PendingApproval {
  const issuedAt = T0 + i;
  return {
    requestId: uuidv7(),
    sessionId: `s${i % 20}`,
    agentId: AGENTS[i % AGENTS.length]!,
    agentName: 'Agent',
    cwd: '/home/dev/project',
    toolCall: {
      toolCallId: `tc-${i}`,
      kind: 'execute',
      title: `Run ${WORDS[i % WORDS.length]} tests`,
      locations: [],
      rawInput: { command: `npm run ${WORDS[i % WORDS.length]}` },
      content: [],
    },
    options: [
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
    ],
    policy: 'first-responder',
    issuedAt,
    expiresAt: issuedAt + 300_000,
    warnings: [],
    diffs: [],
    command: {
      command: `npm run ${WORDS[i % WORDS.length]}`,
      args: null,
      cwd: null,
      source: 'rawInput',
    },
    tally: null,
  };
}

function decisionFor(req: PendingApproval, i: number): Decision {
  return {
    requestId: req.requestId,
    sessionId: req.sessionId,
    agentId: req.agentId,
    reply:
      i % 4
        ? { outcome: 'selected', optionId: 'allow', optionKind: 'allow_once' }
        : { outcome: 'selected', optionId: 'deny', optionKind: 'reject_once' },
    decider: { type: 'rule', ruleId: 'r1' },
    decidedAt: req.issuedAt + 1,
    reason: 'rule',
  };
}

/** Throughput (per s, wall clock) and CPU time of this process per step (µs): the CPU figure is far
 * less disturbed by other load on a shared machine. */
async function inFlight(
  count: number,
  concurrency: number,
  step: (i: number) => Promise<void>,
): Promise<{ perSecond: number; cpuUs: number }> {
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const worker = async () => {
    while (next < count) await step(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const used = process.cpuUsage(cpu);
  return {
    perSecond: count / ((performance.now() - started) / 1000),
    cpuUs: (used.user + used.system) / count,
  };
}

async function benchWrites(report: Report, dir: string): Promise<void> {
  const N = Number(process.env.BENCH_HISTORY_WRITES ?? 20_000);
  for (const durability of ['normal', 'full'] as Durability[]) {
    // Floors: a plain INSERT of one small row per WAL commit, and all rows in one transaction.
    const floorDb = openDatabase(join(dir, `floor-${durability}.db`), { durability });
    floorDb.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const insert = floorDb.prepare('INSERT INTO t (v) VALUES (?)');
    const singles = durability === 'full' ? Math.min(N, 1000) : N; // an fsync per row is slow
    let started = performance.now();
    for (let i = 0; i < singles; i++) insert.run(`row ${i}`);
    const perCommit = singles / ((performance.now() - started) / 1000);
    started = performance.now();
    floorDb.transaction(() => {
      for (let i = 0; i < N; i++) insert.run(`row ${i}`);
    })();
    const oneTx = N / ((performance.now() - started) / 1000);
    floorDb.close();

    const requests = Array.from({ length: N }, (_, i) => pending(i));
    const decisions = requests.map(decisionFor);
    let store: Store = openStore({ path: join(dir, `writes-${durability}.db`), durability });
    const both = await inFlight(N, 100, async (i) => {
      store.recordRequest(requests[i]!);
      await store.recordDecision(decisions[i]!, { latencyMs: 1 });
    });
    const commitsBoth = store.stats().commits;
    await store.close();

    store = openStore({ path: join(dir, `writes-only-${durability}.db`), durability });
    const more = requests.map((_, i) => pending(i + N));
    for (const req of more) store.recordRequest(req);
    await store.flush();
    const before = store.stats().commits;
    const only = await inFlight(N, 100, (i) =>
      store.recordDecision(decisionFor(more[i]!, i), { latencyMs: 1 }),
    );
    const commitsOnly = store.stats().commits - before;
    await store.close();

    report(`writes (${durability}): floors`, {
      one_row_commits_per_s: Math.round(perCommit),
      one_transaction_rows_per_s: Math.round(oneTx),
    });
    report(`writes (${durability}): request + decision, 100 in flight`, {
      decisions_per_s: Math.round(both.perSecond),
      vs_one_row_commits: round(both.perSecond / perCommit, 2),
      cpu_us_per_decision: round(both.cpuUs, 1),
      commits: commitsBoth,
    });
    report(`writes (${durability}): recordDecision only, 100 in flight`, {
      decisions_per_s: Math.round(only.perSecond),
      vs_one_row_commits: round(only.perSecond / perCommit, 2),
      cpu_us_per_decision: round(only.cpuUs, 1),
      commits: commitsOnly,
    });
  }
}

export async function benchHistory(report: Report): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  try {
    await benchWrites(report, dir);
    await benchQueries(report, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchHistory((name, figures) => {
    const text = Object.entries(figures)
      .map(([k, v]) => `${k}=${v}`)
      .join('  ');
    console.log(`${name.padEnd(58)} ${text}`);
  });
}
