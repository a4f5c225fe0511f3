import './scripts/require-node.mjs';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The skips reporter lists, after the summary, the tests skipped for a tool this machine lacks.
    reporters: ['default', './test/skips-reporter.ts'],
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/sim/**/*.test.ts'] } },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
