import { basename } from 'node:path';
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
  codex: {
    stateDirs: ['.codex'],
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
  return knownByName([basename(command), ...args.slice(0, 2).map((arg) => basename(arg))]);
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
