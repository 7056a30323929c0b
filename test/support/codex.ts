// Launch recipes for a real codex-acp that talks only to a fake Responses API on loopback
// (docs/real-agents.md, test/support/fake-responses-server.ts), in either of its two packages:
// `@zed-industries/codex-acp` 0.16 (a Rust binary over codex 0.137) and the renamed
// `@agentclientprotocol/codex-acp` 2.6 (a JavaScript adapter over codex 0.166), both pinned.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface CodexPackage {
  /** The npm package, as a suite's title names it. */
  name: '@zed-industries/codex-acp' | '@agentclientprotocol/codex-acp';
  /**
   * How it is made to ask: 0.16 by `approval_policy = "untrusted"` (it has no modes then); 2.6
   * refuses that policy and starts in its mode `agent`, which does not ask: Gatehouse's mode guard
   * sets it back to a mode that does.
   */
  asks: 'by-policy' | 'by-mode';
  /** The program and its arguments, or null where the package has nothing for this platform. */
  launch: { command: string; args: string[] } | null;
  /**
   * A model its codex knows and offers `apply_patch` to: codex 0.166 offers gpt-5.3-codex no
   * patch tool, only a shell.
   */
  model: string;
}

const require = createRequire(import.meta.url);

/** The platform binary the old package installed, or null where there is none (skip, not fail). */
function codexAcpBinary(): string | null {
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

/**
 * The renamed package's entry, run by this Node, or null where codex has no binary for this
 * platform (the adapter itself is JavaScript; the codex it drives is not).
 */
function renamedLaunch(): CodexPackage['launch'] {
  try {
    const entry = join(
      dirname(require.resolve('@agentclientprotocol/codex-acp/package.json')),
      'dist',
      'index.js',
    );
    require.resolve(`@openai/codex-${process.platform}-${process.arch}/package.json`);
    return existsSync(entry) ? { command: process.execPath, args: [entry] } : null;
  } catch {
    return null;
  }
}

const old = codexAcpBinary();

/** Both packages; a suite runs `describe.each` over them and skips one that is not installed. */
export const CODEX_PACKAGES: readonly CodexPackage[] = [
  {
    name: '@zed-industries/codex-acp',
    asks: 'by-policy',
    launch: old ? { command: old, args: [] } : null,
    model: 'gpt-5.3-codex',
  },
  {
    name: '@agentclientprotocol/codex-acp',
    asks: 'by-mode',
    launch: renamedLaunch(),
    model: 'gpt-5.5',
  },
];

for (const pkg of CODEX_PACKAGES) {
  if (!pkg.launch)
    console.warn(
      `${pkg.name} tests skipped: nothing to run on ${process.platform}-${process.arch}`,
    );
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
 * provider at `modelUrl`, no update check. The old package gets `untrusted` approvals (it asks for
 * every non-trivial command and every patch) and no sandbox of its own; the renamed one keeps its
 * defaults, mode and sandbox included, as a person's would.
 */
export function prepareCodex(chosen: CodexPackage, modelUrl: string): PreparedCodex {
  if (!chosen.launch) throw new Error(`${chosen.name} is not installed for this platform`);
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-codex-home-'));
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const policy =
    chosen.asks === 'by-policy'
      ? ['approval_policy = "untrusted"', 'sandbox_mode = "danger-full-access"']
      : [];
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      `model = "${chosen.model}"`,
      'model_provider = "fake"',
      ...policy,
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
    command: chosen.launch.command,
    args: [...chosen.launch.args],
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      CODEX_HOME: codexHome,
      FAKE_OPENAI_KEY: 'fake-key',
      LANG: 'C.UTF-8',
      NO_PROXY: '127.0.0.1,localhost',
      // The renamed adapter offers a ChatGPT sign-in that opens a browser unless told not to.
      NO_BROWSER: '1',
    },
    home,
    cleanup() {
      if (cleaned) return;
      cleaned = true;
      rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
