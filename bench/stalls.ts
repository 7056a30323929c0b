// Event-loop stalls: the longest the core's thread (the Electron main process in the desktop app)
// stops answering while heavy work runs on a large store with requests pending — an export of 50,000
// rows streamed to an HTTP client, a retention prune, an audit verify, 50 sessions starting, and
// a hostile agent's request naming as many paths as a request may, each as long as a path may be
// (of missing folders, then of a protected name at every level).
// Each figure is the longest delay perf_hooks.monitorEventLoopDelay saw during that work, next to
// the same monitor's longest delay over an idle stretch of the same run (the floor).
//   npx tsx bench/stalls.ts
// Target: ≤ 50 ms at any moment (a stalled main process freezes every window, menu and notification).
// Knobs: BENCH_STALL_ROWS (default 1,000,000 decided requests in the audit chain), BENCH_STALL_SESSIONS (50).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Settings } from '../src/shared/settings';
import { EXPORT_ROWS_HEADER, HISTORY_EXPORT_PATH } from '../src/shared/contract';
import { startHttpServer } from '../src/main/server/http-server';
import type { StageTimes } from '../src/main/core/approvals/request-stages';
import { createCore, type Core } from '../src/main/core/core';
import { CORE_NODE_FLAGS } from '../src/main/core/node-flags';
import { decisionFor, pending } from './history';
import { runInChildWith, startedWith } from './node-child';
import { round, type Report } from './report';
import { mainThreadSched } from './thread-cpu';

const ROWS = Number(process.env.BENCH_STALL_ROWS ?? 1_000_000);
const SESSIONS = Number(process.env.BENCH_STALL_SESSIONS ?? 50);
const PENDING = 20;
const EXPORT_ROWS = 50_000;
const TARGET_MS = 50;
const TOKEN = 'bench-stalls-token';
const AGENT = fileURLToPath(new URL('./agents/timestamp-agent.ts', import.meta.url));

/**
 * A browser downloading the export: a client on a thread of its own, started before the measure
 * (a thread's start costs the starting thread), so only the server's work counts against the core.
 */
async function exportClient(
  base: string,
): Promise<{ download(): Promise<{ rows: number; bytes: number }>; close(): Promise<number> }> {
  const client = `
    const { parentPort, workerData } = require('node:worker_threads');
    parentPort.on('message', () =>
      fetch(workerData.url, { headers: { authorization: 'Bearer ' + workerData.token } })
        .then(async (response) => {
          const body = await response.arrayBuffer();
          parentPort.postMessage({ rows: Number(response.headers.get(workerData.header)), bytes: body.byteLength });
        })
        .catch((error) => parentPort.postMessage({ rows: -1, bytes: 0, error: String(error) })));
    parentPort.postMessage('ready');`;
  const worker = new Worker(client, {
    eval: true,
    workerData: {
      url: `${base}${HISTORY_EXPORT_PATH}?format=jsonl`,
      token: TOKEN,
      header: EXPORT_ROWS_HEADER,
    },
  });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  await next<string>();
  return {
    download() {
      const got = next<{ rows: number; bytes: number }>();
      worker.postMessage('go');
      return got;
    },
    close: () => worker.terminate(),
  };
}

/** The audit as the pipeline writes it: request + decision per row, committed in groups. */
async function fill(core: Core, rows: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const trusted = { trusted: true };
  const worker = async () => {
    while (next < rows) {
      const req = pending(next++);
      core.store.recordRequest(req, {}, trusted);
      await core.store.recordDecision(decisionFor(req, next), { latencyMs: 1 }, trusted);
    }
  };
  await Promise.all(Array.from({ length: 500 }, worker));
  await core.store.flush();
  return rows / ((performance.now() - started) / 1000);
}

/**
 * Collects the garbage of the bench's own setup (a million records made on this thread), so that
 * a collection of it does not land inside a measured window as if the measured work had caused it.
 */
function collectSetupGarbage(): void {
  (globalThis as unknown as { gc: () => void }).gc();
}

/**
 * The longest event-loop delay (ms) while `work` runs, how long it took, the longest pause of this
 * thread's garbage collector meanwhile (a stall can be the collector's, not the work's), and how
 * long the thread ran and waited for a CPU (ms).
 */
