// Agent request → event at a UI client, over real HTTP + SSE, with many sessions in flight, next to
// two floors measured in the same run (bench/sse-floors.ts), the same minimal agent
// (bench/agents/timestamp-agent.ts) driven by a plain SDK client instead of Gatehouse: one agent's raw
// ACP request/answer round trip, and the same load (as many agents, answered at the same pace).
//   npx tsx bench/sse-latency.ts
// Measured: the agent stamps process.hrtime.bigint() into the request just before sending it; the UI
// client (bench/sse-client.ts, its own process, the renderer's HttpApi) takes the delta when the
// permission_requested event has been parsed. Gatehouse runs one agent process per session; the UI
// client votes on the oldest request every BENCH_SSE_VOTE_MS, so about SESSIONS requests stay
// pending and new ones arrive one at a time (a latency measurement, not a burst); an agent asks again
// BENCH_SSE_THINK_MS after its answer (the floors' agents too). Each run, measured and floors, first
// does one unmeasured round of the same prompts to warm up; the first request of each session is left
// out (they all start together). Also shown: agent send → the event published on the core's
// bus (the agent's pipe and the pipeline, before SSE and the client), and the CPU time of the core
// and HTTP server per request (votes, commits and replies included) next to the floors' client's.
// Target (docs/MISSION): p50 and p99 ≤ 2× the floor.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Settings } from '../src/shared/settings';
import { agentLauncher } from '../src/main/core/agents/launcher';
import { createCore } from '../src/main/core/core';
import { REQUEST_STAGES, type RequestStage } from '../src/main/core/approvals/request-stages';
import { startHttpServer } from '../src/main/server/http-server';
import { quantiles, round, type Report } from './report';
import { oneAgentFloor, pacedRound, sameLoadFloor } from './sse-floors';
import { relayFloor } from './sse-relay-floor';
import { collect, reset, startClient } from './sse-ui-client';

const SESSIONS = Number(process.env.BENCH_SSE_SESSIONS ?? 100);
const PER_SESSION = Number(process.env.BENCH_SSE_REQUESTS ?? 12);
const VOTE_MS = Number(process.env.BENCH_SSE_VOTE_MS ?? 4);
const FLOOR_REQUESTS = Number(process.env.BENCH_SSE_FLOOR_REQUESTS ?? 2000);
/** The agent's work between an answer and its next request (floor and measured alike). */
const THINK_MS = Number(process.env.BENCH_SSE_THINK_MS ?? 2);
/**
 * Gatehouse as a person gets it runs each asked command once in a scratch layer after the event is
 * out (its preview), and snapshots the project when it is allowed; BENCH_SSE_PREVIEW=0 measures the
 * request path without the preview, to tell the two costs apart.
 */
const PREVIEW = process.env.BENCH_SSE_PREVIEW !== '0';
/** How the floors with as many agents as the measured run are paced. */
const PACE = { sessions: SESSIONS, perSession: PER_SESSION, voteMs: VOTE_MS, thinkMs: THINK_MS };

const AGENT = fileURLToPath(new URL('./agents/timestamp-agent.ts', import.meta.url));

const ms = (ns: number) => ns / 1e6;

/** Runs `task` on every item with at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

interface Measured {
  /** Agent send → permission_requested parsed by the UI client. */
  delays: number[];
  /** Agent send → the event published on the core's bus (the agent's pipe and the pipeline). */
  published: number[];
  resolved: number;
  /** CPU time of this process (core + HTTP server) per resolved request, µs. */
  cpuUsPerRequest: number;
  /** Time the core's own thread was busy, per request. */
  mainThreadUsPerRequest: number;
  /** CPU time of the agents' launcher (which starts each preview's layer) per request, µs. */
  launcherCpuUsPerRequest: number;
  /** Wall time of each stage before the request was published, µs per request. */
  stageUsPerRequest: Record<RequestStage, number>;
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;

/** A process's own CPU time (user and system, not its children's), µs, from /proc. */
function processCpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are stat's fields 14 and 15: here 11 and 12, counted from the state (field 3).
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

async function measured(cwd: string, home: string): Promise<Measured> {
  const settings = Settings.parse({
    agents: { ts: { command: process.execPath, args: [AGENT] } },
    approvals: { timeoutSeconds: 3600 },
    preview: { enabled: PREVIEW },
  });
  // Where each request's time went before it was published, summed over the measured round.
  let timing = false;
  const stageMs = new Map<RequestStage, number>();
  const core = await createCore({
    home,
    settings,
    requestStages: (times) => {
      if (!timing) return;
      for (const stage of REQUEST_STAGES)
        stageMs.set(stage, (stageMs.get(stage) ?? 0) + (times[stage] ?? 0));
    },
  });
  const token = randomBytes(16).toString('hex');
  const server = await startHttpServer({ core, token, port: 0 });
  let client: ChildProcess | null = null;
  try {
    const sessionIds: string[] = [];
    await pool(
      Array.from({ length: SESSIONS }, (_, i) => i),
      8,
      async () => {
        sessionIds.push((await core.sessions.create('ts', cwd)).sessionId);
      },
    );
    client = await startClient(server.url, token, VOTE_MS);
    const round = () =>
      pacedRound(sessionIds, VOTE_MS, (sessionId) =>
        core.sessions.prompt(sessionId, `${PER_SESSION} ${THINK_MS}`, null),
      );
    await round();
    await reset(client);
    let resolved = 0;
    const published: number[] = [];
    core.bus.subscribe((event) => {
      if (event.type === 'permission_resolved') resolved++;
      if (event.type !== 'permission_requested') return;
      const raw = event.approval.toolCall.rawInput as { sentAtNs?: string } | undefined;
      if (raw?.sentAtNs && event.approval.toolCall.toolCallId !== 'call-0') {
        published.push(Number(process.hrtime.bigint() - BigInt(raw.sentAtNs)));
      }
    });
    timing = true;
    const launcher = (await agentLauncher()).pid!;
    const launcherCpu = processCpuUs(launcher);
    const cpu = process.cpuUsage();
    // The core's own thread: what the store's threads took off it shows here, not in process CPU.
    const loop = performance.eventLoopUtilization();
    await round();
    const used = process.cpuUsage(cpu);
    const launcherUsed = processCpuUs(launcher) - launcherCpu;
    const busy = performance.eventLoopUtilization(loop);
    timing = false;
    const delays = await collect(client);
    return {
      delays,
      published,
      resolved,
      cpuUsPerRequest: (used.user + used.system) / Math.max(1, resolved),
      mainThreadUsPerRequest: (busy.active * 1000) / Math.max(1, resolved),
      launcherCpuUsPerRequest: launcherUsed / Math.max(1, resolved),
      stageUsPerRequest: Object.fromEntries(
        REQUEST_STAGES.map((stage) => [
          stage,
          ((stageMs.get(stage) ?? 0) * 1000) / Math.max(1, resolved),
        ]),
      ) as Record<RequestStage, number>,
    };
  } finally {
    client?.kill();
    await server.close();
    await core.close();
  }
}

