// Where a store thread's code is. A build puts `store-worker.js` beside the bundles (the entries in
// out/main, shared code in out/main/chunks). From the sources (tests, benches, `tsx`), the thread's
// code is bundled into one file, made again only when a source changed, since loading it file by file
// through a TypeScript loader takes several times longer than the whole store takes to open.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';

let fromSources: Promise<string> | null = null;

export function storeWorkerFile(): Promise<string> {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) return (fromSources ??= bundleSources(here));
  for (const candidate of ['./store-worker.js', '../store-worker.js']) {
    const file = fileURLToPath(new URL(candidate, here));
    if (existsSync(file)) return Promise.resolve(file);
  }
  return Promise.reject(new Error(`the store thread's code, store-worker.js, is missing beside ${fileURLToPath(here)}`));
}

/** The sources' names, sizes and times: a bundle made from the same ones is the same bundle. */
function sourcesStamp(src: string): string {
  const hash = createHash('sha256');
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const { size, mtimeMs } = statSync(file);
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function bundleSources(here: URL): Promise<string> {
  const src = fileURLToPath(new URL('../../../', here));
  // Inside the project's node_modules, so the bundle's package imports resolve as the sources' do.
  const dir = fileURLToPath(new URL('../../../../node_modules/.cache/gatehouse/', here));
  const file = join(dir, `store-worker-${sourcesStamp(src)}.mjs`);
  if (existsSync(file)) return file;
  // A development tool, named at run time so that a build never tries to bundle it.
  const tool = 'esbuild';
  const { build } = (await import(/* @vite-ignore */ tool)) as typeof Esbuild;
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./store-worker.ts', here))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, result.outputFiles[0]!.text);
  renameSync(partial, file);
  return file;
}
