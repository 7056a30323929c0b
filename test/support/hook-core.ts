// What the terminal-hook tests share: a headless core in its own process with a paired person,
// the hook installed into a project by the built `gatehouse`, and the one request a CLI waits on.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { startCoreProcess } from './core-process';
import { cleanupAfterEach, freshDir, pendingOne, type Cleanup } from './steps';

export const GATEHOUSE_CLI = resolve('bin/gatehouse.mjs');
const TOKEN = 'hooks-test-token';

export { cleanupAfterEach, freshDir, pendingOne, type Cleanup } from './steps';

/**
 * The data folder of a `gatehouse` run that names none: `hook install` records each install there,
 * and a test must never write the machine's own.
 */
let spareHome: string | undefined;
afterAll(() => {
  if (spareHome) rmSync(spareHome, { recursive: true, force: true });
  spareHome = undefined;
});

/** `gatehouse hook <args…>` as the built command, to its end. */
export function gatehouse(args: string[], env: Record<string, string> = {}) {
  spareHome ??= mkdtempSync(join(tmpdir(), 'gatehouse-cli-home-'));
  return spawnSync(process.execPath, [GATEHOUSE_CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GATEHOUSE_HOME: spareHome, ...env },
  });
}

export async function startHookCore(
  cleanup: Cleanup,
  home: string,
  settings: Record<string, unknown> = {},
) {
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  const core = await startCoreProcess(home, { GATEHOUSE_TOKEN: TOKEN });
  cleanup.push(() => core.stop('SIGKILL'));
  const url = new URL(core.url);
  const api = new HttpApi(url.origin, TOKEN);
  await api.pair(new URLSearchParams(url.hash.slice(1)).get('pair')!, 'test person');
  return api;
}

/** The hook tests run the built `gatehouse`: without a build they fail at once, saying so. */
export function requireBuiltCli(): void {
  if (!existsSync('out/main/cli.js'))
    throw new Error('not built: run `npx electron-vite build` first');
}

/**
 * A hooked CLI's suite: the built `gatehouse` checked before its first test; `setup` makes a fresh
 * HOME and project with the hook installed (`home`, `project`) and a core on them, for one test,
 * undone after it with the rest of `cleanup`.
 */
export function hookSuite(cli: 'claude-code' | 'gemini') {
  const cleanup = cleanupAfterEach();
  beforeAll(requireBuiltCli);
  const suite = {
    home: '',
    project: '',
    /** What the running test leaves, undone after it. */
    cleanup,
    async setup(settings: Record<string, unknown> = {}) {
      Object.assign(suite, hookedProject(cleanup, cli));
      return startHookCore(cleanup, suite.home, settings);
    },
  };
  return suite;
}

/** A fresh HOME and project, with Gatehouse's hook for `cli` installed in the project. */
export function hookedProject(
  cleanup: Cleanup,
  cli: 'claude-code' | 'gemini',
): { home: string; project: string } {
  const home = freshDir(cleanup, 'gatehouse-hooks-home-');
  const project = freshDir(cleanup, 'gatehouse-hooks-project-');
  expect(gatehouse(['hook', 'install', cli, '--project', project]).stdout).toMatch(/installed/);
  return { home, project };
}

/** Settings with one rule: `command`, exactly, allowed for `agent` without a person. */
export const allowExactly = (agent: string, id: string, command: string) => ({
  rules: [{ id, action: 'allow', agent, command, commandMatch: 'exact' }],
});

/**
 * What both hooked CLIs show of a write over `old line\n` in `file` with `new line\n` (`finished`
 * is the CLI's run): the request's diff is against the disk, and denied, the file is unchanged.
 */
export async function writeDiffedThenDenied(
  api: HttpApi,
  file: string,
  finished: Promise<unknown>,
) {
  const pending = await pendingOne(api);
  const detail = await api.call('approvalDetail', { requestId: pending.requestId });
  expect(detail.diffs[0]).toMatchObject({
    path: file,
    oldText: 'old line\n',
    newText: 'new line\n',
  });
  await api.call('vote', { requestId: pending.requestId, optionId: 'deny' });
  await finished;
  expect(readFileSync(file, 'utf8')).toBe('old line\n');
}
