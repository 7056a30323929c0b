// Start at login. macOS and Windows: Electron's login items. Linux has no such API in Electron: an
// XDG autostart entry (~/.config/autostart/gatehouse.desktop) does it. No Electron here.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Launched at login: start in the tray, without a window. */
export const HIDDEN_ARG = '--hidden';

export function autostartFile(
  env: Record<string, string | undefined> = process.env,
  home: string = homedir(),
): string {
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'autostart', 'gatehouse.desktop');
}

/** Desktop Entry quoting of one argument of Exec (spec: "Exec key"). */
function execQuote(arg: string): string {
  if (!/[\s"'\\$`<>~|&;*?#()]/.test(arg)) return arg.replace(/%/g, '%%');
  return `"${arg.replace(/[\\"`$]/g, (c) => `\\${c}`).replace(/%/g, '%%')}"`;
}

export function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Gatehouse',
    'Comment=Approvals for coding agents',
    `Exec=${execQuote(executable)} ${HIDDEN_ARG}`,
    'Icon=gatehouse',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Writes or removes the Linux autostart entry; returns whether it exists afterwards. */
export function setLinuxAutostart(
  enabled: boolean,
  executable: string,
  file = autostartFile(),
): boolean {
  if (enabled) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, autostartEntry(executable));
  } else if (existsSync(file)) {
    rmSync(file);
  }
  return existsSync(file);
}
