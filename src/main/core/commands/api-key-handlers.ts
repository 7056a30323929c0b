// An API key entered in a session's sign-in, kept in the agent's `env` in settings.json. The value
// goes to the settings file and to the agent's next start, nowhere else: the audit says which
// variable of which agent was set and by whom, never what.
import { ForbiddenError, NotFoundError } from '../errors';
import { actorOf, auditAdmin } from './admin-audit';
import type { Handlers } from './dispatch';
import type { CommandServices, SettingsService } from './services';

export function apiKeyHandlers(
  services: SettingsService & Pick<CommandServices, 'store'>,
): Pick<Handlers, 'setAgentApiKey'> {
  const { settings, store } = services;
  return {
    setAgentApiKey: async ({ agentId, variable, value }, caller) => {
      const by = actorOf(caller);
      // Whoever holds only the token (the agent can read what the person can) keeps no key here.
      if (!caller.paired) {
        await auditAdmin(store, 'agent_api_key_refused', by, { variable }, { agentId });
        throw new ForbiddenError('only a paired client may set an API key');
      }
      const agent = settings.agents[agentId];
      if (!agent) throw new NotFoundError(`no agent "${agentId}" in settings`);
      const replaced = variable in agent.env;
      services.saveSettings((json) => {
        const agents = (json.agents ??= {}) as Record<string, Record<string, unknown>>;
        const entry = agents[agentId];
        if (!entry) return;
        const env = (entry.env ??= {}) as Record<string, unknown>;
        env[variable] = value;
      });
      agent.env[variable] = value;
      await auditAdmin(store, 'agent_api_key_set', by, { variable, replaced }, { agentId });
      return { agentId, variable, set: true as const };
    },
  };
}
