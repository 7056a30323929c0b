// What `gatehouse acp` costs an editor. Two figures, each against a floor in the same run:
//  - a message through the proxy: an editor's request to the agent and its answer, over the proxy
//    vs over a direct pipe to the same agent (p50, p99, ratio; target ≤ 2×);
//  - a permission request a rule allows, through the proxy and the core, vs the raw round trip
//    (the editor itself answering the agent at once), as the agent measures it.
//   npx tsx bench/proxy.ts      BENCH_PROXY_MESSAGES=2000  BENCH_PROXY_REQUESTS=500
// Needs the built command (`npx electron-vite build`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startCoreProcess } from '../test/support/core-process';
import { quantiles, round, type Report } from './report';

const MESSAGES = Number(process.env.BENCH_PROXY_MESSAGES ?? 2000);
const REQUESTS = Number(process.env.BENCH_PROXY_REQUESTS ?? 500);
const AGENT = fileURLToPath(new URL('./agents/timestamp-agent.ts', import.meta.url));
const CLI = resolve('bin/gatehouse.mjs');

/** A raw line client: requests by id, answers matched by id, permission requests answered at once. */
function rawEditor(child: ChildProcess) {
  let nextId = 1;
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  const texts: string[] = [];
  let rest = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as Record<string, unknown>;
      if (message.method === 'session/request_permission') {
        send({ id: message.id, result: { outcome: { outcome: 'selected', optionId: 'allow' } } });
      } else if (message.method === 'session/update') {
        const update = (message.params as { update: { content?: { text?: string } } }).update;
        if (update.content?.text) texts.push(update.content.text);
      } else if (typeof message.id === 'number' && !message.method) {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    }
  });
  const send = (message: Record<string, unknown>) =>
    child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const request = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
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

/** Round trips of a request the agent answers itself (an extension method it does not know). */
async function messageRoundTrips(child: ChildProcess, folder: string): Promise<number[]> {
  const { editor } = await session(child, folder);
  const samples: number[] = [];
  for (let i = 0; i < MESSAGES + 100; i++) {
    const t = performance.now();
    await editor.request('_bench/ping', { i });
    if (i >= 100) samples.push(performance.now() - t);
  }
  return samples;
}

/** The agent's own round trips of REQUESTS permission requests. */
async function permissionRoundTrips(child: ChildProcess, folder: string): Promise<number[]> {
  const { editor, sessionId } = await session(child, folder);
  await editor.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: String(REQUESTS) }],
  });
  const line = editor.texts.find((text) => text.startsWith('rtt_ns '));
  if (!line) throw new Error('the agent reported no round trips');
  return (JSON.parse(line.slice('rtt_ns '.length)) as number[]).slice(10).map((ns) => ns / 1e6);
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  return spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
}

export async function benchProxy(report: Report): Promise<void> {
  if (!existsSync('out/main/cli.js')) {
    report('proxy: skipped', { reason: 'not built: run `npx electron-vite build` first' });
    return;
  }
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-bench-proxy-'));
  const folder = mkdtempSync(join(tmpdir(), 'gatehouse-bench-proxy-work-'));
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      agents: { timestamp: { command: process.execPath, args: [AGENT], sandbox: 'off' } },
      rules: [{ id: 'tests', action: 'allow', toolKind: 'execute', command: 'npm test' }],
    }),
  );
  const core = await startCoreProcess(home);
  const children: ChildProcess[] = [];
  const direct = () => {
    const child = start(process.execPath, [AGENT], process.env, folder);
    children.push(child);
    return child;
  };
  const proxied = () => {
    const child = start(
      process.execPath,
      [CLI, 'acp', '--agent', 'timestamp'],
      { ...process.env, GATEHOUSE_HOME: home },
      folder,
    );
    children.push(child);
    return child;
  };
  // The least any proxy process costs: a Node process that only copies bytes both ways.
  const bareRelay = () => {
    const script = `const c = require('node:child_process').spawn(process.execPath, [process.argv[1]], { stdio: ['pipe', 'pipe', 'ignore'] });
process.stdin.pipe(c.stdin); c.stdout.pipe(process.stdout);`;
    const child = start(process.execPath, ['-e', script, AGENT], process.env, folder);
    children.push(child);
    return child;
  };
  const compare = (name: string, floor: number[], measured: number[]) => {
    const f = quantiles(floor);
    const m = quantiles(measured);
    report(name, {
      directP50Ms: round(f.p50, 3),
      directP99Ms: round(f.p99, 3),
      proxyP50Ms: round(m.p50, 3),
      proxyP99Ms: round(m.p99, 3),
      p50Ratio: round(m.p50 / f.p50, 2),
      p99Ratio: round(m.p99 / f.p99, 2),
    });
  };
  try {
    const directMs = await messageRoundTrips(direct(), folder);
    const proxiedMs = await messageRoundTrips(proxied(), folder);
    compare(
      `proxy: an editor request and its answer, ${MESSAGES} in a row (target ≤ 2×)`,
      directMs,
      proxiedMs,
    );
    const bare = quantiles(await messageRoundTrips(bareRelay(), folder));
    const ours = quantiles(proxiedMs);
    report(
      'proxy: the same through a bare byte relay (any proxy process), for what the hops cost',
      {
        bareRelayP50Ms: round(bare.p50, 3),
        bareRelayP99Ms: round(bare.p99, 3),
        bareVsDirectP50Ratio: round(bare.p50 / quantiles(directMs).p50, 2),
        proxyVsBareP50Ratio: round(ours.p50 / bare.p50, 2),
        proxyVsBareP99Ratio: round(ours.p99 / bare.p99, 2),
      },
    );
    compare(
      `proxy: a permission request a rule allows, ${REQUESTS} in a row, vs the editor answering itself`,
      await permissionRoundTrips(direct(), folder),
      await permissionRoundTrips(proxied(), folder),
    );
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await core.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { printReport } = await import('./report');
  await benchProxy(printReport);
}
