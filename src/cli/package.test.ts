// The published package: the compiled CLI runs with the package's runtime dependencies only.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  files: string[];
  bin: Record<string, string>;
};

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

describe('the published CLI', () => {
  it('imports nothing but Node built-ins and the dependencies package.json lists (no TypeScript loader)', () => {
    const code = readFileSync(resolve(ROOT, 'dist-cli/envelope-inspector.mjs'), 'utf8');
    const specs = [...code.matchAll(/(?:^|\n)\s*import\s[^'"]*?['"]([^'"]+)['"]/g)].map((m) => m[1]);
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) {
      if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      expect(Object.keys(pkg.dependencies), spec).toContain(packageOf(spec));
    }
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
  });

  it('packs its launcher, the compiled CLI and libsecp256k1', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    const files = (JSON.parse(out) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
    expect(files).toContain(pkg.bin['envelope-inspector']);
    expect(files).toContain('dist-cli/envelope-inspector.mjs');
    // libsecp256k1's WebAssembly (the compiled CLI reads it from ../vendor) and its licence.
    expect(files).toContain('vendor/libsecp256k1-wasm/secp256k1.wasm');
    expect(files).toContain('vendor/libsecp256k1-wasm/COPYING');
    expect(files.some((f) => f.startsWith('src/'))).toBe(false);
  });
});
