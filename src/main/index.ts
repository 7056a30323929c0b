// Desktop entry: the core with its Electron adapters (windows, IPC, tray, notifications).
import { startDesktop } from './desktop/app';

startDesktop();
