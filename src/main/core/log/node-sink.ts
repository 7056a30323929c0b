// The headless sink: every line at or above a level into the rotated log file of the data folder,
// and warnings and errors on stderr too (`[scope] text`), where a person running it sees them.
import { appendFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { LOG_KEEP, LOG_MAX_BYTES, logLine, logText, rotateLogFiles } from './log-file';
import { atLeast, type LogLevel, type LogSink } from './logger';

export interface NodeLogSinkOptions {
  /** The log file (logFilePath(home)). */
  path: string;
  /** The lowest level written to the file. Default info. */
  level?: LogLevel;
  maxBytes?: number;
  keep?: number;
  /** Where warnings and errors are echoed. Default process.stderr. */
  stderr?: { write(text: string): unknown };
  now?: () => Date;
}

export function nodeLogSink(options: NodeLogSinkOptions): LogSink {
  const { path, level: threshold = 'info', maxBytes = LOG_MAX_BYTES, keep = LOG_KEEP } = options;
  const stderr = options.stderr ?? process.stderr;
  const now = options.now ?? (() => new Date());
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  let failureReported = false;

  const append = (line: string) => {
    const bytes = Buffer.byteLength(line);
    if (size > 0 && size + bytes > maxBytes) {
      rotateLogFiles(path, keep);
      size = 0;
    }
    // Synchronous: the line is on disk even if the process exits right after (a failed start).
    appendFileSync(path, line, { mode: 0o600 });
    size += bytes;
  };

  return (level, scope, message, details) => {
    const text = logText(message, details);
    if (atLeast(level, 'warn')) stderr.write(`[${scope}] ${text}\n`);
    if (!atLeast(level, threshold)) return;
    try {
      append(`${logLine(now(), level, scope, text)}\n`);
    } catch (error) {
      // A full disk or a removed folder must not take Gatehouse down with it; said once.
      if (!failureReported)
        stderr.write(`[log] ${logText('the log file cannot be written:', [error])}\n`);
      failureReported = true;
    }
  };
}
