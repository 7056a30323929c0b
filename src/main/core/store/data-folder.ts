// The data folder (settings, the database) and the database file in it. GATEHOUSE_HOME overrides the
// OS default. The audit key is kept elsewhere (audit-key.ts).
import { homedir } from 'node:os';
import { join } from 'node:path';

export const DATABASE_FILE = 'gatehouse.db';

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
  return join(homeDir, DATABASE_FILE);
}
