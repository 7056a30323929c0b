import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LaunchFile } from './known-agents';

/** A launch file on disk: the arguments that name it, and its removal after the agent exited. */
export interface WrittenLaunchFile {
  path: string;
  args: string[];
  /** Removes the file and its folder. Idempotent. */
  remove(): void;
}

/**
 * Writes `file` read-only into a folder of its own under `tmpDir`. Not in Gatehouse's data folder:
 * the sandbox hides that from the agent, while the temp folder stays readable (and writable) inside.
 * An agent that rewrote the file gains nothing: it only tells the agent to ask its client, and an
 * agent able to change it could as well not ask; Gatehouse's guarantees never rest on the agent's
 * cooperation (the sandbox, the client side and the audit do not).
 */
export function writeLaunchFile(file: LaunchFile, tmpDir: string): WrittenLaunchFile {
  const dir = mkdtempSync(join(tmpDir, 'gatehouse-launch-'));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const path = join(dir, file.name);
    writeFileSync(path, file.content, { mode: 0o444 });
    return { path, args: file.args(path), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
