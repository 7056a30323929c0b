// What `gatehouse acp` costs an editor, each figure against floors measured in the same run:
//  - a message the proxy only passes on (an editor's request and the agent's answer), through the
//    proxy vs a direct pipe to the same agent and vs a bare byte relay (any proxy process);
//  - a permission request a rule allows (as the agent times it: sent to answered), per shape of
//    request (a command, a compound shell line, an edit with its diff), each told of in a `tool_call`
//    update before and completed after, as real agents do: through the proxy and the core, vs the
//    editor answering the agent itself (the direct pipe; target ≤ 2× at p50), and vs a floor of
//    its own (bench/proxy-floor.ts: a bare relay asking a bare process over a socket, once per
//    request). CPU per request of the proxy process and the core process, all their threads.
//   BENCH_ONLY=proxy npm run bench     BENCH_PROXY_MESSAGES=2000  BENCH_PROXY_REQUESTS=1000
//   BENCH_PROXY_SHAPES=command,compound,edit   BENCH_PROXY_UPDATES=0 (no tool call updates)
//   BENCH_PROXY_WARMUP=5000 (messages and permission requests unmeasured first, per path and shape)
//   BENCH_PROXY_PROFILE=<dir>: the proxy and the core write CPU profiles there (node --cpu-prof)
// Needs the built command and core (`npx electron-vite build`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CORE_NODE_FLAGS } from '../src/main/core/node-flags';
import { floorRelayArgs, startFloorCore } from './proxy-floor';
import { quantiles, round, type Report } from './report';
import { sampleThreads } from './thread-cpu';

