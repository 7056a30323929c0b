// One zip a person can attach to a bug report: the log files of the data folder, the settings with
// secrets redacted, versions, the newest audit entries' metadata (what happened, never what was
// asked) and the chain's verdict. Reads only: the history is opened read-only and nothing in the
// data folder is written, so it is made the same with or without a running core.
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { arch, release } from 'node:os';
import { basename } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { GATEHOUSE_VERSION } from '../../../shared/control-protocol';
import type { Settings } from '../../../shared/settings';
import { parseSettings, settingsPath } from '../config/settings-file';
import { LOG_KEEP, LOG_MAX_BYTES, logFilePath, rotatedPath } from '../log/log-file';
import { checkAudit, openHistory, type AuditCheck } from '../store/audit-check';
import { databasePath } from '../store/data-folder';
import { auditMetadata } from './audit-metadata';
import { knownSecrets, redactSettings, redactUrl, scrub } from './redact';

/** How many audit entries the bundle describes. */
export const BUNDLE_AUDIT_ENTRIES = 200;

export interface BundleSource {
  /** The data folder. */
  home: string;
  /** The environment whose secrets must not appear (and where the audit key may be found). */
  env: Record<string, string | undefined>;
  /** The chain's verdict from a running core, which holds the key wherever it is kept. */
  auditVerify?: () => AuditCheck;
}

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
  const paths = [
    current,
    ...Array.from({ length: LOG_KEEP }, (_, i) => rotatedPath(current, i + 1)),
  ];
  return Object.fromEntries(
    paths
      .filter((path) => existsSync(path))
      .map((path) => [`logs/${basename(path)}`, readTail(path)]),
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
      Object.entries(settings?.agents ?? {}).map(([id, agent]) => [
        id,
        agent.command === undefined ? `registry:${agent.registry}` : redactUrl(agent.command),
      ]),
    ),
  };
}

/** The bundle's files by name, every text scrubbed of the secrets the settings and environment hold. */
export function bundleFiles(source: BundleSource): Record<string, string> {
  const { home, env } = source;
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
    'audit-verify.txt': `${(source.auditVerify?.() ?? checkAudit(db, home, env)).line}\n`,
    ...logFiles(home),
  };
  const secrets = knownSecrets(parsed, env);
  return Object.fromEntries(
    Object.entries(files).map(([name, text]) => [name, scrub(text, secrets)]),
  );
}

/** The bundle's files, zipped. */
export function bundleZip(source: BundleSource): Uint8Array {
  const files = bundleFiles(source);
  return zipSync(Object.fromEntries(Object.entries(files).map(([n, t]) => [n, strToU8(t)])));
}

/** `gatehouse-support-<time>.zip`, a name that sorts by time and holds no path separator. */
export function bundleName(at: Date): string {
  return `gatehouse-support-${at.toISOString().replace(/[:.]/g, '-')}.zip`;
}
