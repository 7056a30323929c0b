// The desktop's electron-log sink writes the same file, lines and rotation as headless.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import electronLog from 'electron-log/node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logFilePath, rotatedPath } from '../core/log/log-file';
import { electronLogSink } from './log';

const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (debug|info |warn |error) \[[\w-]+\] /;

describe('the desktop log sink (electron-log)', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-log-'));
    vi.spyOn(electronLog.transports.console, 'writeFn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(home, { recursive: true, force: true });
  });

  it('writes info and above to the data folder’s log file, in the headless line format; warnings also to the terminal', () => {
    const write = electronLogSink(home);
    write('debug', 'desktop', 'not kept', []);
    write('info', 'desktop', 'started', []);
    write('warn', 'notifications', 'notifications are off', [new Error('no bus')]);
    const lines = readFileSync(logFilePath(home), 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(LINE);
    expect(lines[0]!.replace(LINE, '')).toBe('started');
    expect(lines[0]).toContain('info  [desktop] started');
    expect(lines[1]).toContain('warn  [notifications] notifications are off Error: no bus');
    expect(lines.join('\n')).not.toContain('not kept');
    expect(statSync(logFilePath(home)).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'logs')).mode & 0o777).toBe(0o700);
    expect(
      vi
        .mocked(electronLog.transports.console.writeFn)
        .mock.calls.map(([{ message }]) => message.level),
    ).toEqual(['warn']);
  });

  it('rotates the file the way headless does', () => {
    const write = electronLogSink(home);
    electronLog.transports.file.maxSize = 100;
    for (let n = 1; n <= 4; n++) write('info', 'desktop', `line ${n} ${'x'.repeat(40)}`, []);
    expect(existsSync(rotatedPath(logFilePath(home), 1))).toBe(true);
    expect(readFileSync(logFilePath(home), 'utf8')).toContain('line 4');
  });
});
