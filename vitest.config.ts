import './scripts/require-node.mjs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The skips reporter lists, after the summary, the tests skipped for a tool this machine lacks.
    reporters: ['default', './test/skips-reporter.ts'],
    // Two test files per core: e2e files spend much of their time waiting (on a sandbox, a child process, a
    // deliberate pause), so one worker per core leaves the cores idle (docs/architecture.md has the figures).
    maxWorkers: Math.max(4, 2 * availableParallelism()),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/sim/**/*.test.ts'],
          // Property tests and the simulation run a bounded number of cases; their time is the machine's
          // load, not a finding, so the limit is far above an idle run (vitest's 5 s default failed six of
          // them on a busy 2-core machine).
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // The in-process runs require the build as Node does (test/e2e/payctl.ts), never through vitest's
          // transform: the program the binary runs, at a third of the cost of transforming it per file.
          server: { deps: { external: [/\/dist\/.*\.cjs$/] } },
          // A worker's test files share its modules (the harness, and the build loaded once), not a fresh
          // process each: no e2e file keeps state another relies on (each starts its own sandboxes and
          // homes), and it saves CPU (docs/architecture.md has the figures).
          isolate: false,
          globalSetup: ['test/e2e/global-setup.ts'],
          // A guard against a hang, not a speed target: a busy machine runs an e2e test several times slower.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
