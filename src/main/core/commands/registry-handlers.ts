import { loadRegistrySnapshot, registryListing, RegistryFileError } from '../agents/registry-snapshot';
import type { Handlers } from './dispatch';
import type { SettingsService } from './services';

/** The ACP Registry snapshot as the settings view lists it; adding one goes through updateSettings. */
export function registryHandlers(services: Pick<SettingsService, 'home'>): Pick<Handlers, 'listRegistryAgents'> {
  return {
    listRegistryAgents: () => {
      try {
        const registry = loadRegistrySnapshot(services.home);
        return {
          agents: registryListing(registry),
          problem: registry ? null : 'No ACP Registry snapshot yet: run gatehouse agents import-registry <file>.',
        };
      } catch (error) {
        if (!(error instanceof RegistryFileError)) throw error;
        return { agents: [], problem: error.message };
      }
    },
  };
}
