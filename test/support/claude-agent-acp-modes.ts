// Launch recipe for the real claude-agent-acp (@agentclientprotocol/claude-agent-acp, pinned) as a
// Gatehouse agent, offline: an isolated HOME and a fake Anthropic server on loopback
// (docs/real-agents.md, test/support/fake-anthropic-server.ts). Used to see which mode it starts in.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface PreparedClaudeAgentAcp {
  command: string;
  args: string[];
  /** Complete environment for the agent. */
  env: Record<string, string>;
  home: string;
  /** Removes the temporary HOME. Stop the agent first. Idempotent. */
  cleanup(): void;
}

/** Its entry, run by this Node; `settings` is written as the user's `~/.claude/settings.json`. */
export function prepareClaudeAgentAcp(
  modelUrl: string,
  settings: object | null = null,
): PreparedClaudeAgentAcp {
  const require = createRequire(import.meta.url);
  const entry = join(
    dirname(require.resolve('@agentclientprotocol/claude-agent-acp/package.json')),
    'dist',
    'index.js',
  );
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-claude-acp-home-'));
  mkdirSync(join(home, '.claude'));
  if (settings) writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify(settings));
  let cleaned = false;
  return {
    command: process.execPath,
    args: [entry],
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      LANG: 'C.UTF-8',
      ANTHROPIC_API_KEY: 'fake-key',
      ANTHROPIC_BASE_URL: modelUrl,
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      NO_PROXY: '127.0.0.1,localhost',
      // Claude Code refuses bypassPermissions to root outside a sandbox unless told it is in one.
      ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
    },
    home,
    cleanup() {
      if (cleaned) return;
      cleaned = true;
      rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
