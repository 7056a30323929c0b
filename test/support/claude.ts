// Claude Code (`@anthropic-ai/claude-code`, its native `claude`) in print mode, offline: an
// isolated HOME and a fake Anthropic server on loopback (docs/real-agents.md).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface ClaudeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** `--output-format json`'s result, when it printed one. */
  result: { result?: string; permission_denials?: { tool_name: string }[] } | null;
}

export interface PreparedClaude {
  home: string;
  run(prompt: string, cwd: string, env?: Record<string, string>): Promise<ClaudeRun>;
  cleanup(): void;
}

export function claudeBinary(): string {
  const require = createRequire(import.meta.url);
  return join(
    dirname(require.resolve('@anthropic-ai/claude-code/package.json')),
    'bin',
    'claude.exe',
  );
}

/** What Claude Code (the CLI or the binary an ACP adapter drives) needs to run offline in `home`. */
export function claudeOfflineEnv(home: string, modelUrl: string): Record<string, string> {
  return {
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
  };
}

export function prepareClaude(modelUrl: string): PreparedClaude {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-claude-home-'));
  const base: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    ...claudeOfflineEnv(home, modelUrl),
  };
  return {
    home,
    run(prompt, cwd, env = {}) {
      const child = spawn(claudeBinary(), ['-p', prompt, '--output-format', 'json'], {
        cwd,
        env: { ...base, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return new Promise((resolve) =>
        child.once('close', (code) => {
          let result: ClaudeRun['result'];
          try {
            result = JSON.parse(stdout) as ClaudeRun['result'];
          } catch {
            result = null;
          }
          resolve({ code, stdout, stderr, result });
        }),
      );
    },
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}
