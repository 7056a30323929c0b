import { join, resolve } from 'node:path';
import { BASE_URL_VARIABLES, knownAgentFor, stateFolders } from './known-agents';
import { PROTECTED_STATE_FILES } from '../rules/protected-files';
import type { SandboxSettings } from '../../../shared/sandbox-settings';
import { expandHome } from '../fs/containment';

/** One destination the agent may open: an exact host or `*suffix` pattern, on one port. */
export interface HostRule {
  host: string;
  port: number;
}

export type NetworkPolicy =
  { kind: 'all' } | { kind: 'none' } | { kind: 'allow'; hosts: HostRule[] };

/** Everything the sandbox needs to know, with absolute paths; no I/O went into it. */
export interface SandboxProfile {
  mode: 'workspace-write' | 'read-only';
  /** The session folder: the agent's working directory. */
  projectDir: string;
  /** Writable paths (everything else is read-only). */
  writable: string[];
  /** Writable roots whose files that run later stay protected: the project, allowWrite folders. */
  protectedRoots: string[];
  /** HOME the agent runs with. */
  home: string;
  /**
   * The temp folders the session's own, empty one replaces (`/tmp` and the system's): nothing of
   * the user's or another session's is visible there.
   */
  tmpDirs: string[];
  /** Inside the agent's writable state folders: what its CLI obeys later, kept read-only. */
  protectedState: { path: string; tree: boolean }[];
  /** Paths whose content the agent must not read; hidden after the writable set is mounted. */
  unreadable: string[];
  /** Folders whose `.env*` files are hidden (the project's ancestors and HOME). */
  envFileDirs: string[];
  /** Gatehouse's data folder: hidden, and home of the network bridge's sockets. */
  gatehouseHome: string;
  network: NetworkPolicy;
  /** Unix sockets the agent may use (absolute); none: socket(AF_UNIX) is refused. */
  allowUnixSockets: string[];
}

export interface ProfileInput {
  agentId: string;
  /** The agent's configured command and arguments, to recognise a known agent. */
  command: string;
  args: readonly string[];
  settings: SandboxSettings;
  /** HOME the agent runs with. */
  home: string;
  sessionDir: string;
  /**
   * The session's other folders (ACP `additionalDirectories`, the person's): roots like the
   * project, writable in workspace-write with their files that run later protected.
   */
  additionalDirs?: readonly string[];
  gatehouseHome: string;
  /** The system temp folder. */
  tmpDir: string;
  /** The environment the agent runs with (its *_BASE_URL variables add hosts). */
  env: Readonly<Record<string, string | undefined>>;
}

/** Folders under HOME that hold the user's keys and tokens. */
export const SECRETS_IN_HOME = ['.ssh', '.aws', '.gnupg', '.config/gh', '.Xauthority'];
// Sockets that run commands outside any sandbox: the X server (keystrokes into the user's terminal)
// and Docker.
const ESCAPE_SOCKETS = ['/tmp/.X11-unix', '/run/docker.sock', '/var/run/docker.sock'];

/** Resolves an agent's sandbox from its settings; `null` when the sandbox is off. */
export function resolveSandboxProfile(input: ProfileInput): SandboxProfile | null {
  const { settings } = input;
  if (settings.sandbox === 'off') return null;
  const home = resolve(input.home);
  const projectDir = resolve(input.sessionDir);
  const expand = (path: string): string => expandPath(path, home, projectDir);
  const known = knownAgentFor(input.agentId, input.command, input.args);
  const roots = [projectDir, ...(input.additionalDirs ?? []).map((dir) => resolve(dir))];

  const state = known ? stateFolders(known, home, projectDir, input.env) : [];
  const writable = [
    ...(settings.sandbox === 'workspace-write' ? roots : []),
    ...state.map((folder) => folder.path),
    ...settings.allowWrite.map(expand),
  ];
  const protectedState = state.flatMap((folder) =>
    (PROTECTED_STATE_FILES[folder.dir] ?? []).map((entry) => ({
      path: join(folder.path, entry.path),
      tree: entry.tree,
    })),
  );
  const gatehouseHome = resolve(input.gatehouseHome);
  const unreadable = [
    ...SECRETS_IN_HOME.map((dir) => join(home, dir)),
    ...ESCAPE_SOCKETS,
    ...settings.denyRead.map(expand),
    gatehouseHome,
  ];
  return {
    mode: settings.sandbox,
    projectDir,
    writable: unique(writable),
    protectedRoots: unique([
      ...(settings.sandbox === 'workspace-write' ? roots : []),
      ...settings.allowWrite.map(expand),
    ]),
    home,
    tmpDirs: unique(['/tmp', resolve(input.tmpDir)]),
    protectedState,
    unreadable: unique(unreadable),
    envFileDirs: unique([...roots.flatMap(ancestorsOf), home]),
    gatehouseHome,
    network: networkPolicy(settings, known?.hosts ?? [], input.env),
    allowUnixSockets: unique((settings.allowUnixSockets ?? []).map(expand)),
  };
}

function networkPolicy(
  settings: SandboxSettings,
  knownHosts: readonly string[],
  env: ProfileInput['env'],
): NetworkPolicy {
  if (settings.network === 'all') return { kind: 'all' };
  if (settings.network === 'none') return { kind: 'none' };
  const rules = knownHosts.map((host) => ({ host, port: 443 }));
  for (const name of BASE_URL_VARIABLES) {
    const rule = ruleOfUrl(env[name]);
    if (rule) rules.push(rule);
  }
  for (const entry of settings.network?.allow ?? []) rules.push(parseHostEntry(entry));
  const seen = new Set<string>();
  const hosts = rules.filter((rule) => {
    const key = `${rule.host}:${rule.port}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return hosts.length === 0 ? { kind: 'none' } : { kind: 'allow', hosts };
}

/** The host and port a base URL names (its scheme's default port when none is written). */
export function ruleOfUrl(value: string | undefined): HostRule | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host: url.hostname.toLowerCase(), port };
}

/** `host`, `host:port`, `[v6]:port`; no port means 443. */
export function parseHostEntry(entry: string): HostRule {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.trim());
  if (!match?.[1]) throw new Error(`not a host entry: ${entry}`);
  const port = match[2] ? Number(match[2]) : 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`bad port in ${entry}`);
  return { host: match[1].toLowerCase(), port };
}

/** Whether a destination passes one of the rules; `*x` matches any host ending in `x` with more before it. */
export function hostAllowed(rules: readonly HostRule[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return rules.some((rule) => {
    if (rule.port !== port) return false;
    if (!rule.host.startsWith('*')) return rule.host === name;
    const suffix = rule.host.slice(1);
    return name.length > suffix.length && name.endsWith(suffix) && /^[a-z0-9.-]+$/.test(name);
  });
}

export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return (
    name === 'localhost' || name === '[::1]' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name)
  );
}

function expandPath(path: string, home: string, projectDir: string): string {
  return resolve(projectDir, expandHome(path, home));
}

function ancestorsOf(dir: string): string[] {
  const out: string[] = [];
  for (let current = resolve(dir, '..'); ; current = resolve(current, '..')) {
    out.push(current);
    if (current === resolve(current, '..')) return out;
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
