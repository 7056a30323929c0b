// Where the Electron binary is, without triggering electron's lazy download (no network here).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function electronBinary() {
  if (process.env.GATEHOUSE_ELECTRON && existsSync(process.env.GATEHOUSE_ELECTRON)) {
    return process.env.GATEHOUSE_ELECTRON;
  }
  try {
    const dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}
