import { homedir } from 'node:os';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import { newAllowAny } from '../rules';
import { allowTarget, TargetRefused } from '../sandbox/allow-target';
import { actorOf } from './admin-audit';
import { refuseManaged } from './managed-refusal';
import type { Handlers } from './dispatch';
import { asBadRequest, type ChangeServices, type SettingsChanger } from './settings-change';
import { refuseRemoteExposure } from './server-exposure';

type SettingsCommands =
  | 'getSettings'
  | 'updateSettings'
  | 'confirmSettingsChange'
  | 'listAgents'
  | 'setAgentBypass'
  | 'allowSandboxTarget';

/**
 * The settings and the agents they declare. A change that decides what an agent runs or reaches,
 * sent over HTTP, waits for a person's confirmation where Gatehouse runs.
 */
export function settingsHandlers(
  services: ChangeServices,
  changer: SettingsChanger,
): Pick<Handlers, SettingsCommands> {
  const { settings, home, store, pipeline } = services;
  const { agentInfo, audit, current, applySettings, confirmations } = changer;

  return {
    getSettings: current,

    updateSettings: async (input, caller) => {
      // A remote caller may not choose the program Gatehouse spawns, nor loosen an agent's
      // sandbox: a person confirms it locally.
      const by = actorOf(caller);
      // An allow rule that matches any request is confirmed in the rule editor, as Bypass is: a
      // whole settings file is no way around it.
      const allowAny = newAllowAny(services.savedSettings().rules, input.settings.rules);
      if (allowAny.length > 0) {
        await audit('settings_change_refused', by, {
          reason: 'an allow rule that matches any request, unconfirmed',
          rules: allowAny,
        });
        throw new ForbiddenError(
          `${allowAny.map((r) => `rule "${r.ruleId}" allows ${r.reach}`).join('; ')}: save it as a rule, confirmed (saveRule with confirmAllowAny)`,
        );
      }
      await refuseRemoteExposure(store, services.savedSettings(), input.settings, caller);
      const done = await changer.change(input.settings, by);
      return 'applied' in done ? done.applied : { ...current(), confirmation: done.confirmation };
    },

    confirmSettingsChange: (input, caller) =>
      confirmations.confirm(input.id, input.code, actorOf(caller)),

    listAgents: () => Object.keys(settings.agents).map(agentInfo),

    setAgentBypass: async (input, caller) => {
      const agent = settings.agents[input.agentId];
      if (!agent) throw new NotFoundError(`no agent "${input.agentId}" in settings`);
      const { managed } = services;
      if (input.enabled && managed?.settings.allowBypass === false) {
        await refuseManaged(
          store,
          managed,
          caller,
          'Bypass is not allowed',
          {},
          {
            agentId: input.agentId,
          },
        );
      }
      const before = agent.bypassPermissions;
      services.saveSettings((json) => {
        const agents = (json.agents ??= {}) as Record<string, Record<string, unknown>>;
        const entry = agents[input.agentId];
        if (entry) entry.bypassPermissions = input.enabled;
      });
      agent.bypassPermissions = input.enabled;
      await audit(
        'bypass_changed',
        actorOf(caller),
        { agentId: input.agentId, before, after: input.enabled },
        input.agentId,
      );
      pipeline.rejudgePending();
      services.bus.publish({ type: 'settings_changed', from: 'command' });
      return agentInfo(input.agentId);
    },

    allowSandboxTarget: async (input, caller) => {
      const by = actorOf(caller);
      const saved = services.savedSettings();
      const agent = saved.agents[input.agentId];
      if (!agent) throw new NotFoundError(`no agent "${input.agentId}" in settings`);
      let allowed;
      try {
        allowed = allowTarget(agent, input, {
          gatehouseHome: home,
          homes: [homedir(), ...(agent.env['HOME'] ? [agent.env['HOME']] : [])],
        });
      } catch (error) {
        if (!(error instanceof TargetRefused)) throw error;
        await audit(
          'sandbox_allow_refused',
          by,
          { kind: input.kind, target: input.target, reason: error.message },
          input.agentId,
        );
        throw new BadRequestError(error.message);
      }
      const next = { ...saved, agents: { ...saved.agents, [input.agentId]: allowed.agent } };
      const result = { agentId: input.agentId, entry: allowed.entry };
      // Over HTTP it widens what an agent may do: whoever holds the token may be that agent.
      if (caller.transport === 'http') {
        asBadRequest(() => services.checkSettings(next));
        const what = {
          write: `write in ${allowed.entry}`,
          connect: `connect to ${allowed.entry}`,
          socket: `use the local socket ${allowed.entry}`,
        }[input.kind];
        const confirmation = await confirmations.request(next, [input.agentId], by, {
          [input.agentId]: [what],
        });
        return { ...result, confirmation };
      }
      await applySettings(next, by);
      return result;
    },
  };
}
