// Where the code of a process or thread the core starts is: a store thread (store/store-worker.ts),
// the agent launcher (agents/launcher-process.ts). A build puts each as `<name>.js` beside the
// bundles (the entries in out/main, shared code in out/main/chunks). From the sources (tests,
// benches, `tsx`), the entry is bundled into one file, made again only when a source changed, since
// loading it file by file through a TypeScript loader takes several times longer than the store
// takes to open, and a child process would need the loader too.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';

/** A separately started entry: its built file's name and its source, from src/main/core. */
export interface Entry {
  name: string;
  source: string;
}

export const STORE_WORKER: Entry = { name: 'store-worker', source: 'store/store-worker.ts' };
export const AGENT_LAUNCHER: Entry = {
  name: 'agent-launcher',
  source: 'agents/launcher-process.ts',
};

const fromSources = new Map<string, Promise<string>>();

export function entryFile(entry: Entry): Promise<string> {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) {
    let file = fromSources.get(entry.name);
    if (!file) {
      file = bundleSources(here, entry);
      // A failed bundle is tried again at the next start rather than remembered.
      file.catch(() => fromSources.delete(entry.name));
      fromSources.set(entry.name, file);
    }
    return file;
  }
  for (const candidate of [`./${entry.name}.js`, `../${entry.name}.js`]) {
    const file = fileURLToPath(new URL(candidate, here));
    if (existsSync(file)) return Promise.resolve(file);
  }
  return Promise.reject(new Error(`${entry.name}.js is missing beside ${fileURLToPath(here)}`));
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

async function bundleSources(here: URL, entry: Entry): Promise<string> {
  const src = fileURLToPath(new URL('../../', here));
  // Inside the project's node_modules, so the bundle's package imports resolve as the sources' do.
  const dir = fileURLToPath(new URL('../../../node_modules/.cache/gatehouse/', here));
  const file = join(dir, `${entry.name}-${sourcesStamp(src)}.mjs`);
  if (existsSync(file)) return file;
  // A development tool, named at run time so that a build never tries to bundle it.
  const tool = 'esbuild';
  const { build } = (await import(/* @vite-ignore */ tool)) as typeof Esbuild;
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./${entry.source}`, here))],
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
