import './scripts/require-node.mjs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The skips reporter lists, after the summary, the tests skipped for a tool this machine lacks.
    reporters: ['default', './test/skips-reporter.ts'],
    // One test file per core (vitest's default keeps one core free): e2e files spend much of their time
    // waiting on the processes they start, so on a 2-core machine one worker left a core idle.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/sim/**/*.test.ts'] } },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // The in-process runs load the build as Node does (test/e2e/harness.ts), not through vitest's
          // transform: the program the binary runs, at a third of the cost of transforming it per file.
          server: { deps: { external: [/\/dist\/(cli|chunks\/.*)\.js$/] } },
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
