import type { Handlers } from './dispatch';
import type { CommandServices } from './services';

/**
 * Which terminal CLIs run Gatehouse's hook: the settings files of the user who runs it, and every
 * file `gatehouse hook install` wrote, each with what the watch saw of it.
 */
export function hookHandlers(
  services: Pick<CommandServices, 'hooks'>,
): Pick<Handlers, 'listHookedClis'> {
  return { listHookedClis: () => services.hooks.rows() };
}
