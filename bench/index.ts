// `npm run bench`: every benchmark in sequence, each printed with printReport. Every figure is shown
// next to a floor measured in the same run (these machines are shared and noisy: ratios are what we
// hold, docs/MISSION "Numbers we hold ourselves to"). The load average is printed before and after
// each benchmark, to read the figures by.
//
// Selection:  BENCH_ONLY=mediator,history,sse,memory,dialog,effects,sandbox,proxy,telemetry,
//              transcript,stalls,starts,headless,preview,floods,rules,page (default: all)
// Size knobs (defaults keep the whole run under ~10 minutes on a 2-core machine):
//   BENCH_HISTORY_ROWS=1000000         decisions generated for the page queries (store and HTTP)
//   BENCH_HISTORY_WRITES=20000         decisions written per write-throughput run (5 runs, each
//                                      after 5,000 unmeasured: V8 compiling, a new thread warmed)
//   BENCH_SSE_SESSIONS=100             agent processes (one session each) in flight
//   BENCH_SSE_REQUESTS=12              requests per session (the first of each is not counted)
//   BENCH_SSE_VOTE_MS=4                the UI client votes on the oldest pending request this often
//   BENCH_SSE_THINK_MS=2               an agent's pause between an answer and its next request
//   BENCH_SSE_PREVIEW=0                the SSE row without the preview of each asked command
//   BENCH_SSE_FLOOR_REQUESTS=2000      round trips measured for the raw ACP floor
//   BENCH_MEMORY_REQUESTS=100000       requests resolved by votes
//   BENCH_MEMORY_BASELINE=30000        the baseline sample, after warm-up; BENCH_MEMORY_STEP=10000 the curve's step
//   BENCH_MEMORY_SESSIONS=100          sessions in flight; BENCH_MEMORY_PER_SESSION=50 requests each
//   BENCH_DIALOG_RUNS=5                dialog runs per scenario (BENCH_DIALOG_NO_BUILD=1: skip the build)
//   BENCH_EFFECTS_RUNS=15              allows held while a 5,000- and a 50,000-file project is snapshot
//   BENCH_SANDBOX_RUNS=20              agent starts and approval round trips, sandboxed and not, and
//                                      sandboxed as before what agents leave behind was confined
//                                      (BENCH_SANDBOX_BASELINE=<commit>, checked out beside the tree)
//   BENCH_RULE_REQUESTS=2000           rule-decided requests in a row, per shape (BENCH_RULE_SHAPES=
//                                      command,compound,edit), next to a bare SDK client answering,
//                                      both after BENCH_RULE_WARMUP=5000 unmeasured (V8 compiling)
//   BENCH_PROXY_MESSAGES=2000          editor requests through `gatehouse acp` and direct
//   BENCH_PROXY_REQUESTS=1000          rule-allowed permission requests through it (after
//                                      BENCH_PROXY_WARMUP=5000 unmeasured), direct and through
//                                      a bare hop to another process, per shape (BENCH_PROXY_SHAPES=
//                                      command,compound,edit)
//   BENCH_PAGE_RUNS=12                 first screens in a fresh browser, and of a bare page (BENCH_PAGE_NO_BUILD=1:
//                                      skip the build)
//   BENCH_TRANSCRIPT_UPDATES=10000     session updates streamed into an open session view, twice
//                                      (BENCH_TRANSCRIPT_NO_BUILD=1: skip the build)
//   BENCH_STALL_ROWS=1000000           decided requests in the audit chain under the stall measures
//   BENCH_STALL_SESSIONS=50            sessions started at once while the stalls are measured
//   BENCH_HEADLESS_RUNS=7              second starts of npm run headless, and of a bare Node server
//   BENCH_PREVIEW_RUNS=5               a build, a test run and a 5,000-file rewrite, plain and previewed
//   BENCH_FLOOD_MS=5000                how long the flooding agent streams; BENCH_FLOOD_EVERY=5000 the
//                                      updates between two of its requests; BENCH_FLOOD_QUIET_REQUESTS=25
//                                      the quiet session's; BENCH_FLOOD_UNPACED=1: the agent queues its
//                                      flood in its own memory instead of waiting for its reader
import { loadavg } from 'node:os';
import { benchDialog } from './dialog';
import { benchEffects } from './effects';
import { benchHistory } from './history';
import { benchMediator } from './mediator';
import { benchMemory } from './memory';
import { printReport, round, type Report } from './report';
import { benchProxy } from './proxy';
import { benchSandbox } from './sandbox';
import { benchTelemetry } from './telemetry';
import { benchTranscript } from './transcript';
import { benchSseLatency } from './sse-latency';
import { benchStalls } from './stalls';
import { benchSessionStarts } from './sessions-start';
import { benchHeadlessStart } from './headless-start';
import { benchPreview } from './preview';
import { benchFairStreams } from './fair-streams';
import { benchRuleDecided } from './rule-decided';
import { benchPageLoad } from './page-load';

interface Bench {
  name: string;
  run: (report: Report) => Promise<void>;
}

const BENCHES: Bench[] = [
  { name: 'mediator', run: benchMediator },
  { name: 'history', run: benchHistory },
  { name: 'sse', run: benchSseLatency },
  { name: 'memory', run: benchMemory },
  { name: 'dialog', run: benchDialog },
  { name: 'effects', run: benchEffects },
  { name: 'sandbox', run: benchSandbox },
  { name: 'proxy', run: benchProxy },
  { name: 'telemetry', run: benchTelemetry },
  { name: 'transcript', run: benchTranscript },
  { name: 'stalls', run: benchStalls },
  { name: 'starts', run: benchSessionStarts },
  { name: 'headless', run: benchHeadlessStart },
  { name: 'preview', run: benchPreview },
  { name: 'floods', run: benchFairStreams },
  { name: 'rules', run: benchRuleDecided },
  { name: 'page', run: benchPageLoad },
];

const load = () =>
  loadavg()
    .map((l) => round(l, 2))
    .join(' ');

const only = process.env.BENCH_ONLY?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = only?.filter((name) => !BENCHES.some((b) => b.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(
    `BENCH_ONLY: unknown ${unknown.join(', ')} (have ${BENCHES.map((b) => b.name).join(', ')})`,
  );
  process.exit(2);
}

const started = performance.now();
let failed = 0;
for (const bench of BENCHES) {
  if (only && !only.includes(bench.name)) continue;
  console.log(`\n## ${bench.name}  (load average ${load()})`);
  const t = performance.now();
  try {
    await bench.run(printReport);
  } catch (error) {
    failed++;
    console.error(`${bench.name} failed:`, error);
  }
  console.log(
    `   ${bench.name}: ${round((performance.now() - t) / 1000, 1)} s, load average ${load()}`,
  );
}
console.log(
  `\nbench: ${round((performance.now() - started) / 1000, 1)} s in all, ${failed} failed`,
);
process.exitCode = failed > 0 ? 1 : 0;
