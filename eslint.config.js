import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

// The core never imports Electron: only the desktop adapters and the preload may.
const electronOnlyHere = ['src/main/desktop/**', 'src/preload/**', 'test/electron/**'];

/**
 * The layers (as VS Code keeps its own): each folder of src/ names the folders it may import from;
 * an import from anywhere else in src/ is an error. Packages are not layers (Electron is kept out of
 * the core by no-restricted-imports below).
 */
const layers = [
  {
    layer: 'src/shared',
    mayImport: ['shared'],
    why: 'src/shared imports nothing of main or renderer.',
  },
  {
    layer: 'src/main/core',
    mayImport: ['shared', 'main/core'],
    why: 'the core imports only src/shared and the core.',
  },
  {
    layer: 'src/main/server',
    mayImport: ['shared', 'main/core', 'main/server'],
    why: 'the server imports only src/shared and the core.',
  },
  {
    layer: 'src/main/control',
    mayImport: ['shared', 'main/core', 'main/control'],
    why: 'the control socket imports only src/shared and the core.',
  },
  {
    layer: 'src/cli',
    mayImport: ['shared', 'main/core', 'main/control', 'cli'],
    why: 'the gatehouse command imports only src/shared, the core and the control socket it speaks to.',
  },
  {
    layer: 'src/main/presence',
    mayImport: ['shared', 'main/core', 'main/presence'],
    why: 'presence imports only src/shared and the core.',
  },
  {
    layer: 'src/main/desktop',
    mayImport: ['shared', 'main/core', 'main/presence', 'main/control', 'main/desktop'],
    why: 'the desktop imports only src/shared, the core, presence and the control socket.',
  },
  {
    layer: ['src/main/index.ts', 'src/main/headless.ts'],
    mayImport: ['shared', 'main'],
    why: 'an entry imports only src/main and src/shared.',
  },
  {
    layer: 'src/preload',
    mayImport: ['shared', 'preload'],
    why: 'the preload imports only src/shared.',
  },
  {
    layer: 'src/renderer',
    mayImport: ['shared', 'renderer'],
    why: 'the renderer imports only src/shared and its own files.',
  },
];

/**
 * The floors inside the core, lowest first. A room imports only rooms on floors below its own
 * (and itself): no two rooms import each other, and what decides never reaches up into what runs
 * agents or answers commands. core.ts composes them all, core-start.ts starts it for an entry;
 * index.ts is what the layers above see.
 */
const coreFloors = [
  {
    floor: 'ground',
    rooms: [
      'log',
      'fs',
      'errors.ts',
      'entry-file.ts',
      'ids.ts',
      'node-flags.ts',
      'home-lock.ts',
      'process-identity.ts',
    ],
  },
  { floor: 'judgement and record', rooms: ['mediator', 'rules', 'events', 'store'] },
  { floor: 'what a request is made of', rooms: ['safety', 'config', 'telemetry', 'sandbox'] },
  { floor: 'the request path', rooms: ['approvals', 'transcripts', 'support', 'preview'] },
  { floor: 'agents', rooms: ['agents'] },
  { floor: 'what allowed requests did', rooms: ['effects'] },
  { floor: 'commands', rooms: ['commands'] },
  { floor: 'composition', rooms: ['core.ts'] },
  { floor: 'the start', rooms: ['core-start.ts'] },
  { floor: 'the door', rooms: ['index.ts'] },
];

const floorZones = coreFloors.flatMap(({ floor, rooms }, level) =>
  rooms.flatMap((room) => {
    const atOrAbove = coreFloors
      .slice(level)
      .flatMap((f) => f.rooms)
      .filter((other) => other !== room);
    if (atOrAbove.length === 0) return [];
    return {
      target: `src/main/core/${room}`,
      from: atOrAbove.map((other) => `src/main/core/${other}`),
      message: `Floors: ${room} is on the core's floor "${floor}" and imports only from the floors below it.`,
    };
  }),
);

/**
 * Rooms that judge without touching the world: no file system, processes, network or threads.
 * Paths are computed (node:path), hashes too (node:crypto); the disk is read below, in fs/.
 */
const pureRooms = [
  'src/main/core/mediator/**',
  'src/main/core/rules/**',
  'src/main/core/safety/**',
];
const worldModules = [
  'fs',
  'fs/promises',
  'os',
  'child_process',
  'net',
  'http',
  'https',
  'http2',
  'dgram',
  'dns',
  'tls',
  'worker_threads',
  'cluster',
  'readline',
  'process',
];

/**
 * Unit tests sit beside their units; what several tests of one room share sits beside them as
 * `*.test-support.ts` (vitest takes only `*.test.ts` for a test, and no entry of the build imports
 * either).
 */
const testFiles = ['**/*.test.ts', '**/*.test-support.ts'];

/** The layers above the core see it through its index alone. */
const throughCoreIndex = [
  'src/main/server',
  'src/main/control',
  'src/main/presence',
  'src/main/desktop',
  'src/cli',
  'src/main/index.ts',
  'src/main/headless.ts',
];

const layerZones = [
  ...layers.map(({ layer, mayImport, why }) => ({
    target: layer,
    from: 'src',
    except: mayImport.map((folder) => `./${folder}`),
    message: `Layers: ${why}`,
  })),
  ...throughCoreIndex.map((target) => ({
    target,
    from: 'src/main/core',
    except: ['./index.ts'],
    message: 'Layers: the layers above the core import it through src/main/core/index.ts only.',
  })),
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'Electron is imported only in src/main/desktop/ and src/preload/.',
            },
          ],
          patterns: [
            {
              group: ['electron/*'],
              message: 'Electron is imported only in src/main/desktop/ and src/preload/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: electronOnlyHere,
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: layerZones,
        },
      ],
      // Type-only imports are erased at build and do not make a cycle.
      'import-x/no-cycle': 'error',
    },
  },
  {
    // A test beside its unit may compose rooms of any floor to set up what it checks.
    files: ['src/main/core/**/*.ts'],
    ignores: testFiles,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [...layerZones, ...floorZones] },
      ],
    },
  },
  {
    files: pureRooms,
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'Electron is imported only in src/main/desktop/ and src/preload/.',
            },
            ...worldModules.flatMap((name) =>
              [name, `node:${name}`].map((spec) => ({
                name: spec,
                message: `Pure rooms (mediator, rules, safety) do not touch the world: ${spec} belongs in fs/ or above.`,
              })),
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'The renderer talks to the core only through GatehouseApi.',
            },
          ],
          patterns: [{ group: ['node:*'], message: 'The renderer has no Node: use GatehouseApi.' }],
        },
      ],
    },
  },
  {
    // A test composes whatever layers and rooms it needs to set up what it checks (a desktop test
    // serves files as the server does, a presence test builds requests from the core's rooms): the
    // layers and floors hold what ships, and tests do not ship.
    files: testFiles.map((glob) => `src/${glob}`),
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
);
