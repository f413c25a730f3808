import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Each file uses its own Redis prefix and loopback ports, so files may run in parallel.
    fileParallelism: true,
    reporters: ['default'],
  },
});
