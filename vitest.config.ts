import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Some tests walk every truncation of a fixture: room for a loaded 2-core CI machine.
    testTimeout: 30_000,
    // Every core: Vitest's default leaves one free (cores − 1), which on a 2-core CI machine ran one
    // file at a time (395 s for the suite; 273 s with both cores).
    maxWorkers: availableParallelism(),
    globalSetup: ['scripts/vitest-global-setup.mjs'],
  },
});
