// `npm start` where there is no Electron binary says so and what to run instead.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronBinary, MISSING_ELECTRON } from '../../scripts/electron-binary.mjs';

const root = join(import.meta.dirname, '../..');
let packageDir: string;

beforeEach(() => {
  // An electron package as npm install leaves it: the package, no dist/, no path.txt.
  packageDir = mkdtempSync(join(tmpdir(), 'gatehouse-electron-'));
  writeFileSync(join(packageDir, 'package.json'), '{"name":"electron","version":"45.4.1"}\n');
});

afterEach(() => rmSync(packageDir, { recursive: true, force: true }));

describe('finding the Electron binary', () => {
  it('finds none in a package that was never fetched, nor one whose dist/ is gone', () => {
    expect(electronBinary({ env: {}, packageDir })).toBeNull();
    writeFileSync(join(packageDir, 'path.txt'), 'electron');
    expect(electronBinary({ env: {}, packageDir })).toBeNull();
  });

  it('finds the one path.txt names in dist/, or GATEHOUSE_ELECTRON where that is a file', () => {
    writeFileSync(join(packageDir, 'path.txt'), 'electron');
    mkdirSync(join(packageDir, 'dist'));
    writeFileSync(join(packageDir, 'dist/electron'), '');
    chmodSync(join(packageDir, 'dist/electron'), 0o755);
    expect(electronBinary({ env: {}, packageDir })).toBe(join(packageDir, 'dist/electron'));
    const own = join(packageDir, 'my-electron');
    writeFileSync(own, '');
    expect(electronBinary({ env: { GATEHOUSE_ELECTRON: own }, packageDir })).toBe(own);
    expect(
      electronBinary({ env: { GATEHOUSE_ELECTRON: join(packageDir, 'nope') }, packageDir }),
    ).toBe(join(packageDir, 'dist/electron'));
  });

  it('the message names the missing binary, npm run headless, and how to fetch Electron', () => {
    expect(MISSING_ELECTRON).toMatch(/no Electron binary/);
    expect(MISSING_ELECTRON).toMatch(/^ {2}npm run headless$/m);
    expect(MISSING_ELECTRON).toMatch(/^ {2}npx install-electron$/m);
    expect(MISSING_ELECTRON).not.toMatch(/uninstall/);
  });

  it.skipIf(electronBinary() !== null)(
    'npm start on this machine, which has none, prints that message and fails',
    () => {
      const env = { ...process.env };
      delete env.GATEHOUSE_ELECTRON;
      delete env.ELECTRON_EXEC_PATH;
      const result = spawnSync('npm', ['start', '--silent'], { cwd: root, env, encoding: 'utf8' });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(MISSING_ELECTRON);
      expect(result.stdout + result.stderr).not.toMatch(/Electron uninstall/);
    },
  );
});
