// Memory across resolved requests: the core's whole pipeline (validation, enrichment, rules gate,
// mediator, SQLite store with its audit chain) on BENCH_MEMORY_REQUESTS requests, each resolved by
// a vote, with BENCH_MEMORY_SESSIONS sessions in flight. Sessions come and go as they do in use: each
// one asks BENCH_MEMORY_PER_SESSION times, then ends (the mediator forgets it, its session grants
// end), and a new one takes its place. Memory is sampled after a full GC every BENCH_MEMORY_STEP
// requests and at the end; the sample at BENCH_MEMORY_BASELINE is the baseline the ratios hold, and
// the RSS curve shows where growth stops.
// Target (docs/MISSION): flat within ±10 %.
//   node --expose-gc --import tsx bench/memory.ts     (benchMemory() spawns that when gc is not exposed)
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { v7 as uuidv7 } from 'uuid';
import { Settings } from '../src/shared/settings';
import { createCore } from '../src/main/core/core';
import type { SessionContext } from '../src/main/core/approvals/pipeline';
import type { Store } from '../src/main/core/store';
import { runInChildWith } from './node-child';
import { round, type Report } from './report';

const REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 100_000);
// Warm-up: SQLite's page caches and the V8 heaps of the core and its store threads reach their steady
// sizes within the first 20–30k requests (the RSS curve this bench prints shows it).
const BASELINE_AT = Number(process.env.BENCH_MEMORY_BASELINE ?? 30_000);
const STEP = Number(process.env.BENCH_MEMORY_STEP ?? 10_000);
const SESSIONS = Number(process.env.BENCH_MEMORY_SESSIONS ?? 100);
const PER_SESSION = Number(process.env.BENCH_MEMORY_PER_SESSION ?? 50);
const OPTIONS = [
  { optionId: 'allow', name: 'Allow once', kind: 'allow_once' as const },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' as const },
];

/** A request as an agent sends it: commands, and every fourth one an edit with a small diff. */
function params(acpSessionId: string, i: number): unknown {
  if (i % 4 === 3) {
    const path = `/work/project/src/file${i % 50}.ts`;
    return {
      sessionId: acpSessionId,
      toolCall: {
        toolCallId: `call-${i}`,
        kind: 'edit',
        title: `Edit file${i % 50}.ts`,
        locations: [{ path }],
        content: [
          {
            type: 'diff',
            path,
            oldText: `export const n = ${i - 1};\n`,
            newText: `export const n = ${i};\n`,
          },
        ],
      },
      options: OPTIONS,
    };
  }
  return {
    sessionId: acpSessionId,
    toolCall: {
      toolCallId: `call-${i}`,
      kind: 'execute',
      title: `npm test -- --shard=${i % 97}`,
      rawInput: { command: `npm test -- --shard=${i % 97}` },
    },
    options: OPTIONS,
  };
}

interface Sample {
  heapUsed: number;
  /** The heap's reserved pages: what of RSS V8 holds, used or not. */
  heapTotal: number;
  rss: number;
  external: number;
  /** The V8 heaps of the store's writer and reader threads (their isolates, inside RSS too). */
  threadsHeapUsed: number;
  /** Their reserved pages, used or not. */
  threadsHeapTotal: number;
}

async function sample(store: Store): Promise<Sample> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  gc();
  const m = process.memoryUsage();
  let threadsHeapUsed = 0;
  let threadsHeapTotal = 0;
  for (const thread of new Set([store.threads.writer, store.threads.reader])) {
    const heap = await thread.worker?.getHeapStatistics();
    threadsHeapUsed += heap?.used_heap_size ?? 0;
    threadsHeapTotal += heap?.total_heap_size ?? 0;
  }
  return {
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    rss: m.rss,
    external: m.external,
    threadsHeapUsed,
    threadsHeapTotal,
  };
}

const mb = (bytes: number) => round(bytes / 2 ** 20, 1);

