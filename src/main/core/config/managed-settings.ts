// The managed policy file: read once at start (not watched) and validated whole. A malformed file
// stops the start with every problem listed; a missing one means no managed policy. What it forbids
// in the user's settings is replaced by its own values (managed-overrides.ts).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  MANAGED_FILE_MAX_BYTES,
  ManagedSettings,
  type ManagedPolicyView,
} from '../../../shared/managed-settings';
import type { Rule } from '../../../shared/rules';
import type { AgentConfig, TelemetrySettings } from '../../../shared/settings';
import { validateRules } from '../rules';
import { extraEntry, PROTECTED_FILES, type ProtectedEntry } from '../rules/protected-files';
import { describeIssues, SettingsError } from './settings-file';

/** Overrides the platform's path (tests; a packaged deployment that keeps it elsewhere). */
export const MANAGED_ENV = 'GATEHOUSE_MANAGED_SETTINGS';

export interface ManagedPolicy {
  /** Where the administrator placed it: named wherever a managed rule or limit is shown. */
  readonly path: string;
  readonly settings: ManagedSettings;
}

/** Where an administrator places the file on this platform, unless the environment names one. */
export function managedSettingsPath(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const given = env[MANAGED_ENV];
  if (given) return given;
  if (platform === 'darwin') return '/Library/Application Support/Gatehouse/managed-settings.json';
  if (platform === 'win32') {
    return join(env['ProgramData'] ?? 'C:\\ProgramData', 'Gatehouse', 'managed-settings.json');
  }
  return '/etc/gatehouse/managed-settings.json';
}

export function parseManagedSettings(text: string, file: string): ManagedPolicy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(file, [`not JSON: ${(error as Error).message}`]);
  }
  const parsed = ManagedSettings.safeParse(json);
  if (!parsed.success) throw new SettingsError(file, describeIssues(parsed.error));
  const checked = validateRules(parsed.data.rules);
  if (!checked.ok)
    throw new SettingsError(
      file,
      checked.errors.map((e) => `rules: ${e.message}`),
    );
  return { path: file, settings: { ...parsed.data, rules: checked.rules } };
}

/**
 * The managed policy at `file`, or null when there is none. Anything else that keeps it from being
 * read (permissions, a folder in its place, its size) stops the start: a policy that exists but
 * cannot be read must not silently stop applying.
 */
export function readManagedPolicy(file: string = managedSettingsPath()): ManagedPolicy | null {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SettingsError(file, [`cannot be read: ${(error as Error).message}`]);
  }
  if (size > MANAGED_FILE_MAX_BYTES) {
    throw new SettingsError(file, [`larger than ${MANAGED_FILE_MAX_BYTES} bytes`]);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SettingsError(file, [`cannot be read: ${(error as Error).message}`]);
  }
  return parseManagedSettings(text, file);
}

/** The rules in the order they are judged: the managed ones first. */
export function effectiveRules(managed: ManagedPolicy | null, userRules: readonly Rule[]): Rule[] {
  return [...(managed?.settings.rules ?? []), ...userRules];
}

export function isManagedRule(managed: ManagedPolicy | null, ruleId: string): boolean {
  return managed?.settings.rules.some((r) => r.id === ruleId) ?? false;
}

/** The agent as it runs: the managed sandbox keys replace the user's. */
export function managedAgent(agent: AgentConfig, managed: ManagedPolicy | null): AgentConfig {
  const sandbox = managed?.settings.sandbox;
  return sandbox ? { ...agent, ...sandbox } : agent;
}

export function managedAgents(
  agents: Record<string, AgentConfig>,
  managed: ManagedPolicy | null,
): Record<string, AgentConfig> {
  if (!managed?.settings.sandbox) return agents;
  return Object.fromEntries(
    Object.entries(agents).map(([id, a]) => [id, managedAgent(a, managed)]),
  );
}

/**
 * The files that run later, protected in every sandbox: the built-in list, then what the managed
 * policy and the user's settings add. Nothing can take an entry away.
 */
export function protectedEntries(
  userPaths: readonly string[],
  managed: ManagedPolicy | null,
): readonly ProtectedEntry[] {
  // The same lists give the same array, so the matchers compiled for it are kept (every request
  // is judged against it).
  if (lastEntries?.userPaths === userPaths && lastEntries.managed === managed)
    return lastEntries.entries;
  const extra = [...new Set([...(managed?.settings.protectedPaths ?? []), ...userPaths])];
  const entries =
    extra.length === 0 ? PROTECTED_FILES : [...PROTECTED_FILES, ...extra.map(extraEntry)];
  lastEntries = { userPaths, managed, entries };
  return entries;
}
let lastEntries:
  | {
      userPaths: readonly string[];
      managed: ManagedPolicy | null;
      entries: readonly ProtectedEntry[];
    }
  | undefined;

/** The telemetry export in force: the managed endpoint replaces the user's. */
export function managedTelemetry(
  telemetry: TelemetrySettings,
  managed: ManagedPolicy | null,
): TelemetrySettings {
  return managed?.settings.telemetry ?? telemetry;
}

export function managedView(managed: ManagedPolicy | null): ManagedPolicyView | null {
  if (!managed) return null;
  const { rules, allowedPolicies, sandbox, telemetry, allowBypass, protectedPaths } =
    managed.settings;
  return {
    path: managed.path,
    rules,
    allowedPolicies: allowedPolicies ?? null,
    sandbox: sandbox ?? null,
    telemetry: telemetry !== undefined,
    allowBypass,
    ...(protectedPaths.length > 0 ? { protectedPaths } : {}),
  };
}
