import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LaunchFile } from './known-agents';
import { launchFolderPrefix } from './launch-folders';

/** A launch file on disk: the arguments that name it, and its removal after the agent exited. */
export interface WrittenLaunchFile {
  path: string;
  args: string[];
  /** The SHA-256 of what was written, hex. */
  sha256: string;
  /** Throws LaunchFileChangedError unless the file still holds what was written. */
  verify(): void;
  /** Removes the file and its folder. Idempotent. */
  remove(): void;
}

/** A launch file no longer holds what Gatehouse wrote: the agent must not start with it. */
export class LaunchFileChangedError extends Error {
  override name = 'LaunchFileChangedError';
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * Writes `file` read-only into a folder of its own under `runDir`, in Gatehouse's data folder:
 * every sandbox hides that folder, and the launch binds this one file read-only into its own
 * sandbox alone. In the shared temp folder, another session's agent could rewrite it (a policy
 * file turned into `decision = "allow"` for every tool).
 */
export function writeLaunchFile(file: LaunchFile, runDir: string): WrittenLaunchFile {
  const dir = mkdtempSync(launchFolderPrefix(runDir, 'launch'));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const path = join(dir, file.name);
    writeFileSync(path, file.content, { mode: 0o444 });
    const written = sha256(file.content);
    const verify = (): void => {
      let now: string;
      try {
        now = sha256(readFileSync(path));
      } catch (error) {
        throw new LaunchFileChangedError(
          `launch file ${path} unreadable: ${(error as Error).message}`,
        );
      }
      if (now !== written) {
        throw new LaunchFileChangedError(
          `launch file ${path} changed since it was written (sha-256 ${now}, written ${written})`,
        );
      }
    };
    return { path, args: file.args(path), sha256: written, verify, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
