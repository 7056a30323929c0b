// The log file in the data folder, shared by both shells (headless writes it itself, the desktop
// through electron-log), with one line format and one rotation.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, parse } from 'node:path';
import { formatWithOptions } from 'node:util';

/** A log file is rotated when it would grow past this size… */
export const LOG_MAX_BYTES = 5 * 1024 * 1024;
/** …and this many rotated files are kept (gatehouse.1.log is the newest). */
export const LOG_KEEP = 3;

export function logFilePath(home: string): string {
  return join(home, 'logs', 'gatehouse.log');
}

/** `<name>.<n><ext>`: the n-th rotated file of `path`. */
export function rotatedPath(path: string, n: number): string {
  const { dir, name, ext } = parse(path);
  return join(dir, `${name}.${n}${ext}`);
}

/** gatehouse.log → gatehouse.1.log → … → gatehouse.<keep>.log; the oldest is dropped. */
export function rotateLogFiles(path: string, keep: number = LOG_KEEP): void {
  rmSync(rotatedPath(path, keep), { force: true });
  for (let n = keep - 1; n >= 1; n--) {
    const from = rotatedPath(path, n);
    if (existsSync(from)) renameSync(from, rotatedPath(path, n + 1));
  }
  if (existsSync(path)) renameSync(path, rotatedPath(path, 1));
}

/** The message and its details as one text, the way the console prints them. */
export function logText(message: string, details: readonly unknown[]): string {
  return formatWithOptions({ colors: false }, message, ...details);
}

/** One line of the log file: `2025-01-31T12:00:00.000Z warn  [scope] text`. */
export function logLine(date: Date, level: string, scope: string, text: string): string {
  return `${date.toISOString()} ${level.padEnd(5)} [${scope}] ${text}`;
}
