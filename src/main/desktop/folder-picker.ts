// The desktop's native folder picker for the start form. It is not a command of the contract: the
// HTTP surface has no dialog to open, and a folder chosen here is only typed into the form, where
// createSession checks it like any other.
import { BrowserWindow, dialog, ipcMain } from 'electron';
import { DESKTOP_CHOOSE_FOLDER_CHANNEL, type Result } from '../../shared/contract';
import { senderAllowed, type IpcWindows } from './ipc-sender';

/** Opens the picker over the window that asked; the chosen folder, or null when cancelled. */
export function wireFolderPicker(windows: IpcWindows, devServerUrl?: string): () => void {
  ipcMain.handle(DESKTOP_CHOOSE_FOLDER_CHANNEL, async (event): Promise<Result<string | null>> => {
    if (!senderAllowed(event, windows, devServerUrl)) {
      return {
        ok: false,
        error: { name: 'ForbiddenError', message: 'IPC from a frame outside Gatehouse' },
      };
    }
    const options = { title: 'Folder for the session', properties: ['openDirectory' as const] };
    const parent = BrowserWindow.fromWebContents(event.sender);
    const chosen = parent
      ? await dialog.showOpenDialog(parent, options)
      : await dialog.showOpenDialog(options);
    return { ok: true, result: chosen.canceled ? null : (chosen.filePaths[0] ?? null) };
  });
  return () => ipcMain.removeHandler(DESKTOP_CHOOSE_FOLDER_CHANNEL);
}
