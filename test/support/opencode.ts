// Launch recipe for a real `opencode acp` that talks only to a fake chat-completions server on
// loopback (see docs/real-agents.md and test/support/fake-chat-server.ts).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The opencode the tests run (its plugin package is seeded at the same version). */
export const OPENCODE_VERSION = '1.18.33';

export interface PrepareOpencodeOptions {
  /** Base URL of the fake chat-completions server, e.g. `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  /** From ensureOpencodeBinary(). */
  binary: string;
}

export interface PreparedOpencode {
  /** The platform binary of opencode (`opencode-<platform>-<arch>`). */
  command: string;
  args: string[];
  /** Complete environment for the child (not merged with process.env by the caller). */
  env: Record<string, string>;
  home: string;
  /** Removes the temporary HOME. Kill the process first. Idempotent. */
  cleanup(): void;
}

const PLUGIN = '@opencode-ai/plugin';

/**
 * The binary of opencode's package for this platform, installed once from the npm registry into
 * the user's cache (the package of every other platform is not on every registry, so it cannot be
 * a locked dependency). Null where the install failed: the tests that need it are skipped.
 * Blocking: call it when a test file loads, not inside a hook with a time limit.
 */
export function ensureOpencodeBinary(): string | null {
  const name = `opencode-${process.platform}-${process.arch}`;
  const prefix = join(homedir(), '.cache', 'gatehouse', `opencode-${OPENCODE_VERSION}`);
  const binary = join(prefix, 'node_modules', name, 'bin', 'opencode');
  if (existsSync(binary)) return binary;
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      `${name}@${OPENCODE_VERSION}`,
    ],
    { stdio: 'ignore', timeout: 600_000 },
  );
  if (npm.status !== 0 || !existsSync(binary)) {
    console.warn(`opencode tests skipped: could not install ${name}@${OPENCODE_VERSION}`);
    return null;
  }
  return binary;
}

function config(baseUrl: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: baseUrl, apiKey: 'fake-key' },
        models: { 'fake-model': { name: 'Fake model', tool_call: true } },
      },
    },
    // Every edit and every command asks the ACP client, as Gatehouse needs.
    permission: { edit: 'ask', bash: 'ask' },
    lsp: false,
    formatter: false,
  };
}

/**
 * opencode installs its plugin package into its config folder at start unless the folder already
 * holds it with a lock file naming it: seeded here so that nothing is fetched.
 */
function seedPlugin(configDir: string): void {
  const version = OPENCODE_VERSION;
  const dependencies = { [PLUGIN]: version };
  const pluginDir = join(configDir, 'node_modules', ...PLUGIN.split('/'));
  mkdirSync(pluginDir, { recursive: true });
  writeFileSync(join(pluginDir, 'package.json'), JSON.stringify({ name: PLUGIN, version }));
  writeFileSync(join(configDir, 'package.json'), JSON.stringify({ dependencies }));
  writeFileSync(
    join(configDir, 'package-lock.json'),
    JSON.stringify({
      name: 'opencode-config',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { dependencies },
        [`node_modules/${PLUGIN}`]: { version },
      },
    }),
  );
}

export function prepareOpencode(options: PrepareOpencodeOptions): PreparedOpencode {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-opencode-home-'));
  const xdg = {
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
  for (const dir of Object.values(xdg)) mkdirSync(join(dir, 'opencode'), { recursive: true });
  const configDir = join(xdg.XDG_CONFIG_HOME, 'opencode');
  writeFileSync(join(configDir, 'opencode.json'), JSON.stringify(config(options.baseUrl), null, 2));
  seedPlugin(configDir);
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    ...xdg,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    NO_COLOR: '1',
    // Loopback only: never let a proxy setting from the parent route the fake URL elsewhere.
    NO_PROXY: '127.0.0.1,localhost',
  };
  let cleaned = false;
  return {
    command: options.binary,
    args: ['acp'],
    env,
    home,
    cleanup() {
      if (cleaned) return;
      cleaned = true;
      rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
