import { agentHandlers } from './agent-handlers';
import { apiKeyHandlers } from './api-key-handlers';
import { approvalHandlers } from './approval-handlers';
import { clientHandlers } from './client-handlers';
import type { Handlers } from './dispatch';
import { grantHandlers } from './grant-handlers';
import { healthAnswer } from './health';
import { historyHandlers } from './history-handlers';
import { hookHandlers } from './hook-handlers';
import { questionHandlers } from './question-handlers';
import { registryHandlers } from './registry-handlers';
import { ruleHandlers } from './rule-handlers';
import type { CommandServices } from './services';
import { sessionHandlers } from './session-handlers';
import { settingsChanger } from './settings-change';
import { settingsHandlers } from './settings-handlers';
import { supportHandlers } from './support-handlers';

/** Every command of the contract, implemented once over the core's services. */
export function createHandlers(services: CommandServices): Handlers {
  // One changer: one settings change waits for a local confirmation at a time, whichever command.
  const changer = settingsChanger(services);
  return {
    health: () =>
      healthAnswer(services.policy.policy, services.pipeline.pending.size, services.starting()),
    ...clientHandlers(services),
    ...settingsHandlers(services, changer),
    ...agentHandlers(services, changer),
    ...apiKeyHandlers(services),
    ...registryHandlers(services),
    ...sessionHandlers(services),
    ...approvalHandlers(services),
    ...questionHandlers(services),
    ...historyHandlers(services),
    ...grantHandlers(services),
    ...ruleHandlers(services),
    ...hookHandlers(services),
    ...supportHandlers(services),
  };
}
