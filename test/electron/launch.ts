// Launching the built desktop app under Playwright's _electron, each run with its own
// GATEHOUSE_HOME (settings with a scripted agent), and an Xvfb display on Linux when none is set.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron, type ElectronApplication, type Page } from '@playwright/test';
import type { TrayAction, TrayModel } from '../../src/main/presence';
import type { DeepLink } from '../../src/main/desktop/deep-link';
import { scriptedAgentLaunch, type ScriptedAgentScript } from '../support/agents/scripted-agent';

export const ROOT = resolve(import.meta.dirname, '../..');
export const MAIN = join(ROOT, 'out/main/index.js');
export const binary = process.env.GATEHOUSE_ELECTRON;

/** What src/main/desktop/app.ts exposes on globalThis.__gatehouse with GATEHOUSE_TEST_HOOKS=1. */
export interface Hooks {
  tray(): TrayModel | null;
  pending(): string[];
  secondInstances(): number;
  lastLink(): DeepLink | null;
  paused(): boolean;
  perform(action: TrayAction): Promise<void>;
  windows(): Array<{ url: string; visible: boolean; focused: boolean }>;
}

/** Chromium refuses to run as root without --no-sandbox (CI containers); the renderer sandbox flag stays on. */
const chromiumArgs = () => (process.getuid?.() === 0 ? ['--no-sandbox'] : []);

export interface Home {
  home: string;
  folder: string;
  agentLog: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function prepareHome(script: ScriptedAgentScript, display: string | undefined): Home {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-electron-home-')));
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-electron-work-')));
  const agentLog = join(home, 'agent.jsonl');
  const launch = scriptedAgentLaunch(script, { logFile: agentLog });
  const agentEnv = Object.fromEntries(
    Object.entries(launch.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify(
      {
        agents: {
          scripted: { name: 'Scripted', command: launch.command, args: launch.args, env: agentEnv },
        },
      },
      null,
      2,
    ),
  );
  const env: Record<string, string> = {
    ...(Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ) as Record<string, string>),
    GATEHOUSE_HOME: home,
    GATEHOUSE_TEST_HOOKS: '1',
    ...(display ? { DISPLAY: display } : {}),
  };
  delete env.ELECTRON_RUN_AS_NODE;
  return {
    home,
    folder,
    agentLog,
    env,
    cleanup() {
      rmSync(home, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export async function launchApp(
  home: Home,
  extraArgs: string[] = [],
): Promise<{ app: ElectronApplication; page: Page }> {
  if (!existsSync(MAIN))
    throw new Error(`${MAIN} is missing: run \`npm run build\` before the Electron suite`);
  const app = await _electron.launch({
    executablePath: binary!,
    args: [...chromiumArgs(), MAIN, ...extraArgs],
    cwd: ROOT,
    env: home.env,
  });
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return { app, page };
}

/** A second launch of the same app (same home): it must hand over to the first and exit. */
export function secondInstance(home: Home, extraArgs: string[]): ChildProcess {
  return spawn(binary!, [...chromiumArgs(), MAIN, ...extraArgs], {
    cwd: ROOT,
    env: home.env,
    stdio: 'ignore',
  });
}

/** Calls a test hook of the running app's main process. */
export function hook<K extends keyof Hooks>(
  app: ElectronApplication,
  name: K,
  ...args: Parameters<Hooks[K]>
): Promise<Awaited<ReturnType<Hooks[K]>>> {
  return app.evaluate(
    (_electron, [method, params]) => {
      const all = (
        globalThis as unknown as { __gatehouse: Record<string, (...a: unknown[]) => unknown> }
      ).__gatehouse;
      return all[method]!(...params) as Awaited<ReturnType<Hooks[K]>>;
    },
    [name, args as unknown[]] as const,
  );
}

/** An Xvfb display for Linux machines without one; null elsewhere or when DISPLAY is set. */
export async function startXvfb(): Promise<{ display: string; stop(): Promise<void> } | null> {
  if (process.platform !== 'linux' || process.env.DISPLAY) return null;
  const xvfb = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    },
  );
  const display = await new Promise<string>((resolvePromise, reject) => {
    let out = '';
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolvePromise(`:${out.trim()}`);
    });
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
  return {
    display,
    stop: () =>
      new Promise<void>((done) => {
        if (xvfb.exitCode !== null) return done();
        xvfb.once('exit', () => done());
        xvfb.kill('SIGTERM');
      }),
  };
}
