// The shape of the code (docs/design.md, "Layers"): no two files under src/ import each other,
// directly or around a circle, type-only imports and re-exports included; no two folders either
// (src/core/log and src/core/graph, say), counting the code the app and the CLI run; the core imports
// nothing from the layers above it; and nothing in src/ imports the benchmark, nor anything but a
// test the test support (test/support). Every .ts/.tsx file of src/ and test/ is scanned, tests too.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stronglyConnected } from './core/graph/scc';

const ROOT = resolve(__dirname, '..');
const SRC = resolve(ROOT, 'src');
/** What the tests share (fixtures, generators, the reference port): scanned with src/, imported only by tests and the benchmark. */
const TEST_SUPPORT = resolve(ROOT, 'test');

/** Directories the core (src/core) must not import from. */
const ABOVE_CORE = ['src/ui/', 'src/worker/', 'src/wire/', 'src/cli/'];

/**
 * The layers between page and worker, and what each may not import. The wire (the protocol both
 * sides share) imports only the core and itself; the page reaches the worker only by its entry's
 * URL (`new Worker(new URL(…))`, no import), and the worker nothing of the page. A test file may reach
 * further to build a real fixture or check both sides agree (the page's SVG export over a graph the
 * worker drew; the worker's red-team words as the page shows them).
 */
const LAYERS: ReadonlyArray<{ layer: string; only?: string[]; never?: string[]; testsExcepted?: boolean }> = [
  { layer: 'src/wire/', only: ['src/core/', 'src/wire/'] },
  { layer: 'src/ui/', never: ['src/worker/'], testsExcepted: true },
  { layer: 'src/worker/', never: ['src/ui/'], testsExcepted: true },
];

type Token = { kind: 'id' | 'str' | 'punct' | 'other'; text: string };

/** Keywords after which a `/` starts a regular expression rather than dividing. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'instanceof', 'new', 'delete', 'void', 'throw', 'yield', 'await']);

/**
 * Tokens of a TypeScript source, enough to find its imports: comments, template text and regular
 * expressions are skipped, so an import spelled inside one of them is not taken for a real one.
 */
