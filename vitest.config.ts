import { defineConfig } from 'vitest/config';

// Tests in tiers (issue 12): `npm run test:unit` is the edit loop (no Redis, no sockets, seconds);
// integration uses a real Redis and loopback servers; e2e drives Rampart through signed Slack
// requests, child processes and a browser. `npm test` runs all three.
const UNIT = [
  'test/unit/**/*.test.ts',
  'test/domain/**/*.test.ts',
  'test/config.test.ts',
  'test/log.test.ts',
  'test/manifest.test.ts',
  'test/cli/table.test.ts',
  'test/service/schemas.test.ts',
  'test/devtools/block-kit-limits.test.ts',
  'test/devtools/slack-signer.test.ts',
  'test/workbench/render.test.ts',
];
const E2E = [
  'test/e2e/**/*.test.ts',
  'test/cluster/**/*.test.ts',
  'test/workbench/browser.test.ts',
  'test/workbench/gallery.test.ts',
];

const shared = {
  testTimeout: 20_000,
  hookTimeout: 20_000,
  // Each file uses its own Redis prefix and loopback ports, so files may run in parallel.
  fileParallelism: true,
};

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      { test: { ...shared, name: 'unit', include: UNIT } },
      { test: { ...shared, name: 'integration', include: ['test/**/*.test.ts'], exclude: [...UNIT, ...E2E] } },
      { test: { ...shared, name: 'e2e', include: E2E } },
    ],
  },
});
