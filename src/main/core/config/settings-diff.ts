// What a settings change changes, as the audit records it: the before and after of each top-level
// key that differs. Agents' environment values may hold secrets (API keys), so the audit keeps
// their names and a hash of each value: enough to see that a value changed, not what it is.
import { createHash } from 'node:crypto';
import type { AgentConfig, Settings } from '../../../shared/settings';
import { canonicalJson } from '../store/canonical';

export type SettingsChanges = Record<string, { before: unknown; after: unknown }>;

/** The fields that decide which program an agent is and how it starts. */
const LAUNCH_FIELDS = ['command', 'registry', 'args', 'cwd', 'env'] as const;

export function redactEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      `sha256:${createHash('sha256').update(value).digest('hex').slice(0, 16)}`,
    ]),
  );
}

export function redactAgent(agent: AgentConfig): AgentConfig {
  return { ...agent, env: redactEnv(agent.env) };
}

function redactAgents(agents: Settings['agents']): Settings['agents'] {
  return Object.fromEntries(Object.entries(agents).map(([id, a]) => [id, redactAgent(a)]));
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** The top-level keys that differ, each with its before and after (agents' env values hashed). */
export function settingsChanges(before: Settings, after: Settings): SettingsChanges {
  const changes: SettingsChanges = {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof Settings>;
  for (const key of keys) {
    if (same(before[key], after[key])) continue;
    changes[key] =
      key === 'agents'
        ? { before: redactAgents(before.agents), after: redactAgents(after.agents) }
        : { before: before[key] ?? null, after: after[key] ?? null };
  }
  return changes;
}

/** Agents that are new, or whose command, registry id, args, cwd or environment differ: what runs changes. */
export function launchChangedAgents(before: Settings, after: Settings): string[] {
  return Object.keys(after.agents).filter((id) => {
    const old = before.agents[id];
    const next = after.agents[id]!;
    return !old || LAUNCH_FIELDS.some((field) => !same(old[field] ?? null, next[field] ?? null));
  });
}

const CONFINEMENT = { 'read-only': 0, 'workspace-write': 1, off: 2 } as const;

/** Where `after` lets the network reach that `before` did not. */
function networkWidening(before: AgentConfig['network'], after: AgentConfig['network']): string[] {
  if (before === 'all' || after === 'none' || canonicalJson(before) === canonicalJson(after)) {
    return [];
  }
  if (after === 'all') return ['connect anywhere'];
  const known = new Set(before === 'none' ? [] : (before?.allow ?? []));
  const added = (after?.allow ?? [])
    .filter((host) => !known.has(host))
    .map((h) => `connect to ${h}`);
  return before === 'none' ? ['connect to its model API', ...added] : added;
}

/**
 * What `next` lets an agent's sandbox do that `old` did not: a looser mode, running unsandboxed, a
 * new writable path, a path no longer hidden, a host newly reachable, a local socket newly open.
 */
export function sandboxWidening(old: AgentConfig, next: AgentConfig): string[] {
  return [
    ...(CONFINEMENT[next.sandbox] > CONFINEMENT[old.sandbox] ? [`sandbox ${next.sandbox}`] : []),
    ...(next.allowUnsandboxed && !old.allowUnsandboxed ? ['running unsandboxed'] : []),
    ...(next.allowUnguarded && !old.allowUnguarded ? ['running unguarded'] : []),
    ...next.allowWrite.filter((path) => !old.allowWrite.includes(path)).map((p) => `write in ${p}`),
    ...old.denyRead.filter((path) => !next.denyRead.includes(path)).map((p) => `read ${p}`),
    ...networkWidening(old.network, next.network),
    ...next.allowUnixSockets
      .filter((path) => !old.allowUnixSockets.includes(path))
      .map((p) => `use the local socket ${p}`),
  ];
}

/** Existing agents whose sandbox lets them do more, each with what more. */
export function sandboxWidenedAgents(before: Settings, after: Settings): Record<string, string[]> {
  const widened: Record<string, string[]> = {};
  for (const [id, next] of Object.entries(after.agents)) {
    const old = before.agents[id];
    const more = old ? sandboxWidening(old, next) : [];
    if (more.length > 0) widened[id] = more;
  }
  return widened;
}
