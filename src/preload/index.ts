// The bridge between a sandboxed window and the core: named methods only, one per command of the
// contract, plus the event feed. Nothing of ipcRenderer itself reaches the page, and the page can
// only pass data (the main process validates every input against the contract).
import { contextBridge, ipcRenderer } from 'electron';
import {
  commandNames,
  DESKTOP_CHOOSE_FOLDER_CHANNEL,
  DESKTOP_SAVE_EXPORT_CHANNEL,
  DESKTOP_OPEN_QUESTION_LINK_CHANNEL,
  IPC_EVENT_CHANNEL,
  ipcChannel,
  type GatehouseBridge,
  type GatehouseEvent,
} from '../shared/contract';

const methods = Object.fromEntries(
  commandNames.map((name) => [
    name,
    (input: unknown) => ipcRenderer.invoke(ipcChannel(name), input),
  ]),
);

const bridge = {
  ...methods,
  chooseFolder: () => ipcRenderer.invoke(DESKTOP_CHOOSE_FOLDER_CHANNEL),
  saveHistoryExport: (input: unknown) => ipcRenderer.invoke(DESKTOP_SAVE_EXPORT_CHANNEL, input),
  openQuestionLink: (requestId: unknown) =>
    ipcRenderer.invoke(DESKTOP_OPEN_QUESTION_LINK_CHANNEL, requestId),
  onEvent(listener: (event: GatehouseEvent) => void) {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a function');
    const wrapped = (_event: Electron.IpcRendererEvent, payload: GatehouseEvent) =>
      listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, wrapped);
    };
  },
} as GatehouseBridge;

contextBridge.exposeInMainWorld('gatehouse', Object.freeze(bridge));
