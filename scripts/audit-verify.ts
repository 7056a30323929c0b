// npm run audit:verify [-- <database>]: checks the tamper-evident audit chain of a Gatehouse history.
// Prints one line; exits 0 when the chain verifies, 1 when it is broken, 2 when it cannot be checked.
// Reads only: it never migrates the database or creates a key.
import { existsSync } from 'node:fs';
import { verifyChain } from '../src/main/core/store/audit-log';
import { openDatabase, type Db } from '../src/main/core/store/database';
import { DatabaseTooNewError } from '../src/main/core/store/errors';
import { SCHEMA_VERSION, schemaVersion } from '../src/main/core/store/migrations';
import { databasePath, resolveHome } from '../src/main/core/store/paths';
import { keyPathFor, loadKey } from '../src/main/core/store/signing';

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
  const path = process.argv[2] ?? databasePath(resolveHome(process.env));
  if (!existsSync(path)) {
    console.error(`audit: no history database at ${path} (set GATEHOUSE_HOME or pass the file)`);
    return 2;
  }
  const db = open(path);
  try {
    const version = schemaVersion(db);
    if (version > SCHEMA_VERSION) throw new DatabaseTooNewError(path, version, SCHEMA_VERSION);
    const key = loadKey(path, process.env.GATEHOUSE_AUDIT_KEY, false);
    const result = verifyChain(db, key);
    if (result.ok) {
      const from = result.checkpoint
        ? `, from the signed retention checkpoint at entry ${result.checkpoint.seq} (${result.checkpoint.prunedRows} entries pruned)`
        : '';
      console.log(`audit: OK, ${result.rows} entries verified in ${path}${from}`);
      return 0;
    }
    const request = result.requestId ? ` (request ${result.requestId})` : '';
    const keyNote = key ? '' : ` [no audit key at ${keyPathFor(path)}]`;
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
