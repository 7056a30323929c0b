// An export written to a file by the store thread that reads it, so its text never crosses to the
// core's thread. The file is created exclusively (never through a link, never over a file that is
// there), readable by its owner only; a failed export leaves nothing behind.
import { open, rm } from 'node:fs/promises';
import { setImmediate as turn } from 'node:timers/promises';
import type { ExportChunk } from './export';

export interface ExportWritten {
  rows: number;
  /** The filter matched more rows than the export holds. */
  truncated: boolean;
}

/**
 * Writes `chunks` to a new file at `path`, one page per turn of the thread's event loop, so the
 * thread answers other reads between pages.
 */
export async function writeExportFile(
  chunks: Generator<ExportChunk, boolean, undefined>,
  path: string,
): Promise<ExportWritten> {
  // 'wx' is O_CREAT | O_EXCL: an existing name, a planted symlink included, fails with EEXIST.
  const file = await open(path, 'wx', 0o600);
  let rows = 0;
  try {
    for (;;) {
      const step = chunks.next();
      if (step.done) {
        await file.close();
        return { rows, truncated: step.value };
      }
      await file.writeFile(step.value.text);
      rows += step.value.rows;
      await turn();
    }
  } catch (error) {
    chunks.return(false);
    await file.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}
