// `npm run headless` started again with nothing changed: from the command to the printed URL (the
// core is ready by then), next to a bare Node HTTP server started the same way in the same run, and
// the core alone (node out/main/headless.js, no npm, no build check) to show where the time goes.
// The core alone is also timed to its first healthy /api/health answer (it answers "starting" before
// rules, grants and the audit are ready), next to its floor: a bare Node process that opens a WAL
// SQLite file and listens, asked the same way. The first start builds when the sources changed; it
// is reported apart, not counted.
//   BENCH_ONLY=headless npm run bench     Knob: BENCH_HEADLESS_RUNS=7 (starts of each kind)
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { quantiles, round, type Report } from './report';

const RUNS = Number(process.env.BENCH_HEADLESS_RUNS ?? 7);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const BARE_SERVER = `require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1', function () {
  console.log('listening at http://127.0.0.1:' + this.address().port);
});`;

/** The floor: better-sqlite3 loaded, a WAL database opened, an HTTP server listening on PORT. */
const BARE_WAL_SERVER = `const db = new (require('better-sqlite3'))(process.env.DB);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE IF NOT EXISTS t (x)');
require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), '127.0.0.1');`;

/** A port nothing listens on now (the core is told it, so it can be asked before it prints it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Milliseconds from the spawn to the first 200 answer to GET `path` on `port` (asked again at once
 * while the connection is refused), then the process group is stopped and awaited.
 */
async function timeToHealthy(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  token: string,
): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    for (let tries = 0; tries < 20_000 && !gone; tries++) {
      const answer = await fetch(`http://127.0.0.1:${port}/api/health`, {
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => null);
      if (answer?.status === 200) {
        await answer.arrayBuffer();
        return performance.now() - started;
      }
      await answer?.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    throw new Error(`${command} ${args.join(' ')} never answered healthy`);
  } finally {
    if (!gone) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

/**
 * Milliseconds from the spawn to the first stdout line matching `ready`, then the whole process
 * group is stopped (npm and the core it started) and awaited.
 */
function timeToLine(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const seen: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => seen.push(chunk.toString()));
  let took: number | null = null;
  return new Promise((resolve, reject) => {
    void exited.then(() =>
      took === null
        ? reject(new Error(`${command} exited first:\n${seen.join('')}`))
        : resolve(took),
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      seen.push(`${line}\n`);
      if (took !== null || !ready.test(line)) return;
      took = performance.now() - started;
      process.kill(-child.pid!, 'SIGTERM');
    });
  });
}

export async function benchHeadlessStart(report: Report): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-headless-'));
  const env = {
    ...process.env,
    GATEHOUSE_HOME: join(dir, 'home'),
    GATEHOUSE_AUDIT_KEY_FILE: process.env.GATEHOUSE_AUDIT_KEY_FILE ?? join(dir, 'audit-key'),
    GATEHOUSE_PORT: '0',
  };
  const url = /^Gatehouse is running at /;
  const headless = () => timeToLine(NPM, ['run', '--silent', 'headless'], env, url);
  const core = () =>
    timeToLine(process.execPath, ['--no-memory-reducer', 'out/main/headless.js'], env, url);
  const bare = () => timeToLine(process.execPath, ['-e', BARE_SERVER], env, /^listening at /);
  // A token as the headless server keeps one; both are asked with it.
  const token = 'bench-headless-start-token';
  const coreHealthy = async () => {
    const port = await freePort();
    return timeToHealthy(
      process.execPath,
      ['--no-memory-reducer', 'out/main/headless.js'],
      { ...env, GATEHOUSE_PORT: String(port), GATEHOUSE_TOKEN: token },
      port,
      token,
    );
  };
  const walFloor = async () => {
    const port = await freePort();
    return timeToHealthy(
      process.execPath,
      ['-e', BARE_WAL_SERVER],
      { ...env, PORT: String(port), DB: join(dir, 'floor.db') },
      port,
      token,
    );
  };
  try {
    // The first start builds if the sources changed and makes the data folder: not counted.
    report('headless start: first (builds if the sources changed)', {
      ms: Math.round(await headless()),
    });
    const samples = {
      headless: [] as number[],
      core: [] as number[],
      bare: [] as number[],
      healthy: [] as number[],
      floor: [] as number[],
    };
    // Interleaved, so that a change in the machine's load falls on every kind alike.
    for (let i = 0; i < RUNS; i++) {
      samples.bare.push(await bare());
      samples.headless.push(await headless());
      samples.core.push(await core());
      samples.floor.push(await walFloor());
      samples.healthy.push(await coreHealthy());
    }
    const p50 = (list: number[]) => quantiles(list).p50;
    report(`headless start: again, nothing changed (${RUNS} runs each, p50)`, {
      npm_run_headless_ms: Math.round(p50(samples.headless)),
      core_alone_ms: Math.round(p50(samples.core)),
      bare_node_http_server_ms: Math.round(p50(samples.bare)),
      vs_bare_server: round(p50(samples.headless) / p50(samples.bare), 1),
      core_alone_vs_bare: round(p50(samples.core) / p50(samples.bare), 1),
    });
    report(`headless start: to a healthy /api/health (${RUNS} runs each, p50)`, {
      core_first_health_ms: Math.round(p50(samples.healthy)),
      bare_node_wal_sqlite_server_ms: Math.round(p50(samples.floor)),
      vs_floor: round(p50(samples.healthy) / p50(samples.floor), 1),
      target: '<= 3',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
