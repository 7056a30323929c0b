// The Electron suite: runs where an Electron binary exists (GATEHOUSE_ELECTRON, set by
// scripts/test.mjs from scripts/electron-binary.mjs); every test skips with a clear line otherwise.
// Needs `npm run build` first (the app under test is out/main/index.js).
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  outputDir: '../../test-results/electron',
});
