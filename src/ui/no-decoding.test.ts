// The page never decodes: nothing the UI imports (as a value, transitively) reaches a decoder.
// The worker is started by URL, not imported, so it is the only way to the core's decoders.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const DECODERS = ['src/core/cbor/', 'src/core/agdx/', 'src/core/json/', 'src/core/import/', 'src/core/inspect.ts'];
/**
 * The one reader the page may reach: the reader's own key files (the Keys dialog, the registry kept in
 * browser storage) are read on the page, strictly, by the lossless JSON reader, which sees a member
 * given twice and integers past 2^53 where JSON.parse does not (report.md "Key files"). Only through
 * the key parser: no record is decoded with it there.
 */
const KEY_FILE_JSON = 'src/core/json/lossless.ts';

/** Relative value imports of a module (type-only imports and `import type` specifiers skipped). */
function valueImports(source: string): string[] {
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of source.matchAll(re)) {
    const spec = m[4] ?? m[5] ?? m[6];
    if (m[2]) continue; // import type … / export type …
    const clause = m[3] ?? '';
    // `import { type A, type B } from` imports nothing at run time.
    if (
      /^\{[^}]*\}$/.test(clause.trim()) &&
      clause
        .replace(/[{}]/g, '')
        .split(',')
        .map((s) => s.trim())
        .every((s) => s === '' || /^type\s/.test(s))
    )
      continue;
    out.push(spec);
  }
  return out.filter((s) => s.startsWith('.'));
}

function resolveModule(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (existsSync(candidate) && !candidate.endsWith('/')) {
      try {
        readFileSync(candidate);
        return candidate;
      } catch {
        /* a directory */
      }
    }
  }
  return null;
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.tsx?$/.test(file)) continue;
    for (const spec of valueImports(readFileSync(file, 'utf8'))) {
      const target = resolveModule(file, spec);
      if (target) stack.push(target);
    }
  }
  return seen;
}

describe('the UI never decodes on the main thread', () => {
  it('reaches no decoder from the page entry', () => {
    const files = [...reachable(resolve(root, 'src/ui/main.tsx'))].map((f) => relative(root, f));
    expect(files).toContain('src/ui/App.tsx');
    const decoders = files.filter((f) => DECODERS.some((d) => f.startsWith(d)));
    expect(decoders).toEqual([KEY_FILE_JSON]);
    // Reached through the key parser alone.
    const importers = files.filter((f) =>
      valueImports(readFileSync(resolve(root, f), 'utf8')).some((spec) => resolveModule(resolve(root, f), spec) === resolve(root, KEY_FILE_JSON)),
    );
    expect(importers).toEqual(['src/core/keys/keys.ts']);
  });

  it('the import scanner sees value imports and skips type-only ones', () => {
    expect(
      valueImports(`import { a } from './x';\nimport type { B } from './y';\nimport { type C } from './z';\nimport './side';\nconst m = import('./lazy');`),
    ).toEqual(['./x', './side', './lazy']);
    // A value whose name starts with "type" is a value import.
    expect(valueImports(`import { typeOf } from './t';\nimport { type D, typeLabel } from './u';`)).toEqual(['./t', './u']);
  });

  it('would catch a decoder imported by the UI', () => {
    const worker = [...reachable(resolve(root, 'src/worker/inspector.worker.ts'))].map((f) => relative(root, f));
    expect(worker.some((f) => DECODERS.some((d) => f.startsWith(d)))).toBe(true);
  });
});
