import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The test files that replace or watch a module (vi.mock, vi.spyOn…): each runs with its own module
 * graph. The rest share one per worker: importing each file's modules anew was 65 s of the suite's
 * CPU (223 s in all on two cores; 127 s shared, 2026-12-07). Those files keep no state between
 * tests that another file could see: the core is pure functions, and its caches only remember answers.
 */
export const MOCKING = ['src/builds-once.test.ts', 'src/worker/made-when-asked.test.ts', 'src/ui/worker-client.test.ts', 'src/core/share/permalink.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    // Some tests walk every truncation of a fixture: room for a loaded 2-core CI machine.
    testTimeout: 30_000,
    // Every core: Vitest's default leaves one free (cores − 1), which on a 2-core CI machine ran one
    // file at a time (395 s for the suite; 273 s with both cores).
    maxWorkers: availableParallelism(),
    globalSetup: ['scripts/vitest-global-setup.mjs'],
    projects: [
      { extends: true, test: { name: 'shared', include: ['src/**/*.test.ts'], exclude: MOCKING, isolate: false } },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
    ],
  },
});
