// `gatehouse audit verify [database]`: checks the tamper-evident audit chain of a Gatehouse history.
// Prints one line; exits 0 when the chain verifies, 1 when it is broken, 2 when it cannot be checked.
// Reads only: it never migrates the database, creates a key or moves one. It finds the key as a
// headless Gatehouse does (src/main/core/store/audit-key.ts): GATEHOUSE_AUDIT_KEY, then
// GATEHOUSE_AUDIT_KEY_FILE, then the default file outside the data folder; never beside the database.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { verifyChain } from '../main/core/store/audit-log';
import { openDatabase, type Db } from '../main/core/store/database';
import { DatabaseTooNewError } from '../main/core/store/errors';
import { SCHEMA_VERSION, schemaVersion } from '../main/core/store/migrations';
import { findAuditKey, legacyKeyPath } from '../main/core/store/audit-key';
import { databasePath, resolveHome } from '../main/core/store/data-folder';
import type { CliIo } from './io';

export const AUDIT_VERIFY_HELP = `Usage: gatehouse audit verify [database]

Checks the hash chain of the audit in $GATEHOUSE_HOME/gatehouse.db (or the database given) and the
signature of its head, and names the first broken entry. Reads only; safe while Gatehouse runs.
The key is found as headless Gatehouse finds it: GATEHOUSE_AUDIT_KEY, GATEHOUSE_AUDIT_KEY_FILE,
then the per-user state folder.

Exit status: 0 the chain verifies, 1 it is broken, 2 it cannot be checked.`;

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
export function checkAudit(path: string, home: string, env: CliIo['env']): AuditCheck {
  if (!existsSync(path)) {
    return { code: 2, line: `audit: no history database at ${path} (set GATEHOUSE_HOME or pass the file)` };
  }
  let db: Db | undefined;
  try {
    db = openHistory(path);
    const version = schemaVersion(db);
    if (version > SCHEMA_VERSION) throw new DatabaseTooNewError(path, version, SCHEMA_VERSION);
    const found = findAuditKey({ home, dbPath: path, env });
    const key = found?.key ?? null;
    const result = verifyChain(db, key);
    if (result.ok) {
      const from = result.checkpoint
        ? `, from the signed retention checkpoint at entry ${result.checkpoint.seq} (${result.checkpoint.prunedRows} entries pruned)`
        : '';
      return { code: 0, line: `audit: OK, ${result.rows} entries verified in ${path}${from}` };
    }
    const request = result.requestId ? ` (request ${result.requestId})` : '';
    const keyNote = found
      ? ''
      : existsSync(legacyKeyPath(path))
        ? ` [the audit key is still beside the database: start Gatehouse once to move it out]`
        : ' [no audit key found: set GATEHOUSE_AUDIT_KEY or GATEHOUSE_AUDIT_KEY_FILE]';
    return {
      code: 1,
      line: `audit: BROKEN at entry ${result.firstBrokenSeq}${request}: ${result.reason}${keyNote}`,
    };
  } catch (err) {
    return { code: 2, line: `audit: cannot verify ${path}: ${(err as Error).message}` };
  } finally {
    db?.close();
  }
}

export function auditVerify(given: string | undefined, io: CliIo): number {
  const home = given ? dirname(given) : resolveHome(io.env);
  const { code, line } = checkAudit(given ?? databasePath(home), home, io.env);
  if (code === 2) io.err(line);
  else io.out(line);
  return code;
}
