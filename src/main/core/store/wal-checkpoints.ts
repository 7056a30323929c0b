// Copying the WAL back into the database file, beside the writer instead of inside its commits. A
// checkpoint in a commit held the writer for a third of its time at full load; on a connection of
// its own, on the reader's thread, it runs while the writer goes on appending (PASSIVE: it copies
// what no reader still needs and never waits for a lock). The writer then restarts the WAL from its
// start at its next commit, and runs a checkpoint itself only if this one falls far behind
// (database.ts, WAL_BACKSTOP_PAGES).
import { openDatabase, type Db } from './database';

/** How often the WAL is copied back; a pass with nothing new is a read of the WAL's header. */
export const WAL_CHECKPOINT_INTERVAL_MS = 250;

export interface WalCheckpointStats {
  checkpoints: number;
  frames: number;
}

export interface WalCheckpoints {
  /** Passes that copied frames, and the frames copied. */
  stats(): WalCheckpointStats;
  close(): void;
}

export function walCheckpoints(
  path: string,
  report: (error: Error) => void,
  intervalMs = WAL_CHECKPOINT_INTERVAL_MS,
): WalCheckpoints {
  // Its own connection: the reader's is read-only, and a checkpoint writes the database file.
  const db: Db = openDatabase(path, { busyTimeoutMs: 0 });
  let checkpoints = 0;
  let frames = 0;
  let copied = 0;
  const pass = () => {
    try {
      const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
      // `checkpointed` counts every frame of this WAL copied so far; a restarted WAL counts anew.
      const done = row?.checkpointed ?? 0;
      const fresh = done >= copied ? done - copied : done;
      copied = done;
      if (fresh > 0) {
        checkpoints++;
        frames += fresh;
      }
    } catch (error) {
      report(error as Error);
    }
  };
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  return {
    stats: () => ({ checkpoints, frames }),
    close() {
      clearInterval(timer);
      db.close();
    },
  };
}
