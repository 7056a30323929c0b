// The chain check for a running core: a million entries take seconds to hash, and the thread that
// runs it also answers agents, windows and notifications. It reads through a connection of its own,
// in one read transaction (a snapshot: commits made meanwhile are neither seen nor blocked), and
// lets the event loop run between chunks of entries.
import { setImmediate } from 'node:timers/promises';
import { verifyChain, verifySteps, VERIFY_CHUNK, type VerifyResult } from './audit-log';
import { openDatabase, type Db } from './database';

export async function verifyInBackground(
  path: string,
  key: Buffer | null,
  /** The store's own connection: an in-memory database has no file another connection could open. */
  own: Db,
  chunk = VERIFY_CHUNK,
): Promise<VerifyResult> {
  if (path === ':memory:') return verifyChain(own, key);
  const db = openDatabase(path, { readonly: true });
  try {
    db.exec('BEGIN');
    try {
      const steps = verifySteps(db, key, chunk);
      for (;;) {
        const step = steps.next();
        if (step.done) return step.value;
        await setImmediate();
      }
    } finally {
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
}