const MESSAGES = Number(process.env.BENCH_PROXY_MESSAGES ?? 2000);
const REQUESTS = Number(process.env.BENCH_PROXY_REQUESTS ?? 1000);
// Unmeasured first, on every path: after 300 the core was still compiling the rule-decided path
// (1.04 against 0.60 ms at p50 after 5,000), and the direct pipe and the floor's relay warm too.
const WARM_UP = Number(process.env.BENCH_PROXY_WARMUP ?? 5000);
const SHAPES = (process.env.BENCH_PROXY_SHAPES ?? 'command,compound,edit')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const UPDATES = process.env.BENCH_PROXY_UPDATES !== '0';
const PROFILE = process.env.BENCH_PROXY_PROFILE;
const AGENT = fileURLToPath(new URL('./agents/timestamp-agent.ts', import.meta.url));
const CLI = resolve('bin/gatehouse.mjs');
const HEADLESS = resolve('out/main/headless.js');
/** The file the edit shape changes (as the agent's old text has it). */
const EDITED = 'src/app.ts';
const OLD_TEXT = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i} * 2;`).join(
  '\n',
);
const profileFlags = () => (PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : []);

/** CPU time of every thread of process `pid`, ns (Linux; 0 elsewhere). */
function processCpuNs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  let total = 0;
  for (const ns of sampleThreads(pid).values()) total += ns;
  return total;
}

/** A raw line client: requests by id, answers matched by id, permission requests answered at once. */
function rawEditor(child: ChildProcess) {
  let nextId = 1;
  const waiting = new Map<
    number,
    { resolve(message: Record<string, unknown>): void; reject(error: Error): void }
  >();
  const texts: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    if (message.method === 'session/request_permission') {
      send({ id: message.id, result: { outcome: { outcome: 'selected', optionId: 'allow' } } });
    } else if (message.method === 'session/update') {
      const update = (message.params as { update: { content?: { text?: string } } }).update;
      if (typeof update.content?.text === 'string') texts.push(update.content.text);
    } else if (typeof message.id === 'number' && !message.method) {
      waiting.get(message.id)?.resolve(message);
      waiting.delete(message.id);
    }
  });
  const send = (message: Record<string, unknown>) =>
    child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  child.once('exit', (code) => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`the agent exited ${code}`));
  });
  const request = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      send({ id, method, params });
    });
  return { request, texts };
}

async function session(child: ChildProcess, folder: string) {
  const editor = rawEditor(child);
  await editor.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: 'bench-editor', version: '1' },
  });
  const created = await editor.request('session/new', { cwd: folder, mcpServers: [] });
  return { editor, sessionId: (created.result as { sessionId: string }).sessionId };
}

/**
 * Round trips of a request the agent answers itself (an extension method it does not know), after
 * WARM_UP unmeasured.
 */
async function messageRoundTrips(child: ChildProcess, folder: string): Promise<number[]> {
  const { editor } = await session(child, folder);
  const samples: number[] = [];
  for (let i = 0; i < MESSAGES + WARM_UP; i++) {
    const t = performance.now();
    await editor.request('_bench/ping', { i });
    if (i >= WARM_UP) samples.push(performance.now() - t);
  }
  return samples;
}

interface PermissionRun {
  /** The agent's round trips, ms. */
  rtt: number[];
  /** CPU per request of each watched process, µs. */
  cpuUs: number[];
}

/** REQUESTS permission requests of `shape` in a row, after a warm-up; `watch`: pids whose CPU counts. */
async function permissionRoundTrips(
  child: ChildProcess,
  folder: string,
  shape: string,
  watch: (number | undefined)[],
): Promise<PermissionRun> {
  const { editor, sessionId } = await session(child, folder);
  const prompt = async (count: number) => {
    editor.texts.length = 0;
    await editor.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: `${count} 0 ${shape}${UPDATES ? ' updates' : ''}` }],
    });
    const line = editor.texts.find((text) => text.startsWith('rtt_ns '));
    if (!line) throw new Error('the agent reported no round trips');
    return (JSON.parse(line.slice('rtt_ns '.length)) as number[]).map((ns) => ns / 1e6);
  };
  await prompt(WARM_UP);
  const before = watch.map(processCpuNs);
  const from = process.hrtime.bigint() / 1000n;
  const rtt = await prompt(REQUESTS);
  // A profile's samples are stamped in µs of the same monotonic clock: where the window lies.
  if (PROFILE)
    console.error(`window ${shape} ${watch.join(',')} ${from} ${process.hrtime.bigint() / 1000n}`);
  const cpuUs = watch.map((pid, i) => (processCpuNs(pid) - before[i]!) / 1000 / REQUESTS);
  return { rtt, cpuUs };
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  return spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
}

/** The built core, started as `gatehouse acp` starts one, once it is ready. */
async function startCore(home: string): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...CORE_NODE_FLAGS, ...profileFlags(), HEADLESS], {
    env: { ...process.env, GATEHOUSE_HOME: home, GATEHOUSE_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('Gatehouse is running at')) resolve();
    });
    void exited.then(() => reject(new Error('the core exited before it was ready')));
  });
  return {
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Ends an editor's agent as an editor does, by closing its stdin, so a profile is written. */
async function hangUp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin!.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export async function benchProxy(report: Report): Promise<void> {
  if (!existsSync('out/main/cli.js') || !existsSync(HEADLESS)) {
    report('proxy: skipped', { reason: 'not built: run `npx electron-vite build` first' });
    return;
  }
  if (PROFILE) mkdirSync(PROFILE, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-bench-proxy-'));
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-bench-proxy-work-')));
  mkdirSync(join(folder, 'src'));
  writeFileSync(join(folder, EDITED), OLD_TEXT);
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      agents: { timestamp: { command: process.execPath, args: [AGENT], sandbox: 'off' } },
      rules: [
        { id: 'tests', action: 'allow', toolKind: 'execute', command: 'npm test' },
        { id: 'build', action: 'allow', toolKind: 'execute', command: 'npm run build' },
        { id: 'tail', action: 'allow', toolKind: 'execute', command: 'tail' },
        { id: 'status', action: 'allow', toolKind: 'execute', command: 'git status' },
        { id: 'src', action: 'allow', toolKind: 'edit', path: 'src/**' },
      ],
    }),
  );
  const core = await startCore(home);
  const floorSocket = join(home, 'floor.sock');
  const floorCore = await startFloorCore(floorSocket);
  const children: ChildProcess[] = [];
  const started = (child: ChildProcess) => {
    children.push(child);
    return child;
  };
  const direct = () => started(start(process.execPath, [AGENT], process.env, folder));
  const proxied = () =>
    started(
      start(
        process.execPath,
        [...profileFlags(), CLI, 'acp', '--agent', 'timestamp'],
        { ...process.env, GATEHOUSE_HOME: home },
        folder,
      ),
    );
  const hopFloor = () =>
    started(start(process.execPath, floorRelayArgs(floorSocket, AGENT), process.env, folder));
  // The least any proxy process costs: a Node process that only copies bytes both ways.
  const bareRelay = () => {
    const script = `const c = require('node:child_process').spawn(process.execPath, [process.argv[1]], { stdio: ['pipe', 'pipe', 'ignore'] });
