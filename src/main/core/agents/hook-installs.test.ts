// The record of hook installs: kept whole through a rename, bounded, and read as nothing but what
// install wrote; a record someone else shaped is refused, by the CLI before it writes anything.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkHookInstalls,
  forgetHookInstall,
  hookInstallsPath,
  MAX_HOOK_INSTALLS,
  readHookInstalls,
  recordHookInstall,
  type HookInstall,
} from './hook-installs';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
const freshHome = () => {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-hook-installs-'));
  homes.push(home);
  return home;
};
const install = (file: string, extra: Partial<HookInstall> = {}): HookInstall => ({
  cli: 'claude-code',
  scope: 'project',
  file,
  project: '/p',
  entry: '/opt/gatehouse/bin/gatehouse.mjs',
  installedAt: 5,
  baseline: { mode: null, otherHooks: [] },
  ...extra,
});

describe('the record of hook installs', () => {
  it('a missing record is no installs; installs are added, replaced by CLI and file, forgotten', () => {
    const home = freshHome();
    expect(readHookInstalls(home)).toEqual({ installs: [] });
    recordHookInstall(home, install('/p/.claude/settings.json'));
    recordHookInstall(home, install('/p/.claude/settings.json', { installedAt: 6 }));
    recordHookInstall(home, install('/p/.gemini/settings.json', { cli: 'gemini' }));
    const read = readHookInstalls(home);
    expect('installs' in read && read.installs.map((one) => [one.cli, one.installedAt])).toEqual([
      ['claude-code', 6],
      ['gemini', 5],
    ]);
    expect(forgetHookInstall(home, 'claude-code', '/p/.claude/settings.json')?.installedAt).toBe(6);
    expect(forgetHookInstall(home, 'claude-code', '/p/.claude/settings.json')).toBeNull();
  });

  it('a record shaped by someone else is unreadable, and install refuses to write over it', () => {
    const home = freshHome();
    const cases = [
      '{ "version": 1, "installs": [',
      JSON.stringify({ version: 1, installs: [{ ...install('relative/settings.json') }] }),
      JSON.stringify({ version: 1, installs: [{ ...install('/a'), command: 'sh evil' }] }),
      JSON.stringify({ version: 2, installs: [] }),
      'x'.repeat(200 * 1024),
    ];
    for (const text of cases) {
      writeFileSync(hookInstallsPath(home), text);
      expect(readHookInstalls(home)).toHaveProperty('unreadable');
      expect(() => checkHookInstalls(home, 'gemini', '/p/.gemini/settings.json')).toThrow(
        /fix or remove it/,
      );
    }
    rmSync(hookInstallsPath(home));
    mkdirSync(hookInstallsPath(home));
    expect(readHookInstalls(home)).toHaveProperty('unreadable');
  });

  it(`holds at most ${MAX_HOOK_INSTALLS} files`, () => {
    const home = freshHome();
    for (let i = 0; i < MAX_HOOK_INSTALLS; i += 1)
      recordHookInstall(home, install(`/p${i}/s.json`));
    expect(() => recordHookInstall(home, install('/one-more/s.json'))).toThrow(/at most 64/);
    // One already there is replaced, not added.
    expect(() => recordHookInstall(home, install('/p0/s.json', { installedAt: 9 }))).not.toThrow();
  });
});
