import { ipcMain } from 'electron';
import { commandNames, IPC_EVENT_CHANNEL, ipcChannel, type Result } from '../../shared/contract';
import { type Caller, dispatch, type Core } from '../core';
import { DESKTOP_CLIENT_ID, ensureDesktopClient } from '../presence';
import { wireExportSave } from './export-save';
import { wireFolderPicker } from './folder-picker';
import { wireQuestionLink } from './question-link';
import { senderAllowed, type IpcWindows } from './ipc-sender';
import { isAppUrl } from './security-policy';

export { DESKTOP_CLIENT_ID };

/**
 * One ipcMain handler per command of the contract, the desktop's folder picker and its export's save
 * dialog. Each checks the sender frame before the core
 * sees the call; results cross as {ok, result} / {ok: false, error}. Returns an unwire function.
 */
export function wireIpc(core: Core, windows: IpcWindows, devServerUrl?: string): () => void {
  ensureDesktopClient(core.clients);
  const caller: Caller = {
    clientId: DESKTOP_CLIENT_ID,
    identityProven: true,
    paired: true,
    fromLoopback: true,
    surface: 'dialog',
    transport: 'ipc',
  };
  for (const name of commandNames) {
    ipcMain.handle(ipcChannel(name), async (event, input): Promise<Result<unknown>> => {
      if (!senderAllowed(event, windows, devServerUrl)) {
        return {
          ok: false,
          error: { name: 'ForbiddenError', message: 'IPC from a frame outside Gatehouse' },
        };
      }
      const result = await dispatch(core.handlers, name, input, caller);
      return result.ok ? { ok: true, result: result.result } : { ok: false, error: result.error };
    });
  }
  const unsubscribe = core.bus.subscribe((event) => {
    for (const contents of windows.contents()) {
      if (!contents.isDestroyed() && isAppUrl(contents.getURL(), devServerUrl))
        contents.send(IPC_EVENT_CHANNEL, event);
    }
  });
  const unwirePicker = wireFolderPicker(windows, devServerUrl);
  const unwireExport = wireExportSave(core, windows, devServerUrl);
  const unwireLink = wireQuestionLink(core, windows, devServerUrl);
  return () => {
    unsubscribe();
    unwirePicker();
    unwireExport();
    unwireLink();
    for (const name of commandNames) ipcMain.removeHandler(ipcChannel(name));
  };
}
