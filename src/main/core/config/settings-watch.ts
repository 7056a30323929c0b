// settings.json changed while Gatehouse runs (by hand, by another program): read again once the
// writes settle. The folder is watched, not the file: editors and Gatehouse itself replace the file
// by rename, which a watch on the file would not follow.
import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Settings } from '../../../shared/settings';
import { logger } from '../log/logger';
import { parseSettings, SettingsError, settingsPath } from './settings-file';

const log = logger('settings-watch');

/** Editors write in steps (truncate, write, rename): one read once the folder is quiet this long. */
export const SETTINGS_SETTLE_MS = 150;

export type SettingsFileRead =
  { ok: true; settings: Settings } | { ok: false; file: string; problems: string[] };

/** settings.json as it is now: its settings, or every problem that keeps it from being used. */
export function readSettingsFile(home: string): SettingsFileRead {
  const file = settingsPath(home);
  if (!existsSync(file)) return { ok: false, file, problems: ['the file is missing'] };
  try {
    return { ok: true, settings: parseSettings(readFileSync(file, 'utf8'), file) };
  } catch (error) {
    if (error instanceof SettingsError) return { ok: false, file, problems: error.problems };
    return { ok: false, file, problems: [`unreadable: ${(error as Error).message}`] };
  }
}

export interface SettingsWatch {
  close(): void;
}

export function watchSettingsFile(options: {
  home: string;
  /** Called one read at a time, in order. */
  onRead: (read: SettingsFileRead) => void | Promise<void>;
  settleMs?: number;
}): SettingsWatch {
  const file = settingsPath(options.home);
  const name = basename(file);
  const settleMs = options.settleMs ?? SETTINGS_SETTLE_MS;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let reading: Promise<void> = Promise.resolve();
  const read = () => {
    timer = null;
    reading = reading
      .then(() => (closed ? undefined : options.onRead(readSettingsFile(options.home))))
      .catch((error: unknown) =>
        log.error('settings.json was read again, and applying it failed:', error),
      );
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (changed !== null && String(changed) !== name) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(read, settleMs);
    });
    watcher.on('error', (error) => log.warn('settings.json is no longer watched:', error));
  } catch (error) {
    log.warn('settings.json cannot be watched; changes to it apply at the next start:', error);
  }
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
  };
}
