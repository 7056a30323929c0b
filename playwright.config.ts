import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium: Playwright never downloads a browser here. */
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    return '/usr/bin/chromium';
  }
}

export default defineConfig({
  testDir: 'test/e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  outputDir: 'test-results/e2e',
  use: {
    // A step that hangs fails on its own, with what it waited for, well before the test's bound.
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1200, height: 900 },
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
