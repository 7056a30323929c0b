// Checks the audit chain of a history database from outside the core that writes it: reads only,
// never migrates the database, creates a key or moves one. The key is found as a headless Gatehouse
// finds it (audit-key.ts): GATEHOUSE_AUDIT_KEY, then GATEHOUSE_AUDIT_KEY_FILE, then the default file
// outside the data folder; never beside the database.
import { existsSync } from 'node:fs';
import { verifyChain, type VerifyResult } from './audit-log';
import { findAuditKey, legacyKeyPath } from './audit-key';
import { openDatabase, type Db } from './database';
import { DatabaseTooNewError } from './errors';
import { SCHEMA_VERSION, schemaVersion } from './migrations';

/** Opens the history database for reading only (see below for the one exception). */
export function openHistory(path: string): Db {
  try {
    return openDatabase(path, { readonly: true });
  } catch {
    // A WAL database without its -shm file cannot be opened read-only; read-write opens it, and this
    // command still writes nothing.
    return openDatabase(path);
  }
}

export interface AuditCheck {
  /** 0 the chain verifies, 1 it is broken, 2 it cannot be checked. */
  code: 0 | 1 | 2;
  line: string;
}

/** Verifies the chain of the database at `path` in the data folder `home`, as one line. */
export function checkAudit(
  path: string,
  home: string,
  env: Record<string, string | undefined>,
): AuditCheck {
  if (!existsSync(path)) {
    return {
      code: 2,
      line: `audit: no history database at ${path} (set GATEHOUSE_HOME or pass the file)`,
    };
  }
  let db: Db | undefined;
  try {
    db = openHistory(path);
    const version = schemaVersion(db);
    if (version > SCHEMA_VERSION) throw new DatabaseTooNewError(path, version, SCHEMA_VERSION);
    const found = findAuditKey({ home, dbPath: path, env });
    const key = found?.key ?? null;
    const result = verifyChain(db, key);
    const keyNote = found
      ? ''
      : existsSync(legacyKeyPath(path))
        ? ` [the audit key is still beside the database: start Gatehouse once to move it out]`
        : ' [no audit key found: set GATEHOUSE_AUDIT_KEY or GATEHOUSE_AUDIT_KEY_FILE]';
    return describeVerdict(result, path, keyNote);
  } catch (err) {
    return { code: 2, line: `audit: cannot verify ${path}: ${(err as Error).message}` };
  } finally {
    db?.close();
  }
}

/** A verdict of the chain as one line; `keyNote` says why a broken chain may only lack its key. */
export function describeVerdict(result: VerifyResult, path: string, keyNote = ''): AuditCheck {
  if (result.ok) {
    const from = result.checkpoint
      ? `, from the signed retention checkpoint at entry ${result.checkpoint.seq} (${result.checkpoint.prunedRows} entries pruned)`
      : '';
    return { code: 0, line: `audit: OK, ${result.rows} entries verified in ${path}${from}` };
  }
  const request = result.requestId ? ` (request ${result.requestId})` : '';
  return {
    code: 1,
    line: `audit: BROKEN at entry ${result.firstBrokenSeq}${request}: ${result.reason}${keyNote}`,
  };
}
