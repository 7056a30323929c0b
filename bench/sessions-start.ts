// Sessions started at once on a fresh core, nothing else running: the longest event-loop stall of
// 10 and then of 50 starts (sandboxed with bubblewrap where the machine has it), each next to an
// idle floor of the same run, and a floor of its own: the longest this process's loop waits, doing
// nothing, while another process starts the same agents with a plain SDK client
// (agents-starting.ts: no Gatehouse, no sandbox). The agents' own start-up keeps both cores busy
// for seconds; the floor is how long any process's loop waits its turn then. Small enough to
// profile alone:
//   npx tsx bench/sessions-start.ts
//   node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/sessions-start.ts
// Target: ≤ 50 ms at any moment. Knob: BENCH_START_SESSIONS (comma-separated batches, "10,50").
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { loadavg, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Settings } from '../src/shared/settings';
import { createCore } from '../src/main/core/core';
import { round, type Report } from './report';
import { longestStall } from './stalls';

const BATCHES = (process.env.BENCH_START_SESSIONS ?? '10,50').split(',').map(Number);
const AGENT = fileURLToPath(new URL('./agents/timestamp-agent.ts', import.meta.url));
const STARTER = fileURLToPath(new URL('./agents-starting.ts', import.meta.url));

/** The longest stall of this process's idle loop while another process starts `count` agents. */
async function startedBeside(count: number, cwd: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', STARTER, String(count), cwd], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const said = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (expected: string) => {
    const line = await said.next();
    if (line.value !== expected) throw new Error(`agents-starting.ts said ${line.value}`);
  };
  try {
    await next('ready');
    return await longestStall(async () => {
      child.stdin!.write('go\n');
      await next('started');
    });
  } finally {
    child.stdin!.end();
    await exited;
  }
}

export async function benchSessionStarts(report: Report): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-starts-'));
  // This bench runs in the bench's own process: the key file it names goes with its folder, so the
  // benches after it must not be left pointing at it.
  const keyFile = process.env.GATEHOUSE_AUDIT_KEY_FILE;
  process.env.GATEHOUSE_AUDIT_KEY_FILE ??= join(dir, 'audit-key');
  const cwd = join(dir, 'work');
  mkdirSync(cwd);
  const settings = Settings.parse({ agents: { ts: { command: process.execPath, args: [AGENT] } } });
  const core = await createCore({ home: join(dir, 'home'), settings });
  try {
    const floor = await longestStall(() => new Promise((r) => setTimeout(r, 1000)));
    report('session starts: idle floor', { longest_stall_ms: round(floor.stall, 1) });
    for (const count of BATCHES) {
      const beside = await startedBeside(count, cwd);
      const started = await longestStall(() =>
        Promise.all(Array.from({ length: count }, () => core.sessions.create('ts', cwd))),
      );
      report(`session starts: ${count} at once`, {
        longest_stall_ms: round(started.stall, 1),
        vs_idle_floor: round(started.stall / floor.stall, 1),
        started_beside_stall_ms: round(beside.stall, 1),
        vs_started_beside: round(started.stall / beside.stall, 2),
        took_ms: Math.round(started.took),
        started_beside_took_ms: Math.round(beside.took),
        // The core's thread while they started: its own work, and its waits for a CPU.
        core_thread_cpu_ms: Math.round(started.cpuMs),
        core_thread_run_queue_ms: Math.round(started.runQueueMs),
        target_ms: 50,
        load: round(loadavg()[0] ?? 0, 2),
      });
      await core.sessions.closeAll('session_closed');
    }
  } finally {
    await core.close();
    rmSync(dir, { recursive: true, force: true });
    if (keyFile === undefined) delete process.env.GATEHOUSE_AUDIT_KEY_FILE;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printReport } = await import('./report');
  await benchSessionStarts(printReport);
}
