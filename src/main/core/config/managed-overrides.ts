// What the user's settings ask for and the managed policy forbids. Read from settings.json (at start
// or when the file changes), such a setting does not stop Gatehouse: the administrator's value is
// put in its place, shown beside the setting and audited, so a person is never locked out of their
// own tool by a policy they cannot change. Sent as a command, the same setting is refused: the
// person is there to read why.
import type { ManagedOverride } from '../../../shared/managed-settings';
import type { Settings } from '../../../shared/settings';
import { logger } from '../log/logger';
import { DEFAULT_PERMISSION_POLICY } from '../mediator';
import type { Store } from '../store';
import type { ManagedPolicy } from './managed-settings';
import { SettingsError } from './settings-file';

const log = logger('settings');

export interface ManagedResolution {
  /** The settings with every forbidden value replaced by the administrator's. */
  settings: Settings;
  /** What was replaced, in the order of the settings file. */
  overrides: ManagedOverride[];
}

/** A copy of `settings` that the managed policy allows, and what had to change for it. */
export function resolveManaged(
  settings: Settings,
  managed: ManagedPolicy | null,
): ManagedResolution {
  if (!managed) return { settings, overrides: [] };
  const { rules, allowedPolicies, allowBypass } = managed.settings;
  const overrides: ManagedOverride[] = [];
  const managedIds = new Set(rules.map((r) => r.id));
  // The managed rule of that id is the one in force: the user's would be judged after it anyway,
  // and two rules of one id would make every decision that names it ambiguous.
  const userRules = settings.rules.filter((rule) => {
    if (!managedIds.has(rule.id)) return true;
    overrides.push({
      setting: `rules.${rule.id}`,
      user: `your rule "${rule.id}"`,
      managed: `the managed rule "${rule.id}"`,
    });
    return false;
  });
  const allowed = (policy: string) =>
    !allowedPolicies || (allowedPolicies as string[]).includes(policy);
  // The administrator's first choice stands in for a policy they do not allow.
  const firstAllowed = allowedPolicies?.[0];
  let policy = settings.policy;
  const strategy = settings.policy.permissionStrategy ?? DEFAULT_PERMISSION_POLICY;
  if (firstAllowed && !allowed(strategy)) {
    overrides.push({ setting: 'policy.permissionStrategy', user: strategy, managed: firstAllowed });
    policy = { ...policy, permissionStrategy: firstAllowed };
  }
  const agents: Settings['agents'] = {};
  for (const [id, agent] of Object.entries(settings.agents)) {
    let next = agent;
    if (firstAllowed && agent.policy && !allowed(agent.policy)) {
      overrides.push({ setting: `agents.${id}.policy`, user: agent.policy, managed: firstAllowed });
      next = { ...next, policy: firstAllowed };
    }
    if (!allowBypass && agent.bypassPermissions) {
      overrides.push({ setting: `agents.${id}.bypassPermissions`, user: true, managed: false });
      next = { ...next, bypassPermissions: false };
    }
    if (!allowBypass && agent.mode === 'bypassPermissions') {
      overrides.push({
        setting: `agents.${id}.mode`,
        user: 'bypassPermissions',
        managed: 'default',
      });
      next = { ...next, mode: 'default' };
    }
    agents[id] = next;
  }
  if (overrides.length === 0) return { settings, overrides };
  return { settings: { ...settings, rules: userRules, policy, agents }, overrides };
}

/** One line a person reads: what the setting asked for and why it is not allowed. */
function problemOf(override: ManagedOverride, set: string, list: string): string {
  const { setting, user } = override;
  if (setting.startsWith('rules.')) {
    const id = setting.slice('rules.'.length);
    return `rules: "${id}" is the id of a managed rule (${set}); choose another id`;
  }
  if (setting.endsWith('.bypassPermissions')) return `${setting}: Bypass is not allowed (${set})`;
  if (setting.endsWith('.mode')) return `${setting}: bypassPermissions is not allowed (${set})`;
  return `${setting}: "${String(user)}" is not allowed (${set}): one of ${list}`;
}

/** What in the user's settings the managed policy does not allow, one line per problem. */
export function managedProblems(settings: Settings, managed: ManagedPolicy | null): string[] {
  if (!managed) return [];
  const set = `set by your administrator in ${managed.path}`;
  const list = (managed.settings.allowedPolicies ?? []).join(', ');
  return resolveManaged(settings, managed).overrides.map((o) => problemOf(o, set, list));
}

/**
 * Throws a SettingsError naming `file` (the user's settings) when the managed policy refuses them:
 * for a change sent as a command, which the person sending it can correct.
 */
export function checkAgainstManaged(
  settings: Settings,
  managed: ManagedPolicy | null,
  file: string,
): void {
  const problems = managedProblems(settings, managed);
  if (problems.length > 0) throw new SettingsError(file, problems);
}

/**
 * Each override in the audit, once each time the settings are read (at start, and when
 * settings.json changes): which setting, what the user asked for, what is in force instead.
 */
export function auditOverrides(
  store: Pick<Store, 'recordEvent'>,
  managed: ManagedPolicy | null,
  overrides: readonly ManagedOverride[],
  when: 'start' | 'reload',
): void {
  if (!managed) return;
  for (const override of overrides) {
    log.warn(
      `${override.setting}: ${JSON.stringify(override.user)} is replaced by ${JSON.stringify(override.managed)}, set by your administrator in ${managed.path}`,
    );
    store.recordEvent({
      type: 'managed_setting_overridden',
      payload: { ...override, when, managedSettings: managed.path },
    });
  }
}
