// `gatehouse support-bundle [--out <file>]`: one zip a person can attach to a bug report. It holds the
// log files, the settings with secrets redacted, versions, the newest audit entries' metadata (what
// happened, never what was asked) and the result of `audit verify`. Reads only, with or without a
// running core: the history is opened read-only and nothing in the data folder is written.
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { arch, release } from 'node:os';
import { basename, resolve } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { parseSettings, settingsPath } from '../main/core/config/settings-file';
import { LOG_KEEP, LOG_MAX_BYTES, logFilePath, rotatedPath } from '../main/core/log/log-file';
import { databasePath, resolveHome } from '../main/core/store/data-folder';
import type { Settings } from '../shared/settings';
import { GATEHOUSE_VERSION } from '../shared/control-protocol';
import { checkAudit, openHistory } from './audit-verify';
import { EXIT, type CliIo } from './io';
import { auditMetadata } from './support/audit-metadata';
import { knownSecrets, redactSettings, redactUrl, scrub } from './support/redact';

/** How many audit entries the bundle describes. */
export const BUNDLE_AUDIT_ENTRIES = 200;

export const SUPPORT_BUNDLE_HELP = `Usage: gatehouse support-bundle [--out <file>]

Writes a zip to attach to a bug report: the log files of $GATEHOUSE_HOME, settings.json with secrets
redacted (agents' environment values hashed, telemetry headers and credential-like values removed),
versions, the metadata of the last ${BUNDLE_AUDIT_ENTRIES} audit entries (kinds, times, ids, decisions; no titles,
commands, paths, diffs or prompts) and the result of \`gatehouse audit verify\`.
Reads only; safe while Gatehouse runs. Default file: gatehouse-support-<time>.zip here.`;

type Read<T> = { value: T } | { problem: string };

function readSettings(home: string): Read<Settings | undefined> {
  const file = settingsPath(home);
  if (!existsSync(file)) return { value: undefined };
  try {
    return { value: parseSettings(readFileSync(file, 'utf8'), file) };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

/** The end of a log file: rotation keeps each under LOG_MAX_BYTES, but nothing here trusts that. */
function readTail(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, LOG_MAX_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function logFiles(home: string): Record<string, string> {
  const current = logFilePath(home);
  const paths = [current, ...Array.from({ length: LOG_KEEP }, (_, i) => rotatedPath(current, i + 1))];
  return Object.fromEntries(
    paths.filter((path) => existsSync(path)).map((path) => [`logs/${basename(path)}`, readTail(path)]),
  );
}

function auditEntries(path: string): unknown {
  if (!existsSync(path)) return { problem: `no history database at ${path}` };
  try {
    const db = openHistory(path);
    try {
      return auditMetadata(db, BUNDLE_AUDIT_ENTRIES);
    } finally {
      db.close();
    }
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

function versions(settings: Settings | undefined): unknown {
  return {
    gatehouse: GATEHOUSE_VERSION,
    node: process.versions.node,
    platform: process.platform,
    arch: arch(),
    osRelease: release(),
    agents: Object.fromEntries(
      Object.entries(settings?.agents ?? {}).map(([id, agent]) => [id, agent.command === undefined ? `registry:${agent.registry}` : redactUrl(agent.command)]),
    ),
  };
}

/** The bundle's files by name, every text scrubbed of the secrets the settings and environment hold. */
export function bundleFiles(home: string, env: CliIo['env']): Record<string, string> {
  const settings = readSettings(home);
  const parsed = 'value' in settings ? settings.value : undefined;
  const db = databasePath(home);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const files: Record<string, string> = {
    'versions.json': json(versions(parsed)),
    'settings.json': json(
      'problem' in settings
        ? { problem: settings.problem }
        : parsed
          ? redactSettings(parsed)
          : { problem: 'no settings.json: the defaults apply' },
    ),
    'audit-entries.json': json(auditEntries(db)),
    'audit-verify.txt': `${checkAudit(db, home, env).line}\n`,
    ...logFiles(home),
  };
  const secrets = knownSecrets(parsed, env);
  return Object.fromEntries(Object.entries(files).map(([name, text]) => [name, scrub(text, secrets)]));
}

export function supportBundle(out: string | undefined, io: CliIo): number {
  const home = resolveHome(io.env);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = resolve(out ?? `gatehouse-support-${stamp}.zip`);
  try {
    const files = bundleFiles(home, io.env);
    const zip = zipSync(Object.fromEntries(Object.entries(files).map(([n, t]) => [n, strToU8(t)])));
    // 'wx': an existing file (or a link planted where the bundle goes) is never written through.
    writeFileSync(file, zip, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    io.err(`support-bundle: cannot write ${file}: ${(err as Error).message}`);
    return EXIT.failed;
  }
  io.out(file);
  return EXIT.ok;
}
