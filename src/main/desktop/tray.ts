// Renders a TrayModel (computed in src/main/presence): icon variant, count, tooltip, menu. No
// decision is made here — menu clicks hand the model's action back to the app.
import { join } from 'node:path';
import {
  app,
  Menu,
  nativeImage,
  Tray,
  type BrowserWindow,
  type MenuItemConstructorOptions,
  type NativeImage,
} from 'electron';
import type { TrayAction, TrayMenuItem, TrayModel } from '../presence';

export interface TrayControllerOptions {
  /** The resources/ folder (icons). */
  resources: string;
  perform(action: TrayAction): void;
  /** A click on the icon itself (Windows, Linux): open the dialog. */
  onClick(): void;
}

/** Menu labels: `&` marks a mnemonic on Windows and Linux, so a literal one is doubled. */
export const menuLabel = (label: string) => label.replace(/&/g, '&&');

export function menuTemplate(
  items: readonly TrayMenuItem[],
  perform: (action: TrayAction) => void,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.type) {
      case 'separator':
        return { type: 'separator' };
      case 'label':
        return { label: menuLabel(item.label), enabled: false };
      case 'action':
        return {
          label: menuLabel(item.label),
          enabled: item.enabled ?? true,
          click: () => perform(item.action),
        };
      case 'checkbox':
        return {
          label: menuLabel(item.label),
          type: 'checkbox',
          checked: item.checked,
          click: () => perform(item.action),
        };
      case 'submenu':
        return { label: menuLabel(item.label), submenu: menuTemplate(item.items, perform) };
    }
  });
}

export class TrayController {
  private readonly tray: Tray;
  private readonly icons: { idle: NativeImage; pending: NativeImage; overlay: NativeImage };
  private last: TrayModel | null = null;

  constructor(private readonly options: TrayControllerOptions) {
    const icon = (name: string) => nativeImage.createFromPath(join(options.resources, name));
    const mac = process.platform === 'darwin';
    // macOS: one template image (it follows the menu bar's light/dark), the count as the title.
    this.icons = {
      idle: icon(mac ? 'trayTemplate.png' : 'tray.png'),
      pending: icon(mac ? 'trayTemplate.png' : 'tray-pending.png'),
      overlay: icon('overlay-badge.png'),
    };
    this.tray = new Tray(this.icons.idle);
    if (!mac) this.tray.on('click', () => options.onClick());
  }

  get model(): TrayModel | null {
    return this.last;
  }

  render(model: TrayModel, windows: readonly BrowserWindow[]): void {
    if (this.tray.isDestroyed()) return;
    const changedIcon = this.last?.icon !== model.icon;
    this.last = model;
    if (changedIcon) this.tray.setImage(this.icons[model.icon]);
    if (process.platform === 'darwin') this.tray.setTitle(model.title);
    this.tray.setToolTip(model.tooltip);
    this.tray.setContextMenu(
      Menu.buildFromTemplate(menuTemplate(model.menu, this.options.perform)),
    );
    if (process.platform === 'win32') {
      const description = model.count > 0 ? `${model.count} pending` : '';
      for (const win of windows)
        win.setOverlayIcon(model.count > 0 ? this.icons.overlay : null, description);
    } else {
      // Dock badge on macOS; the launcher badge where a Linux desktop supports it (Unity API).
      app.setBadgeCount(model.count);
    }
  }

  destroy(): void {
    if (!this.tray.isDestroyed()) this.tray.destroy();
  }
}
