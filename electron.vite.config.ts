import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      // The pure-JS packages the start loads are bundled: left outside, each is resolved and
      // compiled file by file from node_modules (zod 95 files, the ACP SDK 107, uuid 20), which cost
      // the start more than their code does. The ACP SDK is bundled with them so that it uses the
      // same zod, not a second copy. fflate stays outside: its own `require` clashes with the
      // bundle's CommonJS shim.
      externalizeDeps: { exclude: ['zod', 'uuid', '@agentclientprotocol/sdk', 'picomatch'] },
      rollupOptions: {
        // A module of src/ does nothing on load that another relies on (none is imported for its
        // side effects alone): one whose exports a chunk does not use is left out of it. So the
        // headless entry loads what listening needs, and the rest of the core (its zod schemas,
        // the ACP SDK, SQLite's threads) comes through core-start's import() once it listens.
        treeshake: {
          moduleSideEffects: (id: string, external: boolean) =>
            external || !id.includes('/src/') ? undefined : false,
        },
        // Two entries over one core, the desktop app and the headless server, the `gatehouse`
        // command that talks to whichever runs (plain Node, bin/gatehouse.mjs), the store's
        // threads and the agent launcher's process, which the core starts from the files beside
        // its bundle (core/entry-file.ts).
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          headless: resolve(import.meta.dirname, 'src/main/headless.ts'),
          cli: resolve(import.meta.dirname, 'src/cli/main.ts'),
          'store-worker': resolve(import.meta.dirname, 'src/main/core/store/store-worker.ts'),
          'agent-launcher': resolve(
            import.meta.dirname,
            'src/main/core/agents/launcher-process.ts',
          ),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot require node_modules at run time: bundle zod and the
      // contract into one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      // The headless server sends this build to browsers and phones: minified, the first screen's
      // code is 0.6 MB where it was 2.0 (the diff's drawing loads apart, diff/load.ts).
      minify: true,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') },
      },
    },
  },
});
