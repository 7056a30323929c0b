// Launch recipe for a real `gemini --acp` that talks only to a fake model server on loopback
// (see docs/real-agents.md and test/support/fake-model-server.ts).

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface PrepareGeminiOptions {
  /** Base URL of the fake model server, e.g. `http://127.0.0.1:41234`. */
  modelUrl: string;
  /** Model name put into the settings (a concrete model skips the routing classifier call). */
  model?: string;
  /**
   * Directory for V8's compile cache (NODE_COMPILE_CACHE), shared by every run: loading Gemini's
   * bundle is most of its startup. Default: `<tmpdir>/gatehouse-gemini-compile-cache`; false: off.
   */
  compileCache?: string | false;
  /** Extra settings merged (shallowly, per top-level key) over the defaults below. */
  settings?: Record<string, unknown>;
}

export interface PreparedGemini {
  /** `process.execPath`. */
  command: string;
  /** `[<@google/gemini-cli bin entry>, '--acp']`. */
  args: string[];
  /** Complete environment for the child (not merged with process.env by the caller). */
  env: NodeJS.ProcessEnv;
  /** The isolated HOME (also GEMINI_CLI_HOME); `$HOME/.gemini/settings.json` lives there. */
  home: string;
  /** Removes the temporary HOME. Kill the process first. Idempotent. */
  cleanup(): void;
}

export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash';

/** Absolute path of the JS file that `gemini` runs, read from the package's own `bin`. */
export function resolveGeminiEntry(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@google/gemini-cli/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.['gemini'];
  if (!bin) throw new Error(`@google/gemini-cli declares no gemini bin in ${manifestPath}`);
  return join(dirname(manifestPath), bin);
}

function geminiSettings(model: string): Record<string, unknown> {
  return {
    // Nothing leaves the machine, nothing asks interactively.
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    // Auth: GOOGLE_GEMINI_BASE_URL selects gateway auth at session/new; setting
    // security.auth.selectedType to 'gateway' here makes startup log "Invalid auth method".
    security: { folderTrust: { enabled: false } },
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      checkpointing: { enabled: false },
      sessionRetention: { enabled: false },
    },
    ide: { enabled: false, hasSeenNudge: true },
    // A concrete model: no routing classifier call before each turn.
    model: { name: model },
    // Startup: no memory-based relaunch, no skills or extensions to discover.
    advanced: { autoConfigureMemory: false },
    skills: { enabled: false },
    tools: { useRipgrep: false },
    experimental: { autoMemory: false },
  };
}

export function prepareGemini(options: PrepareGeminiOptions): PreparedGemini {
  const model = options.model ?? DEFAULT_GEMINI_MODEL;
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-gemini-home-'));
  const geminiDir = join(home, '.gemini');
  mkdirSync(geminiDir, { recursive: true });
  const settings = { ...geminiSettings(model), ...options.settings };
  writeFileSync(join(geminiDir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);

  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    USERPROFILE: home,
    GEMINI_CLI_HOME: home,
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    GEMINI_API_KEY: 'fake-key',
    GOOGLE_GEMINI_BASE_URL: options.modelUrl,
    // One process instead of a launcher that relaunches itself as a child with a bigger heap: starts
    // faster, and the launcher ignores SIGTERM/SIGINT/SIGHUP, so killing the pid we spawned would
    // leave the real agent running.
    GEMINI_CLI_NO_RELAUNCH: 'true',
    NO_COLOR: '1',
    NO_BROWSER: 'true',
    // Loopback only: never let a proxy setting from the parent route the fake URL elsewhere.
    NO_PROXY: '127.0.0.1,localhost',
  };
  const compileCache = options.compileCache ?? join(tmpdir(), 'gatehouse-gemini-compile-cache');
  if (compileCache !== false) env['NODE_COMPILE_CACHE'] = compileCache;
  let cleaned = false;
  return {
    command: process.execPath,
    args: [resolveGeminiEntry(), '--acp'],
    env,
    home,
    cleanup() {
      if (cleaned) return;
      cleaned = true;
      rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
