// The desktop's export of the history: the native save dialog, then the store's reader thread writes
// the export straight to the file the person chose, so the text crosses neither to the main process
// nor over IPC. It is not a command of the contract: the HTTP surface streams a download instead.
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BrowserWindow, dialog, ipcMain } from 'electron';
import { z } from 'zod';
import {
  DESKTOP_SAVE_EXPORT_CHANNEL,
  HistoryExportInput,
  type HistoryExportOutcome,
  type Result,
} from '../../shared/contract';
import { exportFilename, exportHistoryTo, type CommandServices } from '../core';
import { senderAllowed, type IpcWindows } from './ipc-sender';

type Services = Pick<CommandServices, 'store' | 'now'>;

/**
 * Writes the export beside `chosen` under a fresh random name, then renames it over `chosen`: the
 * person confirmed replacing a file that is there, and a link there is replaced, never written
 * through. A failed export leaves the chosen file as it was.
 */
export async function saveExportAs(
  services: Services,
  input: HistoryExportInput,
  chosen: string,
): Promise<HistoryExportOutcome> {
  const partial = join(
    dirname(chosen),
    `.${basename(chosen)}.${randomBytes(8).toString('hex')}.part`,
  );
  try {
    const { rows, truncated } = await exportHistoryTo(services, input, partial);
    await rename(partial, chosen);
    return { filename: basename(chosen), rows, truncated };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** Opens the save dialog over the window that asked; the export saved, or null when cancelled. */
export function wireExportSave(
  services: Services,
  windows: IpcWindows,
  devServerUrl?: string,
): () => void {
  ipcMain.handle(
    DESKTOP_SAVE_EXPORT_CHANNEL,
    async (event, raw: unknown): Promise<Result<HistoryExportOutcome | null>> => {
      if (!senderAllowed(event, windows, devServerUrl)) {
        return {
          ok: false,
          error: { name: 'ForbiddenError', message: 'IPC from a frame outside Gatehouse' },
        };
      }
      const input = HistoryExportInput.safeParse(raw);
      if (!input.success) {
        return {
          ok: false,
          error: { name: 'ValidationError', message: z.prettifyError(input.error) },
        };
      }
      const options = {
        title: 'Export the history',
        defaultPath: exportFilename(input.data.format, services.now()),
      };
      const parent = BrowserWindow.fromWebContents(event.sender);
      const chosen = parent
        ? await dialog.showSaveDialog(parent, options)
        : await dialog.showSaveDialog(options);
      if (chosen.canceled || !chosen.filePath) return { ok: true, result: null };
      try {
        return { ok: true, result: await saveExportAs(services, input.data, chosen.filePath) };
      } catch (error) {
        return { ok: false, error: { name: 'ExportError', message: (error as Error).message } };
      }
    },
  );
  return () => ipcMain.removeHandler(DESKTOP_SAVE_EXPORT_CHANNEL);
}
