// The data folder (settings, the database) and the database file in it. GATEHOUSE_HOME overrides the
// OS default. The audit key is kept elsewhere (audit-key.ts).
//
// The database lives in a folder of its own: the data folder is watched (settings.json, the record
// of hook installs), and a watch on a folder is woken by every write in it. With the database
// beside them, each commit woke the core's thread a few dozen times, for nothing.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

export const DATABASE_FILE = 'gatehouse.db';
export const DATABASE_FOLDER = 'store';

type Env = Record<string, string | undefined>;

/** The OS app-data folder for Gatehouse, computed from an environment (testable without touching process.env). */
export function defaultHome(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'win32') {
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Gatehouse');
  }
  if (platform === 'darwin') {
    return join(home, 'Library', 'Application Support', 'Gatehouse');
  }
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Gatehouse');
}

/** GATEHOUSE_HOME when set (and not blank), otherwise the OS default. */
export function resolveHome(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const explicit = env.GATEHOUSE_HOME?.trim();
  return explicit ? explicit : defaultHome(env, platform, home);
}

export function databasePath(homeDir: string): string {
  return join(homeDir, DATABASE_FOLDER, DATABASE_FILE);
}

/** The data folder a database file given by path belongs to (either layout). */
export function dataFolderOf(dbPath: string): string {
  const folder = dirname(dbPath);
  return basename(folder) === DATABASE_FOLDER ? dirname(folder) : folder;
}

/** Where older versions kept the database: in the data folder itself. */
export function formerDatabasePath(homeDir: string): string {
  return join(homeDir, DATABASE_FILE);
}

/**
 * The database's path, once a database older versions kept in the data folder itself has moved
 * into its folder, with its WAL, its shared memory and an audit key kept beside it. Call it before
 * anything opens the database, with the data folder's lock held. The database file moves last, so
 * a start cut short in the middle finishes the move at the next one, and no commit in the WAL is
 * left behind. Two databases, one in each place, are refused: neither may silently win.
 */
export function placeDatabase(homeDir: string): string {
  const path = databasePath(homeDir);
  const former = formerDatabasePath(homeDir);
  if (!existsSync(former)) return path;
  const moving = ['-wal', '-shm', '.audit-key', ''].filter((suffix) => existsSync(former + suffix));
  // A file of the family in both places: something opened the former one after a move began.
  const both = moving.find((suffix) => existsSync(path + suffix));
  if (both !== undefined) {
    throw new Error(
      `two history databases: ${former + both} (older versions) and ${path + both}; move one of them away`,
    );
  }
  mkdirSync(join(homeDir, DATABASE_FOLDER), { recursive: true, mode: 0o700 });
  for (const suffix of moving) renameSync(former + suffix, path + suffix);
  return path;
}