export async function longestStall(work: () => Promise<unknown>): Promise<{
  stall: number;
  took: number;
  gcPause: number;
  cpuMs: number;
  runQueueMs: number;
}> {
  let gcPause = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPause = Math.max(gcPause, entry.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  const monitor = monitorEventLoopDelay({ resolution: 5 });
  monitor.enable();
  // The monitor measures from one of its ticks to the next: it must have ticked once before the
  // work starts, or a block at the very start goes unseen (reset() would forget that tick).
  await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  const sched = mainThreadSched();
  await work();
  const took = performance.now() - started;
  const after = mainThreadSched();
  // One more turn of the loop, so a stall at the very end is sampled too.
  await new Promise((resolve) => setTimeout(resolve, 20));
  monitor.disable();
  gc.disconnect();
  return {
    stall: monitor.max / 1e6,
    took,
    gcPause,
    cpuMs: (after.cpuNs - sched.cpuNs) / 1e6,
    runQueueMs: (after.waitNs - sched.waitNs) / 1e6,
  };
}

/** The core's node flags, as `npm run headless` starts it, and a collector the bench can call. */
const NODE_FLAGS = [...CORE_NODE_FLAGS, '--expose-gc'];

/** In this process when it has NODE_FLAGS, else in a child started with them. */
export async function benchStalls(report: Report): Promise<void> {
  if (startedWith(NODE_FLAGS)) return run(report);
  await runInChildWith(NODE_FLAGS, fileURLToPath(import.meta.url));
}

async function run(report: Report): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-stalls-'));
  process.env.GATEHOUSE_AUDIT_KEY_FILE ??= join(dir, 'audit-key');
  const cwd = join(dir, 'work');
  mkdirSync(cwd);
  const settings = Settings.parse({
    agents: { ts: { command: process.execPath, args: [AGENT] } },
    approvals: { timeoutSeconds: 3600 },
  });
  // The stages of the last request that reached the pipeline: where a long stall went.
  let stages: StageTimes = {};
  const core = await createCore({
    home: join(dir, 'home'),
    settings,
    requestStages: (times) => (stages = times),
  });
  const server = await startHttpServer({ core, token: TOKEN });
  try {
    const perSecond = await fill(core, ROWS);
    report('stalls: store', { decided_requests: ROWS, written_per_s: Math.round(perSecond) });
    collectSetupGarbage();

    // Requests waiting for a person throughout, as on a busy desk.
    const waiting: string[] = [];
    for (let i = 0; i < PENDING; i++) {
      const { sessionId } = await core.sessions.create('ts', cwd);
      waiting.push(sessionId);
      void core.sessions.prompt(sessionId, '1', null).catch(() => undefined);
    }
    while (core.pipeline.pending.size < PENDING) await new Promise((r) => setTimeout(r, 10));

    const client = await exportClient(server.url);
    const floor = await longestStall(() => new Promise((r) => setTimeout(r, 1000)));
    const line = (name: string, m: { stall: number; took: number; gcPause: number }) =>
      report(`stalls: ${name}`, {
        longest_stall_ms: round(m.stall, 1),
        vs_idle_floor: round(m.stall / floor.stall, 1),
        longest_gc_pause_ms: round(m.gcPause, 1),
        took_ms: Math.round(m.took),
        target_ms: TARGET_MS,
        pending: core.pipeline.pending.size,
      });
    report('stalls: idle floor', {
      longest_stall_ms: round(floor.stall, 1),
      longest_gc_pause_ms: round(floor.gcPause, 1),
    });

    line(
      `export of ${EXPORT_ROWS} rows, streamed over HTTP`,
      await longestStall(async () => {
        const got = await client.download();
        if (got.rows !== Math.min(EXPORT_ROWS, ROWS) || got.bytes === 0)
          throw new Error(`export: ${JSON.stringify(got)}`);
      }),
    );
    await client.close();
    line(
      'retention prune of 50,000 requests',
      await longestStall(async () => {
        core.store.setRetention({ rows: ROWS - 50_000 });
        await core.store.prune();
      }),
    );
    line(
      'audit verify',
      await longestStall(async () => {
        await core.store.flush();
        await core.store.verifyChain();
      }),
    );
    line(
      `start of ${SESSIONS} sessions`,
      await longestStall(() =>
        Promise.all(Array.from({ length: SESSIONS }, () => core.sessions.create('ts', cwd))),
      ),
    );
    // A request of 4 MB: first its text in the raw input (what any message that size costs), then
    // in 1,000 paths of 2,000 folders that are not there.
    const asked = async (shape: string) => {
      const { sessionId } = await core.sessions.create('ts', cwd);
      const measured = await longestStall(async () => {
        const before = core.pipeline.pending.size;
        void core.sessions.prompt(sessionId, `1 0 ${shape}`, null).catch(() => undefined);
        while (core.pipeline.pending.size === before) await new Promise((r) => setTimeout(r, 5));
      });
      return { ...measured, stages };
    };
    // The pipeline's stages of each request, ms of wall time: from the warnings to the rules they
    // run in one stretch, after the disk facts.
    const stagesOf = (times: StageTimes) =>
      Object.fromEntries(Object.entries(times).map(([stage, ms]) => [`${stage}_ms`, round(ms, 1)]));
    const bulky = await asked('bulky');
    line('a request of 4 MB, its text in the raw input', bulky);
    report('stalls: that request, its stages', stagesOf(bulky.stages));
    const file = await asked('file');
    line('the same as lines of text (a file of that size)', file);
    report('stalls: that request, its stages', stagesOf(file.stages));
    const paths = await asked('paths');
    line('the same in 1,000 paths of 2,000 folders that are not there', paths);
    report('stalls: that request, its stages', stagesOf(paths.stages));
    const named = await asked('protected');
    line('the same, a protected name at every level (.git/.git/…)', named);
    report('stalls: that request, its stages', stagesOf(named.stages));
    report('stalls: 4 MB of paths against 4 MB of raw input', {
      ratio: round(paths.stall / bulky.stall, 2),
      protected_names_ratio: round(named.stall / bulky.stall, 2),
    });
  } finally {
    await server.close();
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printReport } = await import('./report');
  await benchStalls(printReport);
}
