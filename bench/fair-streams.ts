// Fair streams: an agent that floods its session with updates (bench/agents/flood-agent.ts, as fast as
// its stdout is read) and asks permission every BENCH_FLOOD_EVERY updates without stopping, next to a
// quiet session (bench/agents/timestamp-agent.ts) asking in the same run: the floor. Both are timed
// from the moment the agent sent the request to the permission_requested event at the UI client
// (bench/sse-client.ts, its own process, the renderer's HttpApi, voting on the oldest request every
// 2 ms), and to its publication on the core's bus. A second floor: the same flooding agent read by a
// process that only frames its lines, the rate it streams at when nothing slows it.
//   npx tsx bench/fair-streams.ts
// Target (issue 36): the flooding agent's own request shown within 1 s; the quiet one unaffected.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Settings } from '../src/shared/settings';
import { createCore } from '../src/main/core/core';
import { startHttpServer } from '../src/main/server/http-server';
import { quantiles, round, type Report } from './report';
import { collectByCall, reset, startClient } from './sse-ui-client';

const FLOOD_MS = Number(process.env.BENCH_FLOOD_MS ?? 5000);
const FLOOD_EVERY = Number(process.env.BENCH_FLOOD_EVERY ?? 5_000);
const QUIET_REQUESTS = Number(process.env.BENCH_FLOOD_QUIET_REQUESTS ?? 25);
const QUIET_THINK_MS = 150;
/** 1: the agent writes without waiting for its reader (its backlog is in its own memory). */
const UNPACED = Number(process.env.BENCH_FLOOD_UNPACED ?? 0);
const VOTE_MS = 2;

const FLOOD = fileURLToPath(new URL('./agents/flood-agent.ts', import.meta.url));
const QUIET = fileURLToPath(new URL('./agents/timestamp-agent.ts', import.meta.url));

const ms = (ns: number) => round(ns / 1e6);

interface Stats {
  updates: number;
  ms: number;
  requests: number;
}

/** The flooding agent read by a process that frames its lines and answers its requests, nothing more. */
function agentAlone(cwd: string): Promise<Stats> {
  const child = spawn(process.execPath, [FLOOD], { stdio: ['pipe', 'pipe', 'inherit'] });
  const send = (message: object) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  let rest = '';
  let stats: Stats | null = null;
  return new Promise<Stats>((resolve, reject) => {
    child.once('exit', () => reject(new Error('the flooding agent exited')));
    const handle = (line: string) => {
      if (line.startsWith('{"jsonrpc":"2.0","method":"session/update"')) {
        const at = line.indexOf('"text":"stats ');
        if (at >= 0) stats = JSON.parse(JSON.parse(line).params.update.content.text.slice(6));
        return;
      }
      const message = JSON.parse(line) as { id?: number | string; method?: string };
      if (message.method === 'session/request_permission')
        send({ id: message.id, result: { outcome: { outcome: 'selected', optionId: 'allow' } } });
      else if (message.id === 1)
        send({ id: 2, method: 'session/new', params: { cwd, mcpServers: [] } });
      else if (message.id === 2) {
        const { sessionId } = (message as unknown as { result: { sessionId: string } }).result;
        const text = `${FLOOD_MS} ${FLOOD_EVERY}`;
        send({
          id: 3,
          method: 'session/prompt',
          params: { sessionId, prompt: [{ type: 'text', text }] },
        });
      } else if (message.id === 3 && stats) {
        child.removeAllListeners('exit');
        child.kill();
        resolve(stats);
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line) handle(line);
    });
    send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
  });
}

interface Measured {
  /** Send → shown at the UI client, ns, by tool call id. */
  shown: { callId: string; delayNs: number }[];
  /** Send → published on the core's bus, ns. */
  published: { callId: string; ns: number }[];
  stats: Stats;
  shownUpdates: number;
  floods: { updates: number; dropped: number; holds: number }[];
}

