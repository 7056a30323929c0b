// claude-agent-acp (`@agentclientprotocol/claude-agent-acp`), the ACP adapter over the Claude Code
// binary that `@anthropic-ai/claude-agent-sdk` ships per platform, offline: an isolated HOME and
// config folder, and a fake Anthropic server on loopback (docs/real-agents.md). Started as an agent
// of Gatehouse's settings under the id `claude`, so the sandbox knows its state folder and lets it
// reach the loopback port ANTHROPIC_BASE_URL names.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { claudeOfflineEnv } from './claude';

export interface PreparedClaudeAcp {
  home: string;
  /** The agent entry of Gatehouse's settings. */
  agent: { name: string; command: string; args: string[]; env: Record<string, string> };
  cleanup(): void;
}

const require = createRequire(import.meta.url);
const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));

/** The adapter's entry, run by the Node running the tests. */
export function claudeAcpEntry(): string {
  return join(packageDir('@agentclientprotocol/claude-agent-acp'), 'dist', 'index.js');
}

/** The Claude Code binary the adapter drives (the SDK's own build for this platform). */
export function claudeSdkBinary(): string {
  return join(packageDir('@anthropic-ai/claude-agent-sdk-linux-x64'), 'claude');
}

/** `settings`, when given, is written as the user's `~/.claude/settings.json`. */
export function prepareClaudeAcp(
  modelUrl: string,
  settings: object | null = null,
): PreparedClaudeAcp {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-claude-acp-home-'));
  mkdirSync(join(home, '.claude'));
  if (settings) writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify(settings));
  return {
    home,
    agent: {
      name: 'Claude Agent',
      command: process.execPath,
      args: [claudeAcpEntry()],
      env: {
        ...claudeOfflineEnv(home, modelUrl),
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        CLAUDE_CODE_EXECUTABLE: claudeSdkBinary(),
      },
    },
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}
