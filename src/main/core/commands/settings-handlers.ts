import { homedir } from 'node:os';
import type { AgentInfo } from '../../../shared/domain';
import type { Settings } from '../../../shared/settings';
import {
  settingsChanges,
  launchChangedAgents,
  sandboxWidenedAgents,
} from '../config/settings-diff';
import { managedView } from '../config/managed-settings';
import { settingsPath, SettingsError } from '../config/settings-file';
import { BadRequestError, NotFoundError } from '../errors';
import { logger } from '../log/logger';
import { InvalidPolicyConfigError } from '../mediator';
import { allowTarget, TargetRefused } from '../sandbox/allow-target';
import { shownLaunch } from '../agents/registry-launch';
import { actorOf, auditAdmin, type Actor } from './admin-audit';
import { refuseManaged } from './managed-refusal';
import type { Handlers } from './dispatch';
import type { CommandServices, SettingsService } from './services';
import { refuseRemoteExposure } from './server-exposure';
import { SettingsConfirmations } from './settings-confirmation';

const log = logger('settings');

type SettingsCommands =
  | 'getSettings'
  | 'updateSettings'
  | 'confirmSettingsChange'
  | 'listAgents'
  | 'setAgentBypass'
  | 'allowSandboxTarget';

/** Settings a person could not have meant (they fail validation) are the caller's mistake. */
function asBadRequest<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof SettingsError || error instanceof InvalidPolicyConfigError) {
      throw new BadRequestError(error.message);
    }
    throw error;
  }
}

/**
 * The settings and the agents they declare. A change that decides what an agent runs or reaches,
 * sent over HTTP, waits for a person's confirmation where Gatehouse runs.
 */
export function settingsHandlers(
  services: SettingsService &
    Pick<CommandServices, 'store' | 'pipeline' | 'confirmLocally' | 'now'>,
): Pick<Handlers, SettingsCommands> {
  const { settings, home, store, pipeline } = services;
  const agentInfo = (id: string): AgentInfo => {
    const a = settings.agents[id]!;
    return {
      id,
      ...shownLaunch(id, a, home),
      cwd: a.cwd ?? null,
      mode: a.bypassPermissions ? 'bypassPermissions' : a.mode,
      policy: a.policy ?? services.policy.policy,
    };
  };
  const audit = (type: string, by: Actor, payload: Record<string, unknown>, agentId?: string) =>
    auditAdmin(store, type, by, payload, agentId ? { agentId } : {});
  const current = () => ({
    settings: services.savedSettings(),
    path: settingsPath(home),
    restartNeeded: services.restartNeeded(),
    managed: managedView(services.managed),
  });

  /**
   * Replaces the settings and audits what changed, by whom (and who confirmed it, if anyone). New
   * rules, modes or Bypass apply to the requests already waiting too.
   */
  const applySettings = async (next: Settings, by: Actor, confirmedBy?: Actor) => {
    const before = services.savedSettings();
    const restartNeeded = asBadRequest(() => services.replaceSettings(next));
    const changes = settingsChanges(before, services.savedSettings());
    if (Object.keys(changes).length > 0) {
      await audit('settings_changed', by, { changes, ...(confirmedBy ? { confirmedBy } : {}) });
      pipeline.rejudgePending();
    }
    return { ...current(), settings: next, restartNeeded };
  };

  const confirmations = new SettingsConfirmations({
    now: services.now,
    confirmLocally: services.confirmLocally,
    saved: () => services.savedSettings(),
    launchOf: (id, agent) => {
      const { command, args } = shownLaunch(id, agent, home);
      return { command, args };
    },
    apply: applySettings,
    audit: (type, by, payload) => audit(type, by, payload),
    report: (error) => log.error('a confirmed settings change failed:', error),
  });

  return {
    getSettings: current,

    updateSettings: async (input, caller) => {
      const by = actorOf(caller);
      // A remote caller may not choose the program Gatehouse spawns, nor loosen an agent's
      // sandbox: a person confirms it locally.
      const saved = services.savedSettings();
      await refuseRemoteExposure(store, saved, input.settings, caller);
      const launches =
        caller.transport === 'http' ? launchChangedAgents(saved, input.settings) : [];
      const widens = caller.transport === 'http' ? sandboxWidenedAgents(saved, input.settings) : {};
      const agentIds = [...new Set([...launches, ...Object.keys(widens)])];
      if (agentIds.length === 0) return applySettings(input.settings, by);
      asBadRequest(() => services.checkSettings(input.settings));
      const confirmation = await confirmations.request(input.settings, agentIds, by, widens);
      return { ...current(), confirmation };
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
