import { basename, isAbsolute, join, resolve } from 'node:path';
import { isInside } from '../fs/containment';
import { GEMINI_POLICY, GEMINI_POLICY_FILE_NAME, geminiPolicyArgs } from './gemini-policy';

/** A file the agent is started with, written for each launch, and the arguments that name it. */
export interface LaunchFile {
  name: string;
  content: string;
  args(path: string): string[];
}

export interface KnownAgent {
  /** Folders under HOME where the agent keeps its state, sessions and caches. */
  stateDirs: string[];
  /**
   * A variable that moves one of those folders elsewhere, as the agent's CLI reads it: the folder
   * it names is the one kept writable, with the same entries read-only inside.
   */
  movedBy?: { dir: string; variable: string };
  /** Model API hosts (port 443) the agent needs with its stock configuration. */
  hosts: string[];
  /** Makes the agent ask its client where its own defaults would not. */
  askPolicy?: LaunchFile;
  /** The variable its CLI reads an API key from. */
  apiKey?: string;
}

export const KNOWN_AGENTS: Readonly<Record<string, KnownAgent>> = {
  gemini: {
    stateDirs: ['.gemini'],
    hosts: [
      'generativelanguage.googleapis.com',
      'cloudcode-pa.googleapis.com',
      'oauth2.googleapis.com',
      'aiplatform.googleapis.com',
      '*-aiplatform.googleapis.com',
    ],
    askPolicy: { name: GEMINI_POLICY_FILE_NAME, content: GEMINI_POLICY, args: geminiPolicyArgs },
    apiKey: 'GEMINI_API_KEY',
  },
  claude: {
    stateDirs: ['.claude'],
    hosts: ['api.anthropic.com', 'console.anthropic.com', 'claude.ai'],
    apiKey: 'ANTHROPIC_API_KEY',
  },
  // Both codex-acp packages: @zed-industries/codex-acp (a binary) and @agentclientprotocol/codex-acp
  // (`node …/dist/index.js`, or its bin `codex-acp`), which runs @openai/codex beside it.
  codex: {
    stateDirs: ['.codex'],
    movedBy: { dir: '.codex', variable: 'CODEX_HOME' },
    hosts: ['api.openai.com', 'auth.openai.com', 'chatgpt.com'],
    apiKey: 'OPENAI_API_KEY',
  },
  qwen: {
    stateDirs: ['.qwen'],
    hosts: ['dashscope.aliyuncs.com', 'dashscope-intl.aliyuncs.com', 'chat.qwen.ai'],
    apiKey: 'DASHSCOPE_API_KEY',
  },
  opencode: {
    stateDirs: [
      '.config/opencode',
      '.local/share/opencode',
      '.local/state/opencode',
      '.cache/opencode',
    ],
    hosts: [
      'opencode.ai',
      'models.dev',
      'api.anthropic.com',
      'api.openai.com',
      'generativelanguage.googleapis.com',
    ],
  },
};

/** Environment variables that name a model endpoint; their hosts are allowed like the known ones. */
export const BASE_URL_VARIABLES = [
  'GOOGLE_GEMINI_BASE_URL',
  'ANTHROPIC_BASE_URL',
  'OPENAI_BASE_URL',
] as const;

/**
 * Which known agent a configured agent is: its id first (users name them `gemini`, `claude-code`…),
 * else the command or its first argument (`node …/gemini.js`, `npx @zed-industries/claude-code-acp`).
 */
export function knownAgentFor(
  agentId: string,
  command: string,
  args: readonly string[],
): KnownAgent | null {
  return knownByName([agentId]) ?? knownProgramFor(command, args);
}

/**
 * Which known agent a command line runs, whatever the agent is called in the settings: what is
 * passed to the program must be recognised by the program, not by its name.
 */
export function knownProgramFor(command: string, args: readonly string[]): KnownAgent | null {
  return knownByName(programNames(command, args));
}

/**
 * The names a command line is known by: the program's, its first two arguments' (`npx
 * @agentclientprotocol/codex-acp`), and the package an argument's file lies in, for a script run by
 * its interpreter (`node …/node_modules/@agentclientprotocol/codex-acp/dist/index.js`).
 */
export function programNames(command: string, args: readonly string[]): string[] {
  const names = [basename(command)];
  for (const arg of args.slice(0, 2)) {
    names.push(basename(arg));
    const pkg = packageOf(arg);
    if (pkg) names.push(pkg);
  }
  return names;
}

/** The package a path lies in under its last node_modules, without its scope. */
function packageOf(path: string): string | null {
  const parts = path.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return null;
  const first = parts[at + 1] ?? '';
  const name = first.startsWith('@') ? parts[at + 2] : first;
  return name ? name : null;
}

/**
 * The agent's state folders, absolute: under `home`, or where the agent's environment moved one
 * (a relative value is taken from the folder the agent starts in). A move onto HOME or a folder
 * that holds it is not followed: the folder kept writable would be all of HOME.
 */
export function stateFolders(
  agent: KnownAgent,
  home: string,
  startDir: string,
  env: Readonly<Record<string, string | undefined>>,
): { dir: string; path: string }[] {
  return agent.stateDirs.map((dir) => {
    const value = agent.movedBy?.dir === dir ? env[agent.movedBy.variable] : undefined;
    const moved = value ? resolve(isAbsolute(value) ? value : join(startDir, value)) : null;
    return { dir, path: moved && !isInside(home, moved) ? moved : join(home, dir) };
  });
}

function knownByName(candidates: readonly string[]): KnownAgent | null {
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    for (const [name, agent] of Object.entries(KNOWN_AGENTS)) {
      if (lower === name || lower.startsWith(`${name}-`) || lower.startsWith(`${name}.`))
        return agent;
      if (lower.includes(`${name}-code`) || lower.includes(`${name}-cli`)) return agent;
    }
  }
  return null;
}