process.stdin.pipe(c.stdin); c.stdout.pipe(process.stdout);`;
    return started(start(process.execPath, ['-e', script, AGENT], process.env, folder));
  };
  const load = () => round(loadavg()[0]!, 2);
  try {
    const loadBefore = load();
    const directMs = quantiles(await messageRoundTrips(direct(), folder));
    const bare = quantiles(await messageRoundTrips(bareRelay(), folder));
    const proxy = proxied();
    const ours = quantiles(await messageRoundTrips(proxy, folder));
    await hangUp(proxy);
    report(`proxy: an editor request the agent answers, passed on, ${MESSAGES} in a row`, {
      direct_p50_ms: round(directMs.p50),
      direct_p99_ms: round(directMs.p99),
      bare_relay_p50_ms: round(bare.p50),
      proxy_p50_ms: round(ours.p50),
      proxy_p99_ms: round(ours.p99),
      p50_vs_direct: round(ours.p50 / directMs.p50, 2),
      p99_vs_direct: round(ours.p99 / directMs.p99, 2),
      p50_vs_bare_relay: round(ours.p50 / bare.p50, 2),
      target: '≤ 2 at p50 against the direct pipe',
      load_before: loadBefore,
      load_after: load(),
    });

    for (const shape of SHAPES) {
      const loadAt = load();
      const pipe = await permissionRoundTrips(direct(), folder, shape, []);
      const floorRelay = hopFloor();
      const floor = await permissionRoundTrips(floorRelay, folder, shape, [
        floorRelay.pid,
        floorCore.pid,
      ]);
      const proxy = proxied();
      const run = await permissionRoundTrips(proxy, folder, shape, [proxy.pid, core.child.pid]);
      await hangUp(proxy);
      const p = quantiles(pipe.rtt);
      const f = quantiles(floor.rtt);
      const q = quantiles(run.rtt);
      report(
        `proxy: a request a rule allows (${shape}${UPDATES ? ', with its tool call updates' : ''}), ${REQUESTS} in a row, the agent's round trip`,
        {
          direct_p50_ms: round(p.p50),
          direct_p99_ms: round(p.p99),
          hop_floor_p50_ms: round(f.p50),
          hop_floor_p99_ms: round(f.p99),
          proxy_p50_ms: round(q.p50),
          proxy_p99_ms: round(q.p99),
          p50_vs_direct: round(q.p50 / p.p50, 2),
          p99_vs_direct: round(q.p99 / p.p99, 2),
          p50_vs_hop_floor: round(q.p50 / f.p50, 2),
          p99_vs_hop_floor: round(q.p99 / f.p99, 2),
          target: '≤ 2 at p50 against the direct pipe',
          proxy_cpu_us_per_request: Math.round(run.cpuUs[0]!),
          core_cpu_us_per_request: Math.round(run.cpuUs[1]!),
          floor_relay_cpu_us_per_request: Math.round(floor.cpuUs[0]!),
          floor_core_cpu_us_per_request: Math.round(floor.cpuUs[1]!),
          load_before: loadAt,
          load_after: load(),
        },
      );
    }
  } finally {
    for (const child of children) child.kill('SIGKILL');
    floorCore.stdin!.end();
    await core.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { printReport } = await import('./report');
  await benchProxy(printReport);
}
