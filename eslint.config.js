import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The core never imports Electron: only the desktop adapters and the preload may.
const electronOnlyHere = ['src/main/desktop/**', 'src/preload/**', 'test/electron/**'];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Electron is imported only in src/main/desktop/ and src/preload/.' }],
          patterns: [{ group: ['electron/*'], message: 'Electron is imported only in src/main/desktop/ and src/preload/.' }],
        },
      ],
    },
  },
  {
    files: electronOnlyHere,
    rules: { 'no-restricted-imports': 'off' },
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
          paths: [{ name: 'electron', message: 'The renderer talks to the core only through GatehouseApi.' }],
          patterns: [
            { group: ['node:*'], message: 'The renderer has no Node: use GatehouseApi.' },
            { group: ['**/main/**'], message: 'The renderer imports only src/shared and its own files.' },
          ],
        },
      ],
    },
  },
);
