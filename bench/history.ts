// History store benchmark: page queries on 1,000,000 decisions, in the store and over the HTTP API,
// and write throughput through group commit, each next to a floor measured in the same run on the
// same machine (ratios are what we hold).
//   npx tsx bench/history.ts
// Targets (docs/MISSION): history API over HTTP on 1M decisions, first page, filtered page and text
// search p95 ≤ 5 ms; ≥ 20k decisions/s with every decision committed before its promise resolves.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { v7 as uuidv7 } from 'uuid';
import type { Decision, PendingApproval } from '../src/shared/domain';
import type { HistoryQuery } from '../src/shared/history';
import { Settings } from '../src/shared/settings';
import { createCore } from '../src/main/core/core';
import { databasePath, openStore, openStoreEngine, type Durability } from '../src/main/core/store';
import { openDatabase, type Db } from '../src/main/core/store/database';
import { insertSql } from '../src/main/core/store/projections';
import { startHttpServer } from '../src/main/server/http-server';
import { timeGets } from './http-timer';
import { sampleThreads } from './thread-cpu';
import { quantiles, round, type Report } from './report';

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

/** The pages measured, in the store and over HTTP: name, iterations, query of the i-th call. */
const PAGES: {
  name: string;
  iterations: number;
  query: (i: number) => HistoryQuery;
  http?: boolean;
}[] = [
  { name: 'first page (100)', iterations: 300, query: () => ({ limit: 100 }), http: true },
  {
    name: 'filtered page (agent + kind + decision)',
    iterations: 300,
    query: (i) => ({
      limit: 100,
      agentId: AGENTS[i % AGENTS.length]!,
      toolKind: i % 2 ? 'execute' : 'edit',
      decision: i % 3 ? 'allow' : 'deny',
    }),
    http: true,
  },
  {
    name: 'filtered page (decider timeout + warnings)',
    iterations: 100,
    query: () => ({ limit: 100, decider: 'timeout', hasWarnings: true }),
  },
  {
    name: 'text search, one word',
    iterations: 300,
    query: (i) => ({ limit: 100, q: WORDS[i % WORDS.length]! }),
    http: true,
  },
  {
    name: 'text search, two words',
    iterations: 300,
    query: (i) => ({
      limit: 100,
      q: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}`,
    }),
  },
  {
    name: 'text search, short prefix',
    iterations: 300,
    query: (i) => ({ limit: 100, q: WORDS[i % WORDS.length]!.slice(0, 3) }),
    http: true,
  },
  {
    name: 'text search + agent filter',
    iterations: 300,
    query: (i) => ({
      limit: 100,
      q: WORDS[i % WORDS.length]!,
      agentId: AGENTS[i % AGENTS.length]!,
    }),
  },
];

type Quantiles = { p50: number; p95: number };

/** The 1M-decision database, where createCore() looks for it in $home. */
async function benchQueries(report: Report, dir: string): Promise<void> {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const path = databasePath(home);
  await openStoreEngine({ path }).close(); // the schema and the audit key
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

  const store = openStoreEngine({ path });
  const inStore = new Map<string, Quantiles>();
  for (const page of PAGES) {
    let items = 0;
    const t = time(page.iterations, (i, measured) => {
      const n = store.history(page.query(i)).items.length;
      if (measured) items += n;
    });
    inStore.set(page.name, t);
    report(`history: ${page.name}`, {
      p50_ms: round(t.p50),
      p95_ms: round(t.p95),
      p50_vs_floor: round(t.p50 / floor.p50, 1),
      p95_vs_floor: round(t.p95 / floor.p95, 1),
      avg_items: round(items / page.iterations, 1),
    });
  }
  const first = store.history({ limit: 100 });
  const next = time(300, () => store.history({ limit: 100, cursor: first.nextCursor! }));
  report('history: next page (cursor)', {
    p50_ms: round(next.p50),
    p95_ms: round(next.p95),
    p50_vs_floor: round(next.p50 / floor.p50, 1),
    p95_vs_floor: round(next.p95 / floor.p95, 1),
  });
  const detailIds = store
    .history({ limit: 200, cursor: first.nextCursor! })
    .items.map((it) => it.requestId);
  const detail = time(300, (i) => store.historyDetail(detailIds[i % detailIds.length]!));
  report('history: detail', { p50_ms: round(detail.p50), p95_ms: round(detail.p95) });
  await store.close();

  await benchHttp(report, home, floor, inStore);
}

/**
 * The same pages through the headless core and its HTTP server, as a browser asks for them: GET
 * /api/history with the bearer token over a kept-alive connection, the JSON parsed, from a thread of
 * its own (a browser does not parse on the core's thread). A second floor:
 * the cheapest authenticated GET (the empty approval queue), i.e. what HTTP alone costs here.
 */
async function benchHttp(
  report: Report,
  home: string,
  floor: Quantiles,
  inStore: Map<string, Quantiles>,
): Promise<void> {
  const core = await createCore({ home, settings: Settings.parse({}) });
  const token = randomBytes(16).toString('hex');
  const server = await startHttpServer({ core, token, port: 0 });
  const search = (query: HistoryQuery) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    return `/api/history?${params}`;
  };
  /** p50/p95 of `iterations` GETs after a warm-up, from a client thread of its own. */
  const timed = async (iterations: number, path: (i: number) => string) => {
    const warmups = Math.min(30, iterations);
    const paths = [
      ...Array.from({ length: warmups }, (_, i) => path(i)),
      ...Array.from({ length: iterations }, (_, i) => path(i)),
    ];
    const before = sampleThreads();
    const { samples, items, cpuUs } = await timeGets(server.url, token, paths, warmups);
    // CPU per GET by thread: the core's, the client's own (measured in it, warm-up left out), and
    // the threads that ran before the client started (the store's reader, V8's and libuv's helpers).
    const after = sampleThreads();
    const main = String(process.pid);
    let otherNs = 0;
    for (const [tid, ns] of after)
      if (tid !== main && before.has(tid)) otherNs += ns - before.get(tid)!;
    const cpu = {
      core_thread_us: round(
        ((after.get(main) ?? 0) - (before.get(main) ?? 0)) / 1000 / paths.length,
        0,
      ),
      other_threads_us: round(otherNs / 1000 / paths.length, 0),
      client_us: round(cpuUs / iterations, 0),
    };
    return { ...quantiles(samples), items, cpu };
  };
  try {
    const httpFloor = await timed(300, () => '/api/approvals');
    report('history over HTTP: floor (GET /api/approvals, empty queue)', {
      p50_ms: round(httpFloor.p50),
      p95_ms: round(httpFloor.p95),
      ...httpFloor.cpu,
    });
    for (const page of PAGES.filter((p) => p.http)) {
      const t = await timed(page.iterations, (i) => search(page.query(i)));
      const items = t.items;
      report(`history over HTTP: ${page.name}`, {
        p50_ms: round(t.p50),
        p95_ms: round(t.p95),
        store_p95_ms: round(inStore.get(page.name)?.p95 ?? NaN),
        p95_vs_http_floor: round(t.p95 / httpFloor.p95, 1),
        p95_vs_floor: round(t.p95 / floor.p95, 1),
        target_p95_ms: 5,
        avg_items: round(items / (page.iterations + Math.min(30, page.iterations)), 1),
        ...t.cpu,
      });
    }
  } finally {
    await server.close();
    await core.close();
  }
}

export function pending(i: number): PendingApproval {
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

export function decisionFor(req: PendingApproval, i: number): Decision {
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

/**
 * A floor for the store's writes: the request and decision rows a run committed, copied into a fresh
 * database of the same schema by plain INSERTs, 100 pairs a transaction (and the first ones one pair
 * a transaction, as requests that come one at a time commit): no chain, no text rows, no records
 * built. `unindexed` drops the history's filter indexes first, to show what they cost.
 */
async function rowsAlone(
  source: string,
  dir: string,
  durability: Durability,
  unindexed: boolean,
): Promise<{ perSecond: number; oneCommitCpuUs: number }> {
  const from = openDatabase(source, { readonly: true });
  const requests = from.prepare('SELECT * FROM requests ORDER BY seq').raw().all() as unknown[][];
  const decisions = from
    .prepare('SELECT * FROM decisions ORDER BY request_seq')
    .safeIntegers(true)
    .raw();
  const decided = decisions.all() as unknown[][];
  const columns = (table: string) =>
    (from.prepare(`SELECT * FROM ${table} LIMIT 1`).columns() as { name: string }[]).map(
      (c) => c.name,
    );
  const requestColumns = columns('requests');
  const decisionColumns = columns('decisions');
  from.close();
  const path = join(dir, `rows-alone-${unindexed ? 'unindexed' : 'indexed'}-${durability}.db`);
  await openStoreEngine({ path, durability }).close();
  const db = openDatabase(path, { durability, walCheckpoints: 'elsewhere' });
  if (unindexed) {
    const names = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'decisions' AND sql IS NOT NULL",
      )
      .pluck()
      .all() as string[];
    for (const name of names) db.exec(`DROP INDEX ${name}`);
  }
  const insertRequest = db.prepare(insertSql('requests', requestColumns));
  const insertDecision = db.prepare(insertSql('decisions', decisionColumns));
  const pairs = Math.min(requests.length, decided.length);
  // As requests that come one at a time commit: one pair a transaction, CPU per pair.
  const singles = Math.min(2_000, Math.floor(pairs / 4));
  const one = db.transaction((i: number) => {
    insertRequest.run(requests[i]);
    insertDecision.run(decided[i]);
  });
  const cpu = process.cpuUsage();
  for (let i = 0; i < singles; i++) one(i);
  const used = process.cpuUsage(cpu);
  const batch = db.transaction((from: number) => {
    for (let i = from; i < Math.min(from + 100, pairs); i++) {
      insertRequest.run(requests[i]);
      insertDecision.run(decided[i]);
    }
  });
  const started = performance.now();
  for (let i = singles; i < pairs; i += 100) batch(i);
  const perSecond = (pairs - singles) / ((performance.now() - started) / 1000);
  db.close();
  return { perSecond, oneCommitCpuUs: (used.user + used.system) / singles };
}

async function benchWrites(report: Report, dir: string): Promise<void> {
  const N = Number(process.env.BENCH_HISTORY_WRITES ?? 20_000);
  const WARMUP = 5_000;
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

    // As the pipeline writes: its records are built from validated parts and not parsed again.
    const trusted = { trusted: true };
    // `threads`: the store as the core opens it, on its writer and reader threads; otherwise the
    // engine on this thread.
    const bothRun = async (name: string, options: { trusted?: boolean }, threads = false) => {
      const requests = Array.from({ length: N }, (_, i) => pending(i));
      const decisions = requests.map(decisionFor);
      const path = join(dir, `writes-${name}-${durability}.db`);
      const store = threads
        ? await openStore({ path, durability })
        : openStoreEngine({ path, durability });
      const pair = (request: PendingApproval, decision: Decision) => {
        store.recordRequest(request, {}, options);
        return store.recordDecision(decision, { latencyMs: 1 }, options);
      };
      // Code starts cold: in a new thread (an isolate of its own) and, on this one, in the first
      // configuration measured (it read 20.2k where the same path warm read 22.7k). A core's writer
      // lives as long as the core, so each is measured once it has compiled its path.
      const warm = Array.from({ length: WARMUP }, (_, i) => pending(2 * N + i));
      await inFlight(WARMUP, 100, (i) => pair(warm[i]!, decisionFor(warm[i]!, i)));
      const before = (await store.stats()).commits;
      const run = await inFlight(N, 100, (i) => pair(requests[i]!, decisions[i]!));
      const commits = (await store.stats()).commits - before;
      await store.close();
      return { ...run, commits };
    };
    const both = await bothRun('both', trusted);
    const pairsAlone = await rowsAlone(
      join(dir, `writes-both-${durability}.db`),
      dir,
      durability,
      false,
    );
    const pairsUnindexed = await rowsAlone(
      join(dir, `writes-both-${durability}.db`),
      dir,
      durability,
      true,
    );
    const threaded = await bothRun('threads', trusted, true);
    const validated = durability === 'normal' ? await bothRun('validated', {}) : null;

    const store = openStoreEngine({ path: join(dir, `writes-only-${durability}.db`), durability });
    const more = Array.from({ length: N }, (_, i) => pending(i + N));
    for (const req of more) store.recordRequest(req, {}, trusted);
    await store.flush();
    const before = store.stats().commits;
    const only = await inFlight(N, 100, (i) =>
      store.recordDecision(decisionFor(more[i]!, i), { latencyMs: 1 }, trusted),
    );
    const commitsOnly = store.stats().commits - before;
    await store.close();

    report(`writes (${durability}): floors`, {
      one_row_commits_per_s: Math.round(perCommit),
      one_transaction_rows_per_s: Math.round(oneTx),
    });
    const line = (run: { perSecond: number; cpuUs: number; commits: number }) => ({
      decisions_per_s: Math.round(run.perSecond),
      vs_one_row_commits: round(run.perSecond / perCommit, 2),
      cpu_us_per_decision: round(run.cpuUs, 1),
      commits: run.commits,
      target_per_s: 20_000,
    });
    report(`writes (${durability}): the same rows alone, 100 pairs a transaction`, {
      pairs_per_s: Math.round(pairsAlone.perSecond),
      without_history_indexes_per_s: Math.round(pairsUnindexed.perSecond),
      store_vs_rows_alone: round(both.perSecond / pairsAlone.perSecond, 2),
      one_pair_a_commit_cpu_us: round(pairsAlone.oneCommitCpuUs, 1),
      the_same_without_history_indexes_cpu_us: round(pairsUnindexed.oneCommitCpuUs, 1),
    });
    report(`writes (${durability}): request + decision, 100 in flight`, line(both));
    report(
      `writes (${durability}): request + decision, 100 in flight, the store on its threads`,
      line(threaded),
    );
    if (validated) {
      report(
        `writes (${durability}): request + decision, records validated by the store`,
        line(validated),
      );
    }
    report(
      `writes (${durability}): recordDecision only, 100 in flight`,
      line({ ...only, commits: commitsOnly }),
    );
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
  const { printReport } = await import('./report');
  await benchHistory(printReport);
}