function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  // Open braces: '{' for a block or object, '${' for a template's expression.
  const braces: string[] = [];
  let i = 0;
  const n = src.length;
  /** Skips template text from i (just after '`' or a closing '}') to its end or its next '${'. */
  const templateText = () => {
    while (i < n) {
      const c = src[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        tokens.push({ kind: 'other', text: '`…`' });
        return;
      } else if (c === '$' && src[i + 1] === '{') {
        i += 2;
        braces.push('${');
        return;
      } else i++;
    }
  };
  while (i < n) {
    const c = src[i];
    if (/\s/.test(c)) i++;
    else if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || c === '"') {
      let text = '';
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') {
        if (src[i] === '\\') i++;
        text += src[i++];
      }
      i++;
      tokens.push({ kind: 'str', text });
    } else if (c === '`') {
      i++;
      templateText();
    } else if (c === '/') {
      const prev = tokens.at(-1);
      const divides =
        prev &&
        (prev.kind === 'str' ||
          prev.kind === 'other' ||
          (prev.kind === 'id' && !BEFORE_REGEX.has(prev.text)) ||
          (prev.kind === 'punct' && /[)\]}]/.test(prev.text)));
      if (divides) {
        tokens.push({ kind: 'punct', text: '/' });
        i++;
        continue;
      }
      // A regular expression: to its closing '/' outside a character class, then its flags.
      let inClass = false;
      i++;
      while (i < n && src[i] !== '\n') {
        const r = src[i];
        if (r === '\\') i++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        i++;
      }
      i++;
      while (i < n && /\w/.test(src[i])) i++;
      tokens.push({ kind: 'other', text: '/…/' });
    } else if (/[A-Za-z_$]/.test(c)) {
      const start = i;
      while (i < n && /[\w$]/.test(src[i])) i++;
      tokens.push({ kind: 'id', text: src.slice(start, i) });
    } else if (/[0-9]/.test(c)) {
      while (i < n && /[\w.]/.test(src[i])) i++;
      tokens.push({ kind: 'other', text: '0' });
    } else if (c === '{') {
      braces.push('{');
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else if (c === '}') {
      i++;
      if (braces.pop() === '${') templateText();
      else tokens.push({ kind: 'punct', text: c });
    } else {
      tokens.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return tokens;
}

/**
 * Every module specifier a source imports or re-exports: `import … from`, `import type … from`,
 * `import '…'`, `import('…')` (a lazy import, or a type query), `export … from` and
 * `export type … from`.
 */
function importSpecifiers(src: string): string[] {
  const t = tokenize(src);
  const out: string[] = [];
  const is = (k: number, text: string) => t[k] !== undefined && t[k].kind !== 'str' && t[k].text === text;
  /** The specifier of `from '…'` at or after k, before the statement ends. */
  const fromAt = (k: number): string | null => {
    for (; k < t.length && !is(k, ';'); k++) {
      if (is(k, 'from') && t[k + 1]?.kind === 'str') return t[k + 1].text;
      if (t[k].kind === 'str') return null;
    }
    return null;
  };
  for (let k = 0; k < t.length; k++) {
    if (t[k].kind !== 'id' || is(k - 1, '.')) continue;
    if (t[k].text === 'import') {
      if (is(k + 1, '(') && t[k + 2]?.kind === 'str') out.push(t[k + 2].text);
      else if (t[k + 1]?.kind === 'str') out.push(t[k + 1].text);
      else if (!is(k + 1, '.') && !is(k + 1, '(')) {
        const spec = fromAt(k + 1);
        if (spec !== null) out.push(spec);
      }
    } else if (t[k].text === 'export') {
      let j = k + 1;
      if (is(j, 'type')) j++;
      if (is(j, '*')) {
        const spec = fromAt(j + 1);
        if (spec !== null) out.push(spec);
      } else if (is(j, '{')) {
        while (j < t.length && !is(j, '}')) j++;
        if (is(j + 1, 'from') && t[j + 2]?.kind === 'str') out.push(t[j + 2].text);
      }
    }
  }
  return out;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** The file a relative specifier names (as the bundler resolves it), or null. */
function resolveSpecifier(from: string, spec: string, exists: (path: string) => boolean): string | null {
  // A query (Vite's `?url`, `?raw`) names the same file.
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''));
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find(exists) ?? null;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

interface ImportGraph {
  files: string[];
  /** For each file, the files it imports (indexes into `files`). */
  edges: number[][];
  /** Relative specifiers that name no file. */
  unresolved: string[];
}

/** The graph of relative imports between `files` (sources given by `read`). */
function importGraph(files: string[], read: (file: string) => string, exists: (path: string) => boolean): ImportGraph {
  const index = new Map(files.map((f, i) => [f, i]));
  const unresolved: string[] = [];
  const edges = files.map((file) => {
    const to = new Set<number>();
    for (const spec of importSpecifiers(read(file))) {
      if (!spec.startsWith('.')) continue; // a package or node: module
      const target = resolveSpecifier(file, spec, exists);
      if (target === null) unresolved.push(`${relative(ROOT, file)}: '${spec}'`);
      else if (index.has(target)) to.add(index.get(target)!);
    }
    return [...to];
  });
  return { files, edges, unresolved };
}

/** Each import circle as a path of files `a → b → … → a` (one per strongly connected component). */
function importCircles(g: ImportGraph): string[] {
  const circles: string[] = [];
  for (const component of stronglyConnected(g.files.length, g.edges)) {
    const start = Math.min(...component); // the first file by name, so the listing is stable
    if (component.length === 1 && !g.edges[start].includes(start)) continue;
    // One concrete circle through the component: the shortest way from `start` back to it.
    const members = new Set(component);
    const cameFrom = new Map<number, number>();
    const queue = [start];
    let last = -1;
    for (let q = 0; q < queue.length && last < 0; q++) {
      for (const next of g.edges[queue[q]]) {
        if (!members.has(next)) continue;
        if (next === start) {
          last = queue[q];
          break;
        }
        if (!cameFrom.has(next)) {
          cameFrom.set(next, queue[q]);
          queue.push(next);
        }
      }
    }
    const path = [start];
    for (let at = last; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
    path.push(start);
    const names = path.map((i) => relative(ROOT, g.files[i]));
    circles.push(
      `${names.join(' → ')}${component.length > path.length - 1 ? ` (and ${component.length - path.length + 1} more files in the same circle)` : ''}`,
    );
  }
  return circles;
}

const isTest = (path: string) => /\.test\.tsx?$/.test(path);

/**
 * The folder of `file` and of `other` that are siblings under their deepest common folder, or null
 * when one of the two files sits in that common folder itself (a file beside folders is no folder).
 */
function siblingFolders(file: string, other: string): [string, string] | null {
  const a = relative(ROOT, dirname(file)).split('/');
  const b = relative(ROOT, dirname(other)).split('/');
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  if (k === a.length || k === b.length) return null;
  return [a.slice(0, k + 1).join('/'), b.slice(0, k + 1).join('/')];
}

/**
 * Each circle of folders, as `a → b → … → a` with an import that makes each step: folders are
 * compared with their siblings (src/core/log with src/core/graph, src/ui/compare with
 * src/ui/components), each taken with everything below it. Tests and test support are left out: a
 * test may build its fixture from any folder; the code the app and the CLI run may not go round.
 */
function folderCircles(g: ImportGraph): string[] {
  const names: string[] = [];
  const index = new Map<string, number>();
  const node = (folder: string) => {
    if (!index.has(folder)) {
      index.set(folder, names.length);
      names.push(folder);
    }
    return index.get(folder)!;
  };
  const edges: Set<number>[] = [];
  const because = new Map<string, string>();
  g.files.forEach((file, i) => {
    if (isTest(file) || !file.startsWith(`${SRC}/`)) return;
    for (const j of g.edges[i]) {
      const other = g.files[j];
      if (isTest(other) || !other.startsWith(`${SRC}/`)) continue;
      const pair = siblingFolders(file, other);
      if (!pair) continue;
      const [a, b] = pair.map(node);
      while (edges.length < names.length) edges.push(new Set());
      edges[a].add(b);
      if (!because.has(`${a} ${b}`)) because.set(`${a} ${b}`, `${relative(ROOT, file)} → ${relative(ROOT, other)}`);
    }
  });
  while (edges.length < names.length) edges.push(new Set());
  const circles: string[] = [];
  for (const component of stronglyConnected(
    names.length,
    edges.map((e) => [...e]),
  )) {
    if (component.length < 2) continue;
    const members = new Set(component);
    const steps = component.flatMap((a) => [...edges[a]].filter((b) => members.has(b)).map((b) => `${names[a]} → ${names[b]} (${because.get(`${a} ${b}`)})`));
    circles.push(steps.sort().join('; '));
  }
  return circles.sort();
}

/** Imports from src/ into the benchmark (bench/), or from src/ code other than a test into the test support, as `from → to`. */
function outsideBreaches(files: string[], read: (file: string) => string, exists: (path: string) => boolean): string[] {
  const breaches: string[] = [];
  for (const file of files) {
    if (!file.startsWith(`${SRC}/`)) continue;
    for (const spec of importSpecifiers(read(file))) {
      if (!spec.startsWith('.')) continue;
      const to = relative(ROOT, resolveSpecifier(file, spec, exists) ?? resolve(dirname(file), spec));
      if (to.startsWith('bench/') || (to.startsWith('test/') && !isTest(file))) breaches.push(`${relative(ROOT, file)} → ${to}`);
    }
  }
  return breaches;
}

/** Imports from src/core into the layers above it, as `from → to`. */
function coreBreaches(g: ImportGraph): string[] {
  const breaches: string[] = [];
  g.files.forEach((file, i) => {
    const from = relative(ROOT, file);
    if (!from.startsWith('src/core/')) return;
    for (const j of g.edges[i]) {
      const to = relative(ROOT, g.files[j]);
      if (ABOVE_CORE.some((dir) => to.startsWith(dir))) breaches.push(`${from} → ${to}`);
    }
  });
  return breaches;
}

/** Imports that break a rule of LAYERS, as `from → to`. */
function layerBreaches(g: ImportGraph): string[] {
  const breaches: string[] = [];
  g.files.forEach((file, i) => {
    const from = relative(ROOT, file);
    for (const rule of LAYERS) {
      if (!from.startsWith(rule.layer) || (rule.testsExcepted && /\.test\.tsx?$/.test(from))) continue;
      for (const j of g.edges[i]) {
        const to = relative(ROOT, g.files[j]);
        if (to.startsWith('test/')) continue; // the test support: outsideBreaches says who may import it
        const allowed = rule.only ? rule.only.some((dir) => to.startsWith(dir)) : !rule.never!.some((dir) => to.startsWith(dir));
        if (!allowed) breaches.push(`${from} → ${to}`);
      }
    }
  });
  return breaches;
}

/** Every `new URL('…', import.meta.url)` of a source: what a bundler starts as a worker or loads as an asset. */
function urlSpecifiers(src: string): string[] {
  return [...src.matchAll(/new URL\(\s*'([^']+)'\s*,\s*import\.meta\.url\s*\)/g)].map((m) => m[1]);
}

describe('the import graph of src/', () => {
  const files = [...sourceFiles(SRC), ...sourceFiles(TEST_SUPPORT)];
  const graph = importGraph(files, (f) => readFileSync(f, 'utf8'), isFile);

  it('reads every source file and resolves every relative import', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map((f) => relative(ROOT, f))).toContain('src/architecture.test.ts');
    expect(graph.unresolved).toEqual([]);
    // The scan sees the imports that are there: the CLI's stream reaches inspect, the page the worker client.
    const edge = (a: string, b: string) => graph.edges[files.indexOf(resolve(ROOT, a))].includes(files.indexOf(resolve(ROOT, b)));
    expect(edge('src/cli/stream.ts', 'src/core/inspect.ts')).toBe(true);
    expect(edge('src/ui/tabs.tsx', 'src/ui/graph/GraphView.tsx')).toBe(true); // a lazy import()
  });

  it('misses no import statement a line-by-line reading sees (the tokenizer never loses its place)', () => {
    const statement = /^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)';/gm;
    const missed: string[] = [];
    for (const file of files) {
      const src = readFileSync(file, 'utf8');
      const found = new Set(importSpecifiers(src));
      for (const m of src.matchAll(statement)) if (!found.has(m[1])) missed.push(`${relative(ROOT, file)}: '${m[1]}'`);
    }
    expect(missed).toEqual([]);
  });

  it('has no import circle, type-only imports and re-exports included', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('has no circle of folders in the code the app and the CLI run', () => {
    expect(folderCircles(graph)).toEqual([]);
  });

  it('nothing in src/ imports the benchmark, and only tests import the test support', () => {
    expect(outsideBreaches(files, (f) => readFileSync(f, 'utf8'), isFile)).toEqual([]);
    // The scan reads the test support too, and sees the tests that import it.
    expect(files.map((f) => relative(ROOT, f))).toContain('test/support/generate.ts');
    const edge = (a: string, b: string) => graph.edges[files.indexOf(resolve(ROOT, a))].includes(files.indexOf(resolve(ROOT, b)));
    expect(edge('src/cli/stream.test.ts', 'test/support/generate.ts')).toBe(true);
  });

  it('the core imports nothing from the UI, the worker, the wire or the CLI', () => {
    expect(coreBreaches(graph)).toEqual([]);
  });

  it('the wire imports only the core and itself; the page imports nothing of the worker, nor the worker of the page', () => {
    expect(layerBreaches(graph)).toEqual([]);
    // The rules see the imports that are there: both sides import the wire.
    const edge = (a: string, b: string) => graph.edges[files.indexOf(resolve(ROOT, a))].includes(files.indexOf(resolve(ROOT, b)));
    expect(edge('src/ui/worker-client.ts', 'src/wire/protocol.ts')).toBe(true);
    expect(edge('src/worker/handlers.ts', 'src/wire/protocol.ts')).toBe(true);
  });

  it('the page starts the inspector worker by its URL, the one way from the page to the worker', () => {
    const started = files
      .filter((f) => relative(ROOT, f).startsWith('src/ui/'))
      .flatMap((f) => urlSpecifiers(readFileSync(f, 'utf8')).map((spec) => relative(ROOT, resolve(dirname(f), spec))));
    expect(started).toEqual(['src/worker/inspector.worker.ts']);
    expect(isFile(resolve(ROOT, started[0]))).toBe(true);
  });
});

describe('the import scanner', () => {
  it('finds every form of import and re-export, type-only ones included', () => {
    const src = [
      "import { a } from './a';",
      "import type { B } from './b';",
      'import {',
      '  type C,',
      '  d,',
      "} from './cd';",
      "import * as e from './e';",
      "import f, { g } from './fg';",
      "export * from './star';",
      "export * as ns from './ns';",
      "export { h } from './h';",
      "export type { I } from './i';",
      "import './side-effect';",
      "const lazy = () => import('./lazy');",
      "type Q = typeof import('./type-query');",
      "import pkg from 'some-package';",
    ].join('\n');
    expect(importSpecifiers(src)).toEqual([
      './a',
      './b',
      './cd',
      './e',
      './fg',
      './star',
      './ns',
      './h',
      './i',
      './side-effect',
      './lazy',
      './type-query',
      'some-package',
    ]);
  });

  it('ignores imports spelled in comments, strings, templates and regular expressions, and import.meta', () => {
    const src = [
      "// import { x } from './line-comment';",
      "/* import './block-comment'; */",
      '/**',
      " * import { y } from './doc-comment';",
      ' */',
      'const s = "import(\'./double-quoted\')";',
      'const t = \'export * from "./single-quoted"\';',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal, on purpose
      "const u = `import { z } from './template'; ${1 + 2} import('./template-tail')`;",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal, on purpose
      "const v = `${`import('./nested-template')`}`;",
      "const re = /import\\('.\\/regex'\\)/;",
      "const url = new URL('./started-by-url.ts', import.meta.url);",
      'export { local };',
      "export const w = { k: 'v' };",
      "import { real } from './real';",
    ].join('\n');
    expect(importSpecifiers(src)).toEqual(['./real']);
  });

  it('keeps reading after a template with expressions and a division', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal, on purpose
    const src = ['const a = `x${{ b: 1 }.b}y` / 2;', 'const re = a / 2 / 3;', "import { after } from './after';"].join('\n');
    expect(importSpecifiers(src)).toEqual(['./after']);
  });

  it('lists a circle, with its path, and a file that imports itself', () => {
    const sources: Record<string, string> = {
      'src/x/a.ts': "import { b } from './b';",
      'src/x/b.ts': "import type { C } from './c';",
      'src/x/c.ts': "export { a } from './a';",
      'src/x/d.ts': "import { a } from './a';\nimport { d } from './d';",
      'src/x/e.ts': "import { missing } from './nowhere';",
      'src/x/f.ts': "import url from './a.ts?url';",
    };
    const paths = Object.keys(sources).map((p) => resolve(ROOT, p));
    const g = importGraph(
      paths,
      (f) => sources[relative(ROOT, f)],
      (p) => paths.includes(p),
    );
    expect(importCircles(g).sort()).toEqual(['src/x/a.ts → src/x/b.ts → src/x/c.ts → src/x/a.ts', 'src/x/d.ts → src/x/d.ts']);
    expect(g.unresolved).toEqual(["src/x/e.ts: './nowhere'"]);
  });

  it('lists a circle of sibling folders with the imports that make it, leaving tests, test support and files beside folders out', () => {
    const sources: Record<string, string> = {
      'src/core/log/entry.ts': "import { g } from '../graph/keys';",
      'src/core/graph/keys.ts': "import { e } from '../log/deep/more';",
      'src/core/log/deep/more.ts': 'export const e = 1;',
      // A file beside the folders (src/core/model.ts) is no folder: no circle core ↔ core/agdx.
      'src/core/model.ts': "import { a } from './agdx/a';",
      'src/core/agdx/a.ts': "import { m } from '../model';",
      // A test reaching across makes no circle.
      'src/core/agdx/a.test.ts': "import { x } from '../keys/k';",
      'src/core/keys/k.ts': "import { a } from '../agdx/a';",
      // Nor does the test support.
      'test/support/h.ts': "import { a } from '../../src/core/agdx/a';",
      'src/ui/x/view.tsx': "import { h } from '../../../test/support/h';\nimport { b } from '../../../bench/generate';",
      'src/ui/x/view.test.ts': "import { h } from '../../../test/support/h';",
    };
    const paths = Object.keys(sources).map((p) => resolve(ROOT, p));
    const read = (f: string) => sources[relative(ROOT, f)];
    const exists = (p: string) => paths.includes(p);
    expect(folderCircles(importGraph(paths, read, exists))).toEqual([
      'src/core/graph → src/core/log (src/core/graph/keys.ts → src/core/log/deep/more.ts); src/core/log → src/core/graph (src/core/log/entry.ts → src/core/graph/keys.ts)',
    ]);
    expect(outsideBreaches(paths, read, exists)).toEqual(['src/ui/x/view.tsx → test/support/h.ts', 'src/ui/x/view.tsx → bench/generate']);
  });

  it('lists an import from the core into a layer above it, a type-only one too', () => {
    const sources: Record<string, string> = {
      'src/core/a.ts': "import type { P } from '../worker/protocol';\nimport { b } from './b';",
      'src/core/b.ts': 'export const b = 1;',
      'src/worker/protocol.ts': "import { b } from '../core/b';",
      'src/ui/page.ts': "import { b } from '../core/b';",
    };
    const paths = Object.keys(sources).map((p) => resolve(ROOT, p));
    const g = importGraph(
      paths,
      (f) => sources[relative(ROOT, f)],
      (p) => paths.includes(p),
    );
    expect(coreBreaches(g)).toEqual(['src/core/a.ts → src/worker/protocol.ts']);
  });

  it('lists an import that breaks a layer rule: the wire beyond the core, the page into the worker (tests excepted), the worker into the page', () => {
    const sources: Record<string, string> = {
      'src/core/b.ts': 'export const b = 1;',
      'src/wire/protocol.ts': "import type { B } from '../core/b';\nimport type { S } from '../worker/session';\nimport { p } from './pack';",
      'src/wire/pack.ts': "import type { Row } from '../ui/rows';",
      'src/worker/session.ts': "import type { P } from '../wire/protocol';\nimport { fmt } from '../ui/format';",
      'src/ui/rows.ts': "import type { P } from '../wire/protocol';\nimport type { S } from '../worker/session';",
      'src/ui/format.ts': 'export const fmt = 1;',
      'src/ui/rows.test.ts': "import { S } from '../worker/session';",
    };
    const paths = Object.keys(sources).map((p) => resolve(ROOT, p));
    const g = importGraph(
      paths,
      (f) => sources[relative(ROOT, f)],
      (p) => paths.includes(p),
    );
    expect(layerBreaches(g).sort()).toEqual([
      'src/ui/rows.ts → src/worker/session.ts',
      'src/wire/pack.ts → src/ui/rows.ts',
      'src/wire/protocol.ts → src/worker/session.ts',
      'src/worker/session.ts → src/ui/format.ts',
    ]);
  });

  it('finds the URLs a source starts workers by', () => {
    expect(
      urlSpecifiers(
        "new Worker(new URL('../worker/inspector.worker.ts', import.meta.url), { type: 'module' });\nconst u = new URL('./a.svg', import.meta.url);",
      ),
    ).toEqual(['../worker/inspector.worker.ts', './a.svg']);
  });
});
