// Diagnostics by scope and level. Every module takes a scoped logger when it loads; the entry that
// runs (headless or desktop) decides where lines go by installing a sink. Until one is installed
// (unit tests, scripts), lines go to the console.

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogMethod = (message: string, ...details: unknown[]) => void;

export type Logger = Record<LogLevel, LogMethod>;

/** Where a line goes: `details` are the values after the message (errors, objects). */
export type LogSink = (
  level: LogLevel,
  scope: string,
  message: string,
  details: readonly unknown[],
) => void;

const consoleSink: LogSink = (level, scope, message, details) =>
  console[level](`[${scope}] ${message}`, ...details);

let sink: LogSink = consoleSink;

/** Sends every logger's lines to `next` from now on; returns the sink it replaces. */
export function installLogSink(next: LogSink): LogSink {
  const previous = sink;
  sink = next;
  return previous;
}

/** Whether `level` is at least `threshold` (debug < info < warn < error). */
export function atLeast(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/** A logger for one part of Gatehouse; its lines go to whichever sink is installed when they are written. */
export function logger(scope: string): Logger {
  const method =
    (level: LogLevel): LogMethod =>
    (message, ...details) =>
      sink(level, scope, message, details);
  return {
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
  };
}
