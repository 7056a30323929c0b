// A core killed while the agent launcher hands it a start's pipes: the launcher must not outlive
// it. Node holds back the launcher's IPC 'disconnect' while a pipe it sent waits for the core's
// acknowledgement, so a launcher that listened only for that stayed for good, and with it what it
// was starting (a preview's scratch layer, reading a pipe only the launcher still held).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processIdentity } from '../../src/main/core/agents/leftover-agents';
import { freshDir, type Cleanup } from '../support/steps';

const cleanup: Cleanup = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Kills a process this test started, if it is still there. */
const end = (pid: number) => () => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone, as it should be.
  }
};

describe.skipIf(process.platform !== 'linux')('a core killed mid-start', () => {
  it('takes the agent launcher with it, and the launcher what it was starting', async () => {
    const cue = join(freshDir(cleanup, 'gatehouse-stalled-core-'), 'started');
    const core = spawn(process.execPath, ['--import', 'tsx', 'test/support/stalled-core.ts', cue], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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
        const pid = Number(readFileSync(cue, 'utf8'));
        expect(pid).toBeGreaterThan(0);
        return pid;
      },
      { timeout: 10_000, interval: 20 },
    );
    cleanup.push(end(started));
    expect(processIdentity(launcher)).not.toBeNull();
    expect(processIdentity(started)).not.toBeNull();

    core.kill('SIGKILL');
    await exited;
    await vi.waitFor(() => expect(processIdentity(launcher)).toBeNull(), { timeout: 10_000 });
    // Its fourth pipe closed with the launcher: the started program read to its end and left.
    await vi.waitFor(() => expect(processIdentity(started)).toBeNull(), { timeout: 10_000 });
  });
});
