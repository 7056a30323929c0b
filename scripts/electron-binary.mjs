// Where the Electron binary is, without triggering electron's lazy download (no network here), and
// what `npm start` says where there is none.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The folder of the electron package (node_modules/electron), or null where it is not installed. */
export function electronPackageDir() {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/**
 * The binary: GATEHOUSE_ELECTRON where it names a file, otherwise the one the electron package
 * unpacked (path.txt names it inside dist/), otherwise null.
 */
export function electronBinary({ env = process.env, packageDir = electronPackageDir() } = {}) {
  if (env.GATEHOUSE_ELECTRON && existsSync(env.GATEHOUSE_ELECTRON)) return env.GATEHOUSE_ELECTRON;
  if (!packageDir) return null;
  try {
    const pathFile = join(packageDir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/**
 * What `npm start` says where there is no binary. The electron package fetches its binary only when
 * something requires it, which electron-vite never does: `npm install` and `npm start` fetch nothing.
 */
export const MISSING_ELECTRON = [
  'Gatehouse cannot start the desktop app: there is no Electron binary in node_modules/electron',
  '(npm install does not fetch it).',
  '',
  'Run the same app in your browser instead, with no Electron:',
  '  npm run headless',
  '',
  'Or fetch the Electron binary once (about 100 MB from GitHub; ELECTRON_MIRROR names a mirror),',
  'then npm start again:',
  '  npx install-electron',
  '',
  'Or point GATEHOUSE_ELECTRON at an Electron binary you have.',
].join('\n');

/** electron-vite's command, run with this node (its package exports only its package.json). */
export function electronViteBin(require) {
  const manifest = require.resolve('electron-vite/package.json');
  return join(dirname(manifest), require(manifest).bin['electron-vite']);
}
