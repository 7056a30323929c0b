// A request a rule decides, from the agent's side: the agent (bench/agents/timestamp-agent.ts) asks
// REQUESTS times in a row, each asked as soon as the last was answered, and a rule allows every one:
// validated, enriched, checked, recorded, committed (durable before the answer) and answered. Next to
// the floor measured in the same run: the same agent answered at once by a bare SDK client. Three
// shapes of request: a plain command, a compound shell line (several commands, a pipe) and an edit
// with its diff (the file on disk, so the disk facts read it and undo keeps it).
// Figures: the agent's round trips (p50, p99, ratios to the floor's), the CPU of the whole process
// (the core's thread and the store's threads) per request, the core thread's busy time and the
// writer thread's. They are read once V8 has compiled the path: after 500 requests it was still
// optimizing (281 TurboFan compilations in 4,000 more, ~100 µs a request on V8's helper threads and
// as much again on the core's), after 5,000 it had done. The warm-up's own CPU a request is printed
// beside them: what a core pays while it is new.
//   npx tsx bench/rule-decided.ts      BENCH_RULE_REQUESTS=2000  BENCH_RULE_SHAPES=command,compound,edit
//                                      BENCH_RULE_WARMUP=5000
// Two floors in the same run, each after the same warm-up: the agent answered at once by a bare SDK
// client, and answered by it only once the request and its answer are committed on a thread of its
// own (bench/durable-floor.ts), what keeping the record before the answer costs at least. For the
// edit, the CPU of the keep's file-system calls done bare (keep_floor_cpu_us).
// Profile: node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/rule-decided.ts (one file a thread)
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Settings } from '../src/shared/settings';
import { createCore, type Core } from '../src/main/core/core';
import { quantiles, round, type Report } from './report';
import { durableAnswer } from './durable-floor';
import { oneAgentFloor } from './sse-floors';
import { sampleThreads, threadCpuSince, type ThreadCpu } from './thread-cpu';

