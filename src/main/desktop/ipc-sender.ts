// Who may call the desktop's IPC handlers: the frame check every handler makes first.
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { ipcSenderAllowed } from './security-policy';

export interface IpcWindows {
  /** Whether these web contents belong to a window Gatehouse created. */
  owns(contents: WebContents): boolean;
  /** Web contents that receive core events. */
  contents(): WebContents[];
}

/** Frame check of every IPC call: Gatehouse's own window, its top frame, its own UI's URL. */
export function senderAllowed(
  event: IpcMainInvokeEvent,
  windows: IpcWindows,
  devServerUrl?: string,
): boolean {
  const frame = event.senderFrame;
  return ipcSenderAllowed(
    {
      frameUrl: frame?.url ?? null,
      isMainFrame: !!frame && frame.parent === null,
      knownWindow: windows.owns(event.sender),
    },
    devServerUrl,
  );
}
