// The desktop sink: electron-log writes the data folder's log file, in the same lines and with the
// same rotation as headless; warnings and errors also reach the terminal (npm start).
// electron-log's Node flavour on purpose: the main-process one registers an IPC channel any page
// could send to and injects its own preload, and Gatehouse's windows get neither.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import electronLog from 'electron-log/node';
import {
  LOG_KEEP,
  LOG_MAX_BYTES,
  logFilePath,
  logLine,
  logText,
  rotateLogFiles,
  type LogSink,
} from '../core';

export function electronLogSink(home: string): LogSink {
  const path = logFilePath(home);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const file = electronLog.transports.file;
  file.resolvePathFn = () => path;
  file.level = 'info';
  file.maxSize = LOG_MAX_BYTES;
  file.archiveLogFn = (old) => rotateLogFiles(old.path, LOG_KEEP);
  file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' };
  file.format = ({ data, level, message }) => [
    logLine(message.date, level, message.scope ?? '', logText(String(data[0]), data.slice(1))),
  ];
  electronLog.transports.console.level = 'warn';
  return (level, scope, message, details) => electronLog.scope(scope)[level](message, ...details);
}