const REQUESTS = Number(process.env.BENCH_RULE_REQUESTS ?? 2000);
const WARMUP = Number(process.env.BENCH_RULE_WARMUP ?? 5000);
const SHAPES = (process.env.BENCH_RULE_SHAPES ?? 'command,compound,edit')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const AGENT = fileURLToPath(new URL('./agents/timestamp-agent.ts', import.meta.url));
/** The file the edit shape changes (as the agent's old text has it). */
const EDITED = 'src/app.ts';
const OLD_TEXT = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i} * 2;`).join(
  '\n',
);

const ms = (ns: number) => ns / 1e6;
const perRequest = (ns: number) => Math.round(ns / 1000 / REQUESTS);

interface Measured {
  rtt: number[];
  cpuUsPerRequest: number;
  warmupCpuUsPerRequest: number;
  mainThreadUsPerRequest: number;
  writerUsPerRequest: number;
  threads: ThreadCpu;
}

/** What the agent said in `sessionId` (its round trips come as one message). */
function listen(core: Core, sessionId: string): () => string {
  let text = '';
  core.bus.subscribe((event) => {
    if (event.type !== 'session_update' || event.sessionId !== sessionId) return;
    const update = event.update as { sessionUpdate: string; content?: { text?: string } };
    if (update.sessionUpdate === 'agent_message_chunk') text += update.content?.text ?? '';
  });
  return () => {
    const said = text;
    text = '';
    return said;
  };
}

async function measured(cwd: string, home: string, shape: string): Promise<Measured> {
  const settings = Settings.parse({
    agents: { ts: { command: process.execPath, args: [AGENT] } },
    rules: [
      { id: 'tests', action: 'allow', toolKind: 'execute', command: 'npm test' },
      { id: 'build', action: 'allow', toolKind: 'execute', command: 'npm run build' },
      { id: 'tail', action: 'allow', toolKind: 'execute', command: 'tail' },
      { id: 'status', action: 'allow', toolKind: 'execute', command: 'git status' },
      { id: 'src', action: 'allow', toolKind: 'edit', path: 'src/**' },
    ],
  });
  const core = await createCore({ home, settings });
  try {
    const { sessionId } = await core.sessions.create('ts', cwd);
    const said = listen(core, sessionId);
    const prompt = async (count: number) => {
      await core.sessions.prompt(sessionId, `${count} 0 ${shape}`, null);
      return said();
    };
    // Warm-up: the JIT, the shell analysis cache, the agent's connection.
    const warming = process.cpuUsage();
    await prompt(WARMUP);
    const warmed = process.cpuUsage(warming);
    const writer = core.store.threads.writer.worker!;
    const cpu = process.cpuUsage();
    const threads = sampleThreads();
    const loop = performance.eventLoopUtilization();
    const writerLoop = writer.performance.eventLoopUtilization();
    const from = process.hrtime.bigint() / 1000n;
    const text = await prompt(REQUESTS);
    const used = process.cpuUsage(cpu);
    const byThread = threadCpuSince(threads);
    // A profile's samples are stamped in µs of the same monotonic clock: where the window lies.
    if (process.env.BENCH_RULE_WINDOW)
      console.error(`window ${shape} ${from} ${process.hrtime.bigint() / 1000n}`);
    const busy = performance.eventLoopUtilization(loop);
    const writerBusy = writer.performance.eventLoopUtilization(writerLoop);
    const line = text.split('rtt_ns ')[1];
    if (!line) throw new Error(`the agent reported no round trips (${shape})`);
    return {
      rtt: JSON.parse(line) as number[],
      cpuUsPerRequest: (used.user + used.system) / REQUESTS,
      warmupCpuUsPerRequest: (warmed.user + warmed.system) / WARMUP,
      mainThreadUsPerRequest: (busy.active * 1000) / REQUESTS,
      writerUsPerRequest: (writerBusy.active * 1000) / REQUESTS,
      threads: byThread,
    };
  } finally {
    await core.close();
  }
}

/**
 * CPU of what an allowed edit's keep asks of the file system (effects/keep.ts, effects/manifest.ts),
 * done bare: a folder, the file's contents and a manifest made, the manifest renamed into place.
 * Some file systems take far more to make a file than to write its bytes.
 */
function keepFloorUs(dir: string, count = 300): number {
  mkdirSync(dir);
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const folder = join(dir, String(i));
    mkdirSync(folder, { mode: 0o700 });
    writeFileSync(join(folder, '0'), OLD_TEXT, { mode: 0o600, flag: 'wx' });
    writeFileSync(join(folder, 'manifest.json.tmp'), '{}', { mode: 0o600 });
    renameSync(join(folder, 'manifest.json.tmp'), join(folder, 'manifest.json'));
  }
  const used = process.cpuUsage(cpu);
  return Math.round((used.user + used.system) / count);
}

export async function benchRuleDecided(report: Report): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-rules-'));
  const cwd = realpathSync(dir);
  mkdirSync(join(cwd, 'project', 'src'), { recursive: true });
  const project = join(cwd, 'project');
  writeFileSync(join(project, EDITED), OLD_TEXT);
  try {
    for (const shape of SHAPES) {
      const load = loadavg()[0]!;
      const floor = await oneAgentFloor(project, REQUESTS, 0, shape, WARMUP);
      const writer = durableAnswer(join(cwd, `durable-floor-${shape}.db`));
      const durable = await oneAgentFloor(project, REQUESTS, 0, shape, WARMUP, writer.answer);
      await writer.close();
      const keep: Record<string, number> =
        shape === 'edit' ? { keep_floor_cpu_us: keepFloorUs(join(cwd, 'keep')) } : {};
      const run = await measured(project, join(cwd, `home-${shape}`), shape);
      const f = quantiles(floor.samples);
      const d = quantiles(durable.samples);
      const q = quantiles(run.rtt);
      report(
        `rules: a request a rule decides (${shape}), ${REQUESTS} in a row, the agent's round trip`,
        {
          floor_p50_ms: round(ms(f.p50)),
          floor_p99_ms: round(ms(f.p99)),
          p50_ms: round(ms(q.p50)),
          p99_ms: round(ms(q.p99)),
          p50_vs_floor: round(q.p50 / f.p50, 2),
          p99_vs_floor: round(q.p99 / f.p99, 2),
          target: '≤ 2 at p50, ≤ 1.5 at p99, ≤ 500 µs CPU',
          durable_floor_p50_ms: round(ms(d.p50)),
          durable_floor_p99_ms: round(ms(d.p99)),
          p50_vs_durable_floor: round(q.p50 / d.p50, 2),
          p99_vs_durable_floor: round(q.p99 / d.p99, 2),
          gatehouse_cpu_us_per_request: Math.round(run.cpuUsPerRequest),
          floor_client_cpu_us_per_request: Math.round(floor.cpuUsPerRequest),
          durable_floor_cpu_us_per_request: Math.round(durable.cpuUsPerRequest),
          ...keep,
          warmup_cpu_us_per_request: Math.round(run.warmupCpuUsPerRequest),
          core_thread_busy_us_per_request: Math.round(run.mainThreadUsPerRequest),
          writer_thread_busy_us_per_request: Math.round(run.writerUsPerRequest),
          cpu_us_core_thread: perRequest(run.threads.mainNs),
          cpu_us_busiest_other_thread: perRequest(run.threads.busiestOtherNs),
          cpu_us_other_threads: perRequest(run.threads.restNs),
          load_before: round(load, 2),
          load_after: round(loadavg()[0]!, 2),
        },
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printReport } = await import('./report');
  await benchRuleDecided(printReport);
}
