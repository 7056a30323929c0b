import { agentsOnPath, installRoot } from '../agents/agents-on-path';
import {
  loadRegistrySnapshot,
  registryListing,
  RegistryFileError,
} from '../agents/registry-snapshot';
import type { Handlers } from './dispatch';
import type { SettingsService } from './services';

/**
 * Agents to add: the ACP Registry snapshot's, and the known ones installed on this machine. Adding
 * one goes through updateSettings (and its confirmation, as any new command does).
 */
export function registryHandlers(
  services: Pick<SettingsService, 'home' | 'settings'>,
): Pick<Handlers, 'listRegistryAgents' | 'agentsOnPath'> {
  return {
    agentsOnPath: () =>
      agentsOnPath(
        process.env['PATH'] ?? '',
        new Set(Object.keys(services.settings.agents)),
        installRoot(),
      ),
    listRegistryAgents: () => {
      try {
        const registry = loadRegistrySnapshot(services.home);
        return {
          agents: registryListing(registry),
          problem: registry
            ? null
            : 'No ACP Registry snapshot yet: run gatehouse agents import-registry <file>.',
        };
      } catch (error) {
        if (!(error instanceof RegistryFileError)) throw error;
        return { agents: [], problem: error.message };
      }
    },
  };
}
