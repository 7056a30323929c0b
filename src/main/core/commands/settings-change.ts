// The one way a command changes the settings: validated whole, saved, audited with who made it
// (and who confirmed it), applied to the requests already waiting, and told to every surface. A
// change that decides what an agent runs or reaches, sent over HTTP, waits for a person's
// confirmation where Gatehouse runs; one change waits at a time, whichever command made it.
import type { CommandOutput } from '../../../shared/contract';
import type { AgentInfo } from '../../../shared/domain';
import type { Settings } from '../../../shared/settings';
import { shownLaunch } from '../agents/registry-launch';
import { managedView } from '../config/managed-settings';
import {
  launchChangedAgents,
  sandboxWidenedAgents,
  sandboxWidening,
  settingsChanges,
} from '../config/settings-diff';
import { HiddenValueError, hideSecrets, keepHiddenSecrets } from '../config/secret-env';
import { settingsPath, SettingsError } from '../config/settings-file';
import { BadRequestError } from '../errors';
import { logger } from '../log/logger';
import { InvalidPolicyConfigError } from '../mediator';
import { AgentConfig } from '../../../shared/settings';
import { auditAdmin, type Actor } from './admin-audit';
import type { CommandServices, SettingsService } from './services';
import { SettingsConfirmations, type ConfirmationTicket } from './settings-confirmation';

const log = logger('settings');

export type ChangeServices = SettingsService &
  Pick<CommandServices, 'store' | 'pipeline' | 'bus' | 'confirmLocally' | 'now'>;

/** Settings a person could not have meant (they fail validation) are the caller's mistake. */
export function asBadRequest<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (
      error instanceof SettingsError ||
      error instanceof InvalidPolicyConfigError ||
      error instanceof HiddenValueError
    ) {
      throw new BadRequestError(error.message);
    }
    throw error;
  }
}

/** A new agent starts from the defaults: whatever its entry loosens beyond them is shown too. */
const DEFAULT_AGENT = AgentConfig.parse({ command: 'agent' });

/** Agents whose launch changes, and what each one's sandbox newly allows (new agents included). */
export function confirmationNeeded(
  saved: Settings,
  next: Settings,
): { agentIds: string[]; widens: Record<string, string[]> } {
  const widens = sandboxWidenedAgents(saved, next);
  for (const [id, agent] of Object.entries(next.agents)) {
    if (saved.agents[id]) continue;
    const more = sandboxWidening(DEFAULT_AGENT, agent);
    if (more.length > 0) widens[id] = more;
  }
  const agentIds = [...new Set([...launchChangedAgents(saved, next), ...Object.keys(widens)])];
  return { agentIds, widens };
}

export type SettingsSavedView = CommandOutput<'getSettings'>;

export type SettingsChanger = ReturnType<typeof settingsChanger>;

export function settingsChanger(services: ChangeServices) {
  const { home, store, pipeline } = services;
  const agentInfo = (id: string): AgentInfo => {
    const a = services.settings.agents[id]!;
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
  const current = (): SettingsSavedView => ({
    settings: hideSecrets(services.savedSettings()),
    path: settingsPath(home),
    restartNeeded: services.restartNeeded(),
    managed: managedView(services.managed),
    overridden: services.overridden(),
    fileProblem: services.fileProblem(),
  });

  /**
   * Replaces the settings and audits what changed, by whom (and who confirmed it, if anyone). New
   * rules, modes or Bypass apply to the requests already waiting too.
   */
  const applySettings = async (
    next: Settings,
    by: Actor,
    confirmedBy?: Actor,
  ): Promise<SettingsSavedView> => {
    const before = services.savedSettings();
    const restartNeeded = asBadRequest(() => services.replaceSettings(next));
    const changes = settingsChanges(before, services.savedSettings());
    if (Object.keys(changes).length > 0) {
      await audit('settings_changed', by, { changes, ...(confirmedBy ? { confirmedBy } : {}) });
      pipeline.rejudgePending();
      services.bus.publish({ type: 'settings_changed', from: 'command' });
    }
    return { ...current(), settings: hideSecrets(next), restartNeeded };
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

  /**
   * Applies `next` at once, or (over HTTP, where it changes what an agent runs or loosens its
   * sandbox) keeps it waiting for a person where Gatehouse runs and returns the ticket.
   */
  const change = async (
    sent: Settings,
    by: Actor,
    extraWidens: Record<string, string[]> = {},
  ): Promise<{ applied: SettingsSavedView } | { confirmation: ConfirmationTicket }> => {
    // Secrets were read as placeholders: sent back unchanged, they keep their values.
    const next = asBadRequest(() => keepHiddenSecrets(sent, services.savedSettings()));
    if (by.transport !== 'http') return { applied: await applySettings(next, by) };
    const needed = confirmationNeeded(services.savedSettings(), next);
    for (const [id, more] of Object.entries(extraWidens)) {
      needed.widens[id] = [...new Set([...(needed.widens[id] ?? []), ...more])];
      if (!needed.agentIds.includes(id)) needed.agentIds.push(id);
    }
    if (needed.agentIds.length === 0) return { applied: await applySettings(next, by) };
    asBadRequest(() => services.checkSettings(next));
    return {
      confirmation: await confirmations.request(next, needed.agentIds, by, needed.widens),
    };
  };

  return { agentInfo, audit, current, applySettings, confirmations, change };
}
