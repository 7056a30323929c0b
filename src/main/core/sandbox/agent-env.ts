// The environment an agent process starts with. The agent is untrusted and runs as the same user:
// it gets what a shell and its model API need, never Gatehouse's own secrets (GATEHOUSE_TOKEN, the
// audit key) or whatever else happens to be in the core's environment.
import { isAbsolute, resolve } from 'node:path';
import type { AgentConfig } from '../../../shared/settings';
import { isInside } from '../fs/containment';

/** Variables every agent gets when the parent has them. */
const COMMON = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];
const COMMON_PREFIXES = ['LC_'];

/** Windows needs these to start almost any program. */
const WINDOWS = [
  'SYSTEMROOT',
  'COMSPEC',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'PATHEXT',
  'WINDIR',
];

/** XDG base directories; passed unless they point into Gatehouse's own folder. */
const XDG_PREFIX = 'XDG_';

interface KnownAgent {
  /** Matched against the command and its arguments (e.g. `npx @google/gemini-cli`). */
  match: RegExp;
  names: string[];
  prefixes: string[];
}

/** What each known agent's CLI reads to reach its model API. */
const KNOWN_AGENTS: KnownAgent[] = [
  {
    match: /gemini/i,
    names: [
      'GEMINI_API_KEY',
      'GOOGLE_API_KEY',
      'GOOGLE_GEMINI_BASE_URL',
      'GOOGLE_CLOUD_PROJECT',
      'GOOGLE_CLOUD_LOCATION',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'GOOGLE_GENAI_USE_VERTEXAI',
    ],
    prefixes: ['GEMINI_CLI_'],
  },
  { match: /claude|anthropic/i, names: [], prefixes: ['ANTHROPIC_', 'CLAUDE_'] },
  { match: /codex|openai/i, names: [], prefixes: ['OPENAI_', 'CODEX_'] },
  { match: /qwen|dashscope/i, names: [], prefixes: ['DASHSCOPE_', 'QWEN_'] },
];

/** Gatehouse's own variables never reach an agent, whoever names them. */
export function isGatehouseVariable(name: string): boolean {
  return name.toUpperCase().startsWith('GATEHOUSE_');
}

/** Whether any entry of a path or path list (XDG_DATA_DIRS) lies in `home`. */
function reachesInto(home: string, value: string, platform: NodeJS.Platform): boolean {
  const separator = platform === 'win32' ? ';' : ':';
  return value
    .split(separator)
    .some((entry) => isAbsolute(entry) && isInside(resolve(entry), home));
}

/**
 * The agent's environment: the allow-listed part of `parentEnv`, the model API variables of the
 * agent's CLI when it is a known one, then the agent's settings `env` on top. No GATEHOUSE_*
 * variable passes, from either side. Names are case-insensitive on Windows.
 */
export function agentEnvironment(
  parentEnv: NodeJS.ProcessEnv,
  config: Pick<AgentConfig, 'command' | 'args' | 'env'>,
  platform: NodeJS.Platform,
  gatehouseHome?: string,
): Record<string, string> {
  const windows = platform === 'win32';
  const key = (name: string) => (windows ? name.toUpperCase() : name);
  const names = new Set([...COMMON, ...(windows ? WINDOWS : [])].map(key));
  const prefixes = [...COMMON_PREFIXES];
  const launch = [config.command, ...config.args].join(' ');
  for (const agent of KNOWN_AGENTS) {
    if (!agent.match.test(launch)) continue;
    for (const name of agent.names) names.add(key(name));
    prefixes.push(...agent.prefixes);
  }
  const home = gatehouseHome ? resolve(gatehouseHome) : null;

  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value === undefined || isGatehouseVariable(name)) continue;
    const k = key(name);
    // Proxy variables are read in either case; both spellings pass.
    const upper = name.toUpperCase();
    const proxy = upper.endsWith('_PROXY') && names.has(key(upper));
    const xdg = k.startsWith(XDG_PREFIX) && !(home && reachesInto(home, value, platform));
    if (names.has(k) || proxy || xdg || prefixes.some((p) => k.startsWith(p))) env[name] = value;
  }
  for (const [name, value] of Object.entries(config.env)) {
    if (isGatehouseVariable(name)) continue;
    if (windows) {
      for (const existing of Object.keys(env))
        if (existing.toUpperCase() === name.toUpperCase()) delete env[existing];
    }
    env[name] = value;
  }
  return env;
}
