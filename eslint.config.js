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
          zones: layers.map(({ layer, mayImport, why }) => ({
            target: layer,
            from: 'src',
            except: mayImport.map((folder) => `./${folder}`),
            message: `Layers: ${why}`,
          })),
        },
      ],
      // Type-only imports are erased at build and do not make a cycle.
      'import-x/no-cycle': 'error',
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
);
