// `gatehouse audit verify [database]`: checks the tamper-evident audit chain of a Gatehouse history.
// Prints one line; exits 0 when the chain verifies, 1 when it is broken, 2 when it cannot be checked.
import { existsSync } from 'node:fs';
import {
  checkAudit,
  databasePath,
  dataFolderOf,
  formerDatabasePath,
  resolveHome,
} from '../main/core';
import type { CliIo } from './io';

export const AUDIT_VERIFY_HELP = `Usage: gatehouse audit verify [database]

Checks the hash chain of the audit in $GATEHOUSE_HOME/store/gatehouse.db (or the database
given) and the signature of its head, and names the first broken entry. Reads only; safe while
Gatehouse runs. The key is found as headless Gatehouse finds it: GATEHOUSE_AUDIT_KEY,
GATEHOUSE_AUDIT_KEY_FILE, then the per-user state folder.

Exit status: 0 the chain verifies, 1 it is broken, 2 it cannot be checked.`;

export function auditVerify(given: string | undefined, io: CliIo): number {
  const home = given ? dataFolderOf(given) : resolveHome(io.env);
  // A data folder of an older layout that no Gatehouse has started on since: read where it is.
  const path =
    given ??
    (!existsSync(databasePath(home)) && existsSync(formerDatabasePath(home))
      ? formerDatabasePath(home)
      : databasePath(home));
  const { code, line } = checkAudit(path, home, io.env);
  if (code === 2) io.err(line);
  else io.out(line);
  return code;
}
