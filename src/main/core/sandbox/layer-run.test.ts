// The preview's time bound is the command's: a layer slow to build does not take the command's time,
// and a layer that never gets as far as its command is stopped at the same bound. The layer here is
// a stand-in whose reports the test writes, on a clock the test moves.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runLayer, type LayerProcess, type LayerSpawner } from './layer-run';

let group: ChildProcess | null = null;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  group?.kill('SIGKILL');
  group = null;
});

/** A stand-in layer: a real process group (the run kills it at its end), pipes the test holds. */
function standIn() {
  group = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  const stdin = new PassThrough();
  const reports = new PassThrough();
  let said = '';
  stdin.on('data', (chunk: Buffer) => (said += chunk.toString()));
  let exit!: (value: { code: number | null; signal: string | null }) => void;
  const layer: LayerProcess = {
    pid: group.pid,
    stdin,
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    lifeline: reports,
    exited: new Promise((resolve) => (exit = resolve)),
  };
  const spawner: LayerSpawner = () => Promise.resolve(layer);
  const end = () => {
    reports.end();
    exit({ code: null, signal: 'SIGKILL' });
  };
  return { spawner, reports, told: () => said, end };
}

const run = (spawner: LayerSpawner) =>
  runLayer(spawner, 'unshare', 'script', { timeoutMs: 1000 }, () => Promise.resolve(null));

describe('a scratch layer run', () => {
  it('gives the command its whole bound, however long the layer took to build', async () => {
    const layer = standIn();
    const outcome = run(layer.spawner);
    await vi.advanceTimersByTimeAsync(900);
    layer.reports.write('start\n');
    await vi.advanceTimersByTimeAsync(900);
    expect(layer.told()).toBe('');
    await vi.advanceTimersByTimeAsync(200);
    expect(layer.told()).toBe('stop\n');
    layer.end();
    expect(await outcome).toMatchObject({ timedOut: true, exitCode: null, setupFailure: null });
  });

  it('stops a layer that does not reach its command within the bound', async () => {
    const layer = standIn();
    const outcome = run(layer.spawner);
    await vi.advanceTimersByTimeAsync(999);
    expect(layer.told()).toBe('');
    await vi.advanceTimersByTimeAsync(1);
    expect(layer.told()).toBe('stop\n');
    // A start reported after the bound gives no second one.
    layer.reports.write('start\n');
    await vi.advanceTimersByTimeAsync(2000);
    expect(layer.told()).toBe('stop\n');
    layer.end();
    expect(await outcome).toMatchObject({ timedOut: true, exitCode: null });
  });
});
