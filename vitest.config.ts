import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Unit tests sit beside the unit they test; test/config checks the root's config files.
          include: ['src/**/*.test.ts', 'test/config/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/audit-key-env.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/audit-key-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Real agent subprocesses and servers, two files at a time: together they keep 1.15–1.2 of
          // two cores busy; three at a time gained 6 % (604 s against 642 s) for a heavier load on
          // everything the tests wait for.
          maxWorkers: 2,
        },
      },
    ],
  },
});
