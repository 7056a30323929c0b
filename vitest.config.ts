import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // New unit tests sit next to the module they test.
          include: ['test/unit/**/*.test.ts', 'src/**/*.test.ts', 'test/config/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/support/audit-key-env.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/support/audit-key-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Real agent subprocesses and servers: keep files from competing for two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
