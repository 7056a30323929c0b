// npm run audit:verify [-- <database>]: checks the tamper-evident audit chain of a Gatehouse history.
// Prints one line; exits 0 when the chain verifies, 1 when it is broken, 2 when it cannot be checked.
// Reads only: it never migrates the database, creates a key or moves one. It finds the key as a
// headless Gatehouse does (src/main/core/store/audit-key.ts): GATEHOUSE_AUDIT_KEY, then
// GATEHOUSE_AUDIT_KEY_FILE, then the default file outside the data folder; never beside the database.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { verifyChain } from '../src/main/core/store/audit-log';
import { openDatabase, type Db } from '../src/main/core/store/database';
import { DatabaseTooNewError } from '../src/main/core/store/errors';
import { SCHEMA_VERSION, schemaVersion } from '../src/main/core/store/migrations';
import { findAuditKey, legacyKeyPath } from '../src/main/core/store/audit-key';
import { databasePath, resolveHome } from '../src/main/core/store/data-folder';

function open(path: string): Db {
  try {
    return openDatabase(path, { readonly: true });
  } catch {
    // A WAL database without its -shm file cannot be opened read-only; read-write opens it, and this
    // script still writes nothing.
    return openDatabase(path);
  }
}

function main(): number {
  const given = process.argv[2];
  const home = given ? dirname(given) : resolveHome(process.env);
  const path = given ?? databasePath(home);
  if (!existsSync(path)) {
    console.error(`audit: no history database at ${path} (set GATEHOUSE_HOME or pass the file)`);
    return 2;
  }
  const db = open(path);
  try {
    const version = schemaVersion(db);
    if (version > SCHEMA_VERSION) throw new DatabaseTooNewError(path, version, SCHEMA_VERSION);
    const found = findAuditKey({ home, dbPath: path });
    const key = found?.key ?? null;
    const result = verifyChain(db, key);
    if (result.ok) {
      const from = result.checkpoint
        ? `, from the signed retention checkpoint at entry ${result.checkpoint.seq} (${result.checkpoint.prunedRows} entries pruned)`
        : '';
      console.log(`audit: OK, ${result.rows} entries verified in ${path}${from}`);
      return 0;
    }
    const request = result.requestId ? ` (request ${result.requestId})` : '';
    const keyNote = found
      ? ''
      : existsSync(legacyKeyPath(path))
        ? ` [the audit key is still beside the database: start Gatehouse once to move it out]`
        : ' [no audit key found: set GATEHOUSE_AUDIT_KEY or GATEHOUSE_AUDIT_KEY_FILE]';
    console.log(
      `audit: BROKEN at entry ${result.firstBrokenSeq}${request}: ${result.reason}${keyNote}`,
    );
    return 1;
  } catch (err) {
    console.error(`audit: cannot verify ${path}: ${(err as Error).message}`);
    return 2;
  } finally {
    db.close();
  }
}

process.exitCode = main();
