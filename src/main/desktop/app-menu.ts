// The application menu: the platform's standard menus, and Help with what a person needs when
// something goes wrong (the support bundle, the log folder). Thin: the bundle is the core's.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { app, dialog, Menu, shell, type MenuItemConstructorOptions } from 'electron';
import { type Core, makeSupportBundle, logFilePath } from '../core';

export const SAVE_BUNDLE_ID = 'save-support-bundle';

export function installAppMenu(core: Core, log: (message: string, error?: unknown) => void): void {
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      {
        id: SAVE_BUNDLE_ID,
        label: 'Save Support Bundle…',
        click: () => void saveSupportBundle(core).catch((e: unknown) => log('support bundle', e)),
      },
      {
        label: 'Open Log Folder',
        click: () => void shell.openPath(dirname(logFilePath(core.home))),
      },
    ],
  };
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    help,
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

async function saveSupportBundle(core: Core): Promise<void> {
  const { filename, zip } = await makeSupportBundle(core);
  const chosen = await dialog.showSaveDialog({
    title: 'Save support bundle',
    defaultPath: join(app.getPath('downloads'), filename),
    filters: [{ name: 'Zip archive', extensions: ['zip'] }],
  });
  if (chosen.canceled || !chosen.filePath) return;
  // The person chose this path in the save dialog, which already asked before replacing a file.
  writeFileSync(chosen.filePath, zip, { mode: 0o600 });
}
