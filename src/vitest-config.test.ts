// Most test files share their modules within a worker (vitest.config.ts): a file that replaces or
// watches a module must run with its own, so it must be on the config's list.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCKING } from '../vitest.config';

const root = resolve(__dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [relative(root, join(dir, e.name))] : [],
  );
}

describe('the unit tests config', () => {
  it('runs every file that replaces or watches a module (vi.mock, vi.spyOn…) with modules of its own, and only those', () => {
    // (This file names the calls, it makes none.)
    const mocking = testFiles(join(root, 'src')).filter(
      (f) =>
        f !== 'src/vitest-config.test.ts' &&
        /\bvi\.(mock|doMock|unmock|spyOn|stubGlobal|stubEnv|useFakeTimers|resetModules)\b/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(mocking.length).toBeGreaterThan(0);
    expect([...mocking].sort()).toEqual([...MOCKING].sort());
  });
});
