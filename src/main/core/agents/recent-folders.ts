// The folders sessions were last started in, most recent first, kept in the data folder
// (recent-folders.json) so every window and every paired device offers the same ones. Only a folder
// a session actually opened in joins the list; the file is read as untrusted and a bad one is
// ignored (the list starts again).
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { logger } from '../log/logger';

const log = logger('recent-folders');

export const MAX_RECENT_FOLDERS = 10;
const FILE = 'recent-folders.json';
const Stored = z.object({
  folders: z.array(z.string().max(4096).refine(isAbsolute)).max(MAX_RECENT_FOLDERS),
});

export class RecentFolders {
  private folders: string[] | null = null;
  /** Writes one after another, so the file always holds the latest list. */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly home: string) {}

  /** The folders, most recent first; those no longer there are left out (not forgotten). */
  async list(): Promise<string[]> {
    const folders = await this.load();
    const there = await Promise.all(
      folders.map((f) =>
        stat(f).then(
          (s) => s.isDirectory(),
          () => false,
        ),
      ),
    );
    return folders.filter((_, i) => there[i]);
  }

  /** A session opened in `folder` (its real path): it moves to the front. */
  async used(folder: string): Promise<void> {
    const folders = await this.load();
    this.folders = [folder, ...folders.filter((f) => f !== folder)].slice(0, MAX_RECENT_FOLDERS);
    const text = `${JSON.stringify({ folders: this.folders }, null, 2)}\n`;
    const file = join(this.home, FILE);
    this.writing = this.writing
      .then(async () => {
        await writeFile(`${file}.tmp`, text, { mode: 0o600 });
        await rename(`${file}.tmp`, file);
      })
      // A list that could not be saved is only less helpful next time.
      .catch((error: Error) => log.warn('could not save the recent folders:', error.message));
    await this.writing;
  }

  private async load(): Promise<string[]> {
    if (this.folders) return this.folders;
    const text = await readFile(join(this.home, FILE), 'utf8').catch(() => null);
    this.folders ??= parseStored(text);
    return this.folders;
  }
}

function parseStored(text: string | null): string[] {
  if (text === null || text.length > 64 * 1024) return [];
  try {
    const parsed = Stored.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.folders : [];
  } catch {
    return [];
  }
}