export async function benchSseLatency(report: Report): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-sse-'));
  // The sessions' project and Gatehouse's data folder side by side, as a person's are: with the data
  // folder inside the project, each allowed command's snapshot of the project read and hashed the
  // database and every undo folder kept so far, a cost growing with each request.
  const cwd = join(realpathSync(dir), 'project');
  mkdirSync(cwd);
  try {
    const one = await oneAgentFloor(cwd, FLOOR_REQUESTS, THINK_MS);
    const f = quantiles(one.samples);
    report(
      'sse: floor, one agent (raw ACP request/answer round trip over stdio, answered at once)',
      {
        requests: one.samples.length,
        p50_ms: round(ms(f.p50)),
        p99_ms: round(ms(f.p99)),
        client_cpu_us_per_request: Math.round(one.cpuUsPerRequest),
      },
    );
    const load = await sameLoadFloor(cwd, PACE);
    const l = quantiles(load.samples);
    report(
      `sse: floor, same load (${SESSIONS} agents, a plain SDK client answering at the same pace)`,
      {
        requests: load.samples.length,
        p50_ms: round(ms(l.p50)),
        p99_ms: round(ms(l.p99)),
        client_cpu_us_per_request: Math.round(load.cpuUsPerRequest),
      },
    );
    const bare = await relayFloor(cwd, PACE);
    const b = quantiles(bare.samples);
    report(
      `sse: floor, bare relay (the same load and UI client, over HTTP + SSE, nothing checked or kept)`,
      {
        requests: bare.samples.length,
        p50_ms: round(ms(b.p50)),
        p99_ms: round(ms(b.p99)),
        p50_vs_same_load: round(b.p50 / l.p50, 2),
        p99_vs_same_load: round(b.p99 / l.p99, 2),
        relay_cpu_us_per_request: Math.round(bare.cpuUsPerRequest),
        cpu_vs_same_load_client: round(bare.cpuUsPerRequest / load.cpuUsPerRequest, 2),
      },
    );
    const run = await measured(cwd, join(dir, 'home'));
    const q = quantiles(run.delays);
    const p = quantiles(run.published);
    report(
      `sse: agent request → permission_requested at an HttpApi subscriber, ${SESSIONS} sessions in flight${PREVIEW ? '' : ', previews off'}`,
      {
        requests: run.delays.length,
        resolved: run.resolved,
        p50_ms: round(ms(q.p50)),
        p99_ms: round(ms(q.p99)),
        p50_vs_floor: round(q.p50 / f.p50, 2),
        p99_vs_floor: round(q.p99 / f.p99, 2),
        p50_vs_same_load: round(q.p50 / l.p50, 2),
        p99_vs_same_load: round(q.p99 / l.p99, 2),
        target: '≤ 2',
        p50_vs_bare_relay: round(q.p50 / b.p50, 2),
        p99_vs_bare_relay: round(q.p99 / b.p99, 2),
        published_p50_ms: round(ms(p.p50)),
        published_p99_ms: round(ms(p.p99)),
        gatehouse_cpu_us_per_request: Math.round(run.cpuUsPerRequest),
        cpu_vs_same_load_client: round(run.cpuUsPerRequest / load.cpuUsPerRequest, 2),
        cpu_vs_bare_relay: round(run.cpuUsPerRequest / bare.cpuUsPerRequest, 2),
        main_thread_busy_us_per_request: Math.round(run.mainThreadUsPerRequest),
        // Outside this process: the spawns it takes off the core's thread are counted here.
        launcher_cpu_us_per_request: Math.round(run.launcherCpuUsPerRequest),
        cpu_with_launcher_vs_bare_relay: round(
          (run.cpuUsPerRequest + run.launcherCpuUsPerRequest) / bare.cpuUsPerRequest,
          2,
        ),
      },
    );
    const stages = Object.entries(run.stageUsPerRequest);
    report(
      "sse: before the event is published, µs per request (the pipeline's stages, wall time)",
      {
        ...Object.fromEntries(stages.map(([stage, us]) => [stage, Math.round(us)])),
        all: Math.round(stages.reduce((sum, [, us]) => sum + us, 0)),
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printReport } = await import('./report');
  await benchSseLatency(printReport);
}
