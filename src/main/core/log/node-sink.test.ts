import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logFilePath, rotatedPath, rotateLogFiles } from './log-file';
import { nodeLogSink } from './node-sink';

const AT = new Date('2025-01-31T12:00:00.000Z');

describe('the headless log sink', () => {
  let home: string;
  let path: string;
  let stderr: string[];
  const sink = (options: { level?: 'debug' | 'info'; maxBytes?: number; keep?: number } = {}) =>
    nodeLogSink({
      path,
      now: () => AT,
      stderr: { write: (t: string) => stderr.push(t) },
      ...options,
    });
  const read = (file: string) => readFileSync(file, 'utf8');

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'gatehouse-log-'));
    path = logFilePath(home);
    stderr = [];
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('writes info and above to the log file in the data folder, warnings and errors also to stderr', () => {
    const write = sink();
    write('debug', 'http', 'not kept', []);
    write('info', 'headless', 'listening at http://127.0.0.1:1', []);
    write('warn', 'policy', 'quorum ignored', []);
    write('error', 'store', 'commit failed:', [new Error('disk full')]);
    expect(path).toBe(join(home, 'logs', 'gatehouse.log'));
    const lines = read(path).split('\n');
    expect(lines[0]).toBe(
      '2025-01-31T12:00:00.000Z info  [headless] listening at http://127.0.0.1:1',
    );
    expect(lines[1]).toBe('2025-01-31T12:00:00.000Z warn  [policy] quorum ignored');
    expect(lines[2]).toBe('2025-01-31T12:00:00.000Z error [store] commit failed: Error: disk full');
    expect(read(path)).not.toContain('not kept');
    expect(stderr[0]).toBe('[policy] quorum ignored\n');
    expect(stderr[1]).toMatch(/^\[store\] commit failed: Error: disk full\n {4}at /);
    expect(stderr).toHaveLength(2);
    // Only the owner reads what Gatehouse logs.
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'logs')).mode & 0o777).toBe(0o700);
  });

  it('writes debug lines too when asked for that level', () => {
    sink({ level: 'debug' })('debug', 'http', 'kept', []);
    expect(read(path)).toContain('debug [http] kept');
  });

  it('rotates by size: the full file becomes .1, older ones shift, only `keep` are kept', () => {
    // Each line is 63 bytes: three fit in 200.
    const write = sink({ maxBytes: 200, keep: 2 });
    const line = (n: number) => write('info', 'x', `line ${String(n).padStart(22, '0')}`, []);
    for (let n = 1; n <= 3; n++) line(n);
    expect(existsSync(rotatedPath(path, 1))).toBe(false);
    line(4);
    expect(read(rotatedPath(path, 1)).split('\n').filter(Boolean)).toHaveLength(3);
    expect(read(path)).toContain('line 0000000000000000000004');
    // Two more rotations: lines 1-3 are the oldest file and are dropped.
    for (let n = 5; n <= 10; n++) line(n);
    expect(read(path)).toContain('line 0000000000000000000010');
    expect(read(rotatedPath(path, 1))).toContain('line 0000000000000000000007');
    expect(read(rotatedPath(path, 2))).toContain('line 0000000000000000000004');
    expect(read(rotatedPath(path, 2))).not.toContain('line 0000000000000000000001');
    expect(existsSync(rotatedPath(path, 3))).toBe(false);
    for (const file of [path, rotatedPath(path, 1), rotatedPath(path, 2)]) {
      expect(statSync(file).size).toBeLessThanOrEqual(200);
    }
  });

  it('counts what the file already holds when it starts', () => {
    sink();
    writeFileSync(path, 'x'.repeat(190));
    sink({ maxBytes: 200 })('info', 'x', 'next start', []);
    expect(read(rotatedPath(path, 1))).toBe('x'.repeat(190));
    expect(read(path)).toContain('next start');
  });

  it('keeps running when the file cannot be written, and says so once', () => {
    const write = sink();
    rmSync(join(home, 'logs'), { recursive: true });
    writeFileSync(join(home, 'logs'), 'not a folder');
    write('info', 'x', 'lost', []);
    write('info', 'x', 'lost too', []);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/^\[log\] the log file cannot be written: Error: ENOTDIR/);
  });
});

describe('rotateLogFiles', () => {
  it('shifts name.log → name.1.log → name.2.log and drops the one past keep', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-rotate-'));
    try {
      const path = join(dir, 'gatehouse.log');
      writeFileSync(path, 'now');
      writeFileSync(rotatedPath(path, 1), 'before');
      writeFileSync(rotatedPath(path, 2), 'oldest');
      rotateLogFiles(path, 2);
      expect(existsSync(path)).toBe(false);
      expect(readFileSync(rotatedPath(path, 1), 'utf8')).toBe('now');
      expect(readFileSync(rotatedPath(path, 2), 'utf8')).toBe('before');
      expect(rotatedPath(path, 2)).toBe(join(dir, 'gatehouse.2.log'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
