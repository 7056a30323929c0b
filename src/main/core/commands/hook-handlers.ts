import { homedir } from 'node:os';
import { hookedClis, installedGatehouse } from '../agents/hooked-clis';
import type { Handlers } from './dispatch';

/** Which terminal CLIs run Gatehouse's hook, read from the settings files of the user who runs it. */
export function hookHandlers(): Pick<Handlers, 'listHookedClis'> {
  return {
    listHookedClis: () => hookedClis(process.env['HOME'] || homedir(), installedGatehouse()),
  };
}
