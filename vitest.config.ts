import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Some tests walk every truncation of a fixture: room for a loaded 2-core CI machine.
    testTimeout: 30_000,
    globalSetup: ['scripts/vitest-global-setup.mjs'],
  },
});
