// What the terminal-hook tests share: a headless core in its own process with a paired person,
// the hook installed into a project by the built `gatehouse`, and the one request a CLI waits on.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { startCoreProcess } from './core-process';

export const GATEHOUSE_CLI = resolve('bin/gatehouse.mjs');
const TOKEN = 'hooks-test-token';

export type Cleanup = (() => Promise<void> | void)[];

export function freshDir(cleanup: Cleanup, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `gatehouse hook <args…>` as the built command, to its end. */
export function gatehouse(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [GATEHOUSE_CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
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

export async function pendingOne(api: HttpApi) {
  await expect
    .poll(async () => (await api.call('listApprovals', {})).items.length, { timeout: 30_000 })
    .toBe(1);
  return (await api.call('listApprovals', {})).items[0]!;
}
