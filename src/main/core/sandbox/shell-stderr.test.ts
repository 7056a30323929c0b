import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bashEnv, openShellStderrTap, SHELL_TAP_INSIDE } from './shell-stderr';
import { runHere } from './tool-runner';

const runDir = mkdtempSync(join(tmpdir(), 'gatehouse-shell-tap-'));
afterAll(() => rmSync(runDir, { recursive: true, force: true }));

/**
 * Runs bash as an agent would, without blocking this thread (which reads the FIFO). No stdin:
 * bash run with a socket on stdin takes itself for a remote shell and reads ~/.bashrc.
 */
function bash(
  script: string,
  bashEnvFile: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', script], {
    env: { PATH: process.env['PATH'], BASH_ENV: bashEnvFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) =>
    child.once('close', (status) => resolve({ status, stdout, stderr })),
  );
}

/** Waits for `count` characters of text, however the FIFO splits them. */
function collector() {
  let text = '';
  const waiters: { count: number; done: () => void }[] = [];
  return {
    onText: (part: string) => {
      text += part;
      for (const waiter of waiters.splice(0)) {
        if (text.length >= waiter.count) waiter.done();
        else waiters.push(waiter);
      }
    },
    text: () => text,
    atLeast: (count: number) =>
      text.length >= count
        ? Promise.resolve()
        : new Promise<void>((done) => waiters.push({ count, done })),
  };
}

describe('the copy of each shell’s stderr', () => {
  it('gives bash’s error output to Gatehouse and, whole and in order, to whoever ran the shell', async () => {
    const seen = collector();
    const tap = await openShellStderrTap(runDir, seen.onText);
    const fifo = tap.files.find((file) => file.target.endsWith('/stderr'))!.source;
    const script = tap.files.find((file) => file.target.endsWith('.sh'))!.source;
    expect(tap.bashEnv).toBe(join(SHELL_TAP_INSIDE, 'bash-env.sh'));
    // Outside a sandbox the script names the FIFO where the sandbox shows it; here, where it is.
    const local = join(runDir, 'local-env.sh');
    writeFileSync(local, bashEnv(fifo));
    const run = await bash('echo out; echo x > /proc/none/file; ls /nowhere-at-all; exit 7', local);
    expect(run.status).toBe(7);
    expect(run.stdout).toBe('out\n');
    expect(run.stderr).toMatch(/\/proc\/none\/file: No such file or directory\n.*nowhere-at-all/s);
    await seen.atLeast(run.stderr.length);
    expect(seen.text()).toBe(run.stderr);
    expect(readFileSync(script, 'utf8')).toBe(bashEnv(join(SHELL_TAP_INSIDE, 'stderr')));
    await tap.close();
    expect(existsSync(fifo)).toBe(false);
    await tap.close();
  });

  it('passes on no more than its limit, and keeps draining after it', async () => {
    const seen = collector();
    const tap = await openShellStderrTap(runDir, seen.onText, undefined, 10);
    const fifo = tap.files.find((file) => file.target.endsWith('/stderr'))!.source;
    const local = join(runDir, 'limited-env.sh');
    writeFileSync(local, bashEnv(fifo));
    // Well past a pipe's buffer: a writer the reader stopped draining would block here.
    const run = await bash('head -c 200000 /dev/zero | tr "\\0" x >&2', local);
    expect(run.status).toBe(0);
    expect(run.stderr).toHaveLength(200_000);
    await seen.atLeast(10);
    expect(seen.text()).toBe('xxxxxxxxxx');
    await tap.close();
  });

  it('has its FIFO made by the runner it is given, and leaves nothing behind when that fails', async () => {
    const asked: string[][] = [];
    const tap = await openShellStderrTap(
      runDir,
      () => {},
      (command, args) => {
        asked.push([command, ...args]);
        return runHere(command, args);
      },
    );
    const fifo = tap.files.find((file) => file.target.endsWith('/stderr'))!.source;
    expect(asked).toEqual([['mkfifo', '-m', '0600', fifo]]);
    expect(statSync(fifo).isFIFO()).toBe(true);
    await tap.close();

    const before = readdirSync(runDir);
    await expect(
      openShellStderrTap(
        runDir,
        () => {},
        () => Promise.reject(new Error('mkfifo: refused')),
      ),
    ).rejects.toThrow('mkfifo: refused');
    expect(readdirSync(runDir)).toEqual(before);
  });
});
