// Packaging config checked offline: electron-builder's own loader and schema validation (the step
// `electron-builder` runs before it downloads anything), plus what Gatehouse needs of it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
// electron-builder's config loader and validator (app-builder-lib, installed with electron-builder).
/** The parts of electron-builder's Configuration this test reads. */
interface BuilderConfig {
  appId: string;
  asar: boolean;
  npmRebuild: boolean;
  asarUnpack: string[];
  files: Array<{ filter: string[] }>;
  electronFuses: Record<string, boolean>;
  protocols: unknown;
  mac: { target: Array<{ target: string }>; hardenedRuntime: boolean; entitlements: string };
  win: { target: Array<{ target: string }> };
  linux: { target: string[] };
}
const { getConfig, validateConfiguration } =
  require('app-builder-lib/out/util/config/config.js') as {
    getConfig(
      projectDir: string,
      configPath: string | null,
      fromOptions: unknown,
    ): Promise<BuilderConfig>;
    validateConfiguration(config: unknown, logger: unknown): Promise<void>;
  };
const { DebugLogger } = require('builder-util') as {
  DebugLogger: new (enabled: boolean) => unknown;
};

const load = () => getConfig(root, join(root, 'electron-builder.yml'), null);
const validate = (config: unknown) => validateConfiguration(config, new DebugLogger(false));

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(file: string): [number, number] {
  const data = readFileSync(file);
  expect(data.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [data.readUInt32BE(16), data.readUInt32BE(20)];
}

// Loading app-builder-lib and compiling its schema takes seconds on a busy machine.
describe('electron-builder.yml', { timeout: 60_000 }, () => {
  it("passes electron-builder's schema validation", async () => {
    await expect(validate(await load())).resolves.toBeUndefined();
  });

  it('the validator really validates (a misspelled fuse is refused)', async () => {
    const config = await load();
    await expect(
      validate({ ...config, electronFuses: { ...config.electronFuses, runAsNod: false } }),
    ).rejects.toThrow(/electronFuses/);
  });

  it('sets the fuses: no RunAsNode, no NODE_OPTIONS, no --inspect, asar integrity, asar only, cookie encryption', async () => {
    expect((await load()).electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('unpacks better-sqlite3 and the tree-sitter wasm files from asar, and rebuilds nothing', async () => {
    const config = await load();
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
    const unpacked = picomatch(config.asarUnpack as string[]);
    const native = readdirSync(join(root, 'node_modules/better-sqlite3/prebuilds')).map(
      (f) => `node_modules/better-sqlite3/prebuilds/${f}`,
    );
    expect(native.length).toBeGreaterThan(0);
    for (const file of [
      ...native,
      'node_modules/web-tree-sitter/web-tree-sitter.wasm',
      'node_modules/tree-sitter-bash/tree-sitter-bash.wasm',
    ]) {
      expect(existsSync(join(root, file)), file).toBe(true);
      expect(unpacked(file), file).toBe(true);
    }
    expect(unpacked('node_modules/zod/index.js')).toBe(false);
  });

  it('packages the build output and the tray icons the main process loads', async () => {
    // electron-builder's semantics: included by a pattern, then excluded by any "!" pattern.
    const [{ filter }] = (await load()).files as [{ filter: string[] }];
    const include = picomatch(filter.filter((p) => !p.startsWith('!')));
    const exclude = picomatch(filter.filter((p) => p.startsWith('!')).map((p) => p.slice(1)));
    const files = (file: string) => include(file) && !exclude(file);
    expect(files('out/main/index.js.map')).toBe(false);
    expect(exclude('node_modules/better-sqlite3/src/better_sqlite3.cpp')).toBe(true);
    expect(exclude('node_modules/better-sqlite3/prebuilds/linux-x64.node')).toBe(false);
    expect(exclude('node_modules/tree-sitter-bash/tree-sitter-bash.wasm')).toBe(false);
    for (const file of [
      'out/main/index.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'package.json',
    ]) {
      expect(files(file), file).toBe(true);
    }
    for (const icon of [
      'tray.png',
      'tray-pending.png',
      'trayTemplate.png',
      'overlay-badge.png',
      'icon.png',
    ]) {
      expect(files(`resources/${icon}`), icon).toBe(true);
      expect(existsSync(join(root, 'resources', icon)), icon).toBe(true);
    }
  });

  it('targets macOS dmg (hardened runtime, entitlements), Windows nsis, Linux AppImage and deb, gatehouse://', async () => {
    const config = await load();
    expect(config.appId).toBe('dev.gatehouse.app');
    expect(config.mac.target.map((t: { target: string }) => t.target)).toEqual(['dmg']);
    expect(config.mac.hardenedRuntime).toBe(true);
    const entitlements = readFileSync(join(root, config.mac.entitlements), 'utf8');
    expect(entitlements).toContain('com.apple.security.cs.allow-jit');
    expect(entitlements).not.toContain('disable-library-validation');
    expect(config.win.target.map((t: { target: string }) => t.target)).toEqual(['nsis']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.protocols).toEqual([{ name: 'Gatehouse', schemes: ['gatehouse'] }]);
  });

  it('has the app icon (1024 px) and the Linux icon set, and tray icons at 1x and 2x', async () => {
    expect(pngSize(join(root, 'resources/icon.png'))).toEqual([1024, 1024]);
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      expect(pngSize(join(root, `resources/icons/${size}x${size}.png`))).toEqual([size, size]);
    }
    for (const name of ['tray', 'tray-pending', 'trayTemplate', 'overlay-badge']) {
      expect(pngSize(join(root, `resources/${name}.png`))).toEqual([16, 16]);
      expect(pngSize(join(root, `resources/${name}@2x.png`))).toEqual([32, 32]);
      expect(existsSync(join(root, `resources/${name}.svg`))).toBe(true);
    }
  });

  it('npm run package builds then packages', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.package).toBe('electron-vite build && electron-builder');
  });
});
