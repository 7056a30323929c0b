// A core killed while its agent launcher runs a start: the launcher must not outlive it, nor leave
// behind what it started. Node holds back the launcher's IPC 'disconnect' while a pipe it sent
// waits for the core's acknowledgement, so a launcher that listened only for that stayed for good,
// and with it what it was starting (a preview's scratch layer, reading a pipe only the launcher
// still held). And a sandboxed agent relies on bubblewrap's `--die-with-parent`, which a `bwrap`
// killed in the first milliseconds of its start can miss, leaving its sandbox running: the
// launcher ends its agents' process groups itself.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it, vi } from 'vitest';
import { processIdentity } from '../../src/main/core/process-identity';
import { cleanupAfterEach, freshDir } from '../support/steps';

const cleanup = cleanupAfterEach();

/** Kills a process this test started, if it is still there. */
const end = (pid: number) => () => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone, as it should be.
  }
};

/**
 * The stand-in core (test/support/stalled-core.ts) in `mode`, once its launcher has started the
 * program: the core, the launcher's pid and the pids the program wrote to the cue.
 */
async function stalledCore(mode: 'handing-over' | 'started') {
  const cue = join(freshDir(cleanup, 'gatehouse-stalled-core-'), 'started');
  const core = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/stalled-core.ts', cue, mode],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  cleanup.push(end(core.pid!));
  const exited = new Promise((resolve) => core.once('exit', resolve));
  const launcher = await new Promise<number>((resolve, reject) => {
    core.once('exit', (code) => reject(new Error(`the stand-in core exited ${code}`)));
    createInterface({ input: core.stdout! }).on('line', (line) => {
      const pid = /^launcher (\d+)$/.exec(line)?.[1];
      if (pid) resolve(Number(pid));
    });
  });
  cleanup.push(end(launcher));
  const started = await vi.waitFor(
    () => {
      const pids = readFileSync(cue, 'utf8').trim().split(' ').map(Number);
      expect(pids.every((pid) => pid > 0)).toBe(true);
      return pids;
    },
    { timeout: 10_000, interval: 20 },
  );
  for (const pid of started) cleanup.push(end(pid));
  expect(processIdentity(launcher)).not.toBeNull();
  for (const pid of started) expect(processIdentity(pid)).not.toBeNull();
  const kill = async () => {
    core.kill('SIGKILL');
    await exited;
  };
  return { kill, launcher, started };
}

describe.skipIf(process.platform !== 'linux')('a core killed mid-start', () => {
  it('takes the agent launcher with it, and the launcher what it was starting', async () => {
    const { kill, launcher, started } = await stalledCore('handing-over');
    await kill();
    await vi.waitFor(() => expect(processIdentity(launcher)).toBeNull(), { timeout: 10_000 });
    // Its fourth pipe closed with the launcher: the started program read to its end and left.
    await vi.waitFor(() => expect(processIdentity(started[0]!)).toBeNull(), { timeout: 10_000 });
  });

  it('leaves no process of an agent that would outlive its input, nor of what that agent started', async () => {
    const { kill, launcher, started } = await stalledCore('started');
    await kill();
    await vi.waitFor(() => expect(processIdentity(launcher)).toBeNull(), { timeout: 10_000 });
    for (const pid of started)
      await vi.waitFor(() => expect(processIdentity(pid)).toBeNull(), { timeout: 10_000 });
  });
});