async function measured(cwd: string, home: string): Promise<Measured> {
  const settings = Settings.parse({
    agents: {
      flood: { command: process.execPath, args: [FLOOD] },
      quiet: { command: process.execPath, args: [QUIET] },
    },
    approvals: { timeoutSeconds: 3600 },
  });
  const core = await createCore({ home, settings });
  const token = randomBytes(16).toString('hex');
  const server = await startHttpServer({ core, token, port: 0 });
  let client: ChildProcess | null = null;
  try {
    const flood = (await core.sessions.create('flood', cwd)).sessionId;
    const quiet = (await core.sessions.create('quiet', cwd)).sessionId;
    client = await startClient(server.url, token, VOTE_MS);
    const published: Measured['published'] = [];
    let shownUpdates = 0;
    let stats: Stats | null = null;
    core.bus.subscribe((event) => {
      if (event.type === 'session_update' && event.sessionId === flood) {
        shownUpdates++;
        const text = (event.update as { content?: { text?: string } }).content?.text ?? '';
        if (text.startsWith('stats ')) stats = JSON.parse(text.slice(6)) as Stats;
      }
      if (event.type !== 'permission_requested') return;
      const raw = event.approval.toolCall.rawInput as { sentAtNs?: string } | undefined;
      if (raw?.sentAtNs)
        published.push({
          callId: event.approval.toolCall.toolCallId,
          ns: Number(process.hrtime.bigint() - BigInt(raw.sentAtNs)),
        });
    });
    // Warm-up of both sides, unmeasured.
    await Promise.all([
      core.sessions.prompt(flood, `300 ${FLOOD_EVERY}`, null),
      core.sessions.prompt(quiet, `5 ${QUIET_THINK_MS}`, null),
    ]);
    await reset(client);
    published.length = 0;
    shownUpdates = 0;
    const from = Date.now();
    await Promise.all([
      core.sessions.prompt(flood, `${FLOOD_MS} ${FLOOD_EVERY} ${UNPACED}`, null),
      core.sessions.prompt(quiet, `${QUIET_REQUESTS} ${QUIET_THINK_MS}`, null),
    ]);
    const shown = await collectByCall(client);
    const floods = (await core.store.events({ type: 'update_flood' }))
      .filter((e) => e.sessionId === flood && e.at >= from)
      .map((e) => e.payload as Measured['floods'][number]);
    if (!stats) throw new Error('the flooding agent did not report its stats');
    return { shown, published, stats, shownUpdates, floods };
  } finally {
    client?.kill();
    await server.close();
    await core.close();
  }
}

export async function benchFairStreams(report: Report): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-flood-'));
  const cwd = realpathSync(dir);
  try {
    const alone = await agentAlone(cwd);
    const aloneRate = alone.updates / (alone.ms / 1000);
    report('fair streams: floor, the flooding agent read by a process that only frames its lines', {
      updates_per_s: Math.round(aloneRate),
      seconds: round(alone.ms / 1000, 1),
    });
    const run = await measured(cwd, join(dir, 'home'));
    const of = (prefix: string) => run.shown.filter((s) => s.callId.startsWith(prefix));
    // Each agent's first request came while the other was starting up its turn: left out.
    const quiet = of('call-').filter((s) => s.callId !== 'call-0');
    const own = of('flood-');
    const q = quantiles(quiet.map((s) => s.delayNs));
    const f = quantiles(own.map((s) => s.delayNs));
    const fMax = Math.max(...own.map((s) => s.delayNs));
    report("fair streams: floor, a quiet session's request beside the flood, send → shown", {
      requests: quiet.length,
      p50_ms: ms(q.p50),
      p99_ms: ms(q.p99),
    });
    const pub = quantiles(
      run.published.filter((p) => p.callId.startsWith('flood-')).map((p) => p.ns),
    );
    const dropped = run.floods.reduce((sum, flood) => sum + flood.dropped, 0);
    const rate = run.stats.updates / (run.stats.ms / 1000);
    report(
      "fair streams: the flooding agent's own request, send → shown at an HttpApi subscriber",
      {
        requests: own.length,
        p50_ms: ms(f.p50),
        p99_ms: ms(f.p99),
        max_ms: ms(fMax),
        p50_vs_quiet: round(f.p50 / q.p50, 2),
        p99_vs_quiet: round(f.p99 / q.p99, 2),
        target: 'shown within 1 s',
        met: fMax <= 1e9 ? 'yes' : 'no',
        published_p50_ms: ms(pub.p50),
        published_p99_ms: ms(pub.p99),
        agent_updates_per_s: Math.round(rate),
        vs_agent_alone: round(rate / aloneRate, 2),
        updates_sent: run.stats.updates,
        updates_shown: run.shownUpdates,
        updates_dropped: dropped,
        floods: run.floods.length,
        holds: run.floods.reduce((sum, flood) => sum + flood.holds, 0),
        load: loadavg()
          .map((l) => round(l, 2))
          .join(' '),
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printReport } = await import('./report');
  await benchFairStreams(printReport);
}
