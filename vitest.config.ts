import { defineConfig } from 'vitest/config';

// Tests in tiers, and the folder decides the tier: `npm run test:unit` is
// the edit loop (test/unit/**: no Redis, no sockets, seconds); e2e drives Rampart through signed
// Slack requests, child processes, clusters and a browser; everything else is integration (a real
// Redis and loopback servers). `npm test` runs all three.
const UNIT = ['test/unit/**/*.test.ts'];
const E2E = ['test/e2e/**/*.test.ts', 'test/cluster/**/*.test.ts', 'test/workbench/**/*.test.ts'];

const shared = {
  testTimeout: 20_000,
  hookTimeout: 20_000,
  // Each file uses its own Redis prefix and loopback ports, so files may run in parallel.
  fileParallelism: true,
};

export default defineConfig({
  test: {
    reporters: ['default'],
    // Keeps each module's transform on disk (node_modules/.experimental-vitest-cache), keyed by its
    // content and the config, cleared when the lockfile changes: a rerun skips most of the transform.
    experimental: { fsModuleCache: true },
    projects: [
      // Pure tests share threads without per-file isolation: importing the modules once is most
      // of the tier's time. Unit files must leave no global state behind. One worker (the default
      // on two cores): a second imports the modules again, for about 18% more CPU and, measured on
      // two cores, no shorter wall time.
      { test: { ...shared, name: 'unit', include: UNIT, pool: 'threads', isolate: false } },
      { test: { ...shared, name: 'integration', include: ['test/**/*.test.ts'], exclude: [...UNIT, ...E2E] } },
      { test: { ...shared, name: 'e2e', include: E2E } },
    ],
  },
});
