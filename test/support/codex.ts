// Launch recipe for a real codex-acp (@zed-industries/codex-acp, pinned) that talks only to a fake
// Responses API on loopback (docs/real-agents.md, test/support/fake-responses-server.ts).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The platform binary the package installed, or null where there is none (skip, not fail). */
export function codexAcpBinary(): string | null {
  const require = createRequire(import.meta.url);
  try {
    const manifest = require.resolve(
      `@zed-industries/codex-acp-${process.platform}-${process.arch}/package.json`,
    );
    const binary = join(
      dirname(manifest),
      'bin',
      process.platform === 'win32' ? 'codex-acp.exe' : 'codex-acp',
    );
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

export interface PreparedCodex {
  command: string;
  args: string[];
  /** Complete environment for the agent. */
  env: Record<string, string>;
  /** The isolated HOME; CODEX_HOME is `<home>/.codex`. */
  home: string;
  /** Removes the temporary HOME. Stop the agent first. Idempotent. */
  cleanup(): void;
}

/**
 * codex-acp with its own CODEX_HOME: a model codex knows (else it offers no apply_patch), a
 * provider at `modelUrl`, `untrusted` approvals (it asks for every non-trivial command and every
 * patch), no update check.
 */
export function prepareCodex(binary: string, modelUrl: string): PreparedCodex {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-codex-home-'));
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.3-codex"',
      'model_provider = "fake"',
      'approval_policy = "untrusted"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${modelUrl}"`,
      'env_key = "FAKE_OPENAI_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
  let cleaned = false;
  return {
    command: binary,
    args: [],
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      CODEX_HOME: codexHome,
      FAKE_OPENAI_KEY: 'fake-key',
      LANG: 'C.UTF-8',
      NO_PROXY: '127.0.0.1,localhost',
    },
    home,
    cleanup() {
      if (cleaned) return;
      cleaned = true;
      rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