async function run(report: Report): Promise<void> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-bench-memory-')));
  const core = await createCore({
    home: join(dir, 'home'),
    settings: Settings.parse({ approvals: { timeoutSeconds: 3600 } }),
  });
  try {
    // Every request is voted on as soon as it is shown, by a registered client.
    const voter = core.clients.register('api', 'bench');
    core.bus.subscribe((event) => {
      if (event.type !== 'permission_requested') return;
      const { requestId } = event.approval;
      queueMicrotask(() =>
        core.pipeline.vote({
          requestId,
          clientId: voter.clientId,
          optionId: 'allow',
          fromLoopback: true,
          identityProven: true,
          receivedAtMs: Date.now(),
          metadata: { surface: 'api' },
        }),
      );
    });

    let issued = 0;
    let resolved = 0;
    // Everyone pauses at each sample point: requests in flight settle, nothing new starts,
    // and RSS is sampled, so the curve shows where warm-up ends.
    const samples = new Map<number, Sample>();
    let pause: { at: number; done: Promise<void> } | null = null;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const slot = async () => {
      while (issued < REQUESTS) {
        const acpSessionId = uuidv7();
        const session: SessionContext = {
          sessionId: uuidv7(),
          acpSessionId,
          agentId: 'bench',
          agentName: 'Bench',
          cwd: dir,
          policy: 'first-responder',
          mode: 'default',
          promptId: null,
          promptClientId: null,
          endReason: null,
          toolCallState: () => undefined,
        };
        for (let n = 0; n < PER_SESSION && issued < REQUESTS; n++) {
          const i = issued++;
          if (i > 0 && (i % STEP === 0 || i === BASELINE_AT) && pause?.at !== i) {
            pause = {
              at: i,
              done: (async () => {
                while (resolved < i) await new Promise((r) => setTimeout(r, 1));
                await core.store.flush();
                samples.set(i, await sample(core.store));
              })(),
            };
          }
          if (pause && !samples.has(pause.at)) await pause.done;
          await core.pipeline.handle(session, params(acpSessionId, i));
          resolved++;
        }
        core.pipeline.endSession(session.sessionId);
        await core.endSessionState(session.sessionId);
      }
    };
    await Promise.all(Array.from({ length: SESSIONS }, slot));
    await core.store.flush();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const end = await sample(core.store);
    const base = samples.get(BASELINE_AT);
    if (!base)
      throw new Error('baseline not reached: BENCH_MEMORY_BASELINE ≥ BENCH_MEMORY_REQUESTS');
    report(
      `memory: ${resolved} requests resolved by votes, ${SESSIONS} sessions in flight (heap after GC)`,
      {
        requests_per_s: Math.round(resolved / seconds),
        cpu_us_per_request: Math.round((used.user + used.system) / resolved),
        [`heap_at_${BASELINE_AT}_mb`]: mb(base.heapUsed),
        [`heap_at_${resolved}_mb`]: mb(end.heapUsed),
        heap_ratio: round(end.heapUsed / base.heapUsed, 3),
        heap_total_at_baseline_mb: mb(base.heapTotal),
        heap_total_at_end_mb: mb(end.heapTotal),
        rss_at_baseline_mb: mb(base.rss),
        rss_at_end_mb: mb(end.rss),
        rss_ratio: round(end.rss / base.rss, 3),
        [`rss_every_${STEP}_mb`]: [...samples.values(), end].map((x) => mb(x.rss)).join(' '),
        // What RSS holds besides V8's heap: SQLite's page cache, malloc arenas, code, buffers.
        rss_outside_heap_at_baseline_mb: mb(base.rss - base.heapTotal),
        rss_outside_heap_at_end_mb: mb(end.rss - end.heapTotal),
        external_ratio: round(end.external / base.external, 3),
        store_threads_heap_at_baseline_mb: mb(base.threadsHeapUsed),
        store_threads_heap_at_end_mb: mb(end.threadsHeapUsed),
        store_threads_heap_total_at_baseline_mb: mb(base.threadsHeapTotal),
        store_threads_heap_total_at_end_mb: mb(end.threadsHeapTotal),
        target: '0.9–1.1',
      },
    );
  } finally {
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs in this process when gc is exposed, else in a child started with --expose-gc. */
export async function benchMemory(report: Report): Promise<void> {
  if (typeof (globalThis as { gc?: unknown }).gc === 'function') return run(report);
  await runInChildWith(['--expose-gc'], fileURLToPath(import.meta.url));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printReport } = await import('./report');
  await benchMemory(printReport);
}
