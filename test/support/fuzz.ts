// Shared pieces of the fuzz suite (src/core/fuzz/*.fuzz.test.ts): run counts and seeds from the
// environment, the invariants every inspected record keeps, a CBOR model with an encoder that can
// write every well-formed variant (non-minimal heads, indefinite lengths, tags), and generators.
//
// FUZZ_RUNS (default 2000) scales every property; FUZZ_SEED (default fixed) makes runs repeatable.
// `npm run fuzz` runs the folder with FUZZ_RUNS=200000. A failure prints fast-check's seed and path:
// rerun with FUZZ_SEED=<seed> to reproduce it.
import fc from 'fast-check';
import { expect } from 'vitest';
import { concatBytes } from '../../src/core/bytes';
import { buildReport } from '../../src/core/report';
import { recordViews, type InspectedRecord, type InspectResult } from '../../src/core/records';
import { RECORD_FORMAT_LIST, SIGNATURE_STATUS_LIST, type FieldNode } from '../../src/core/model';
import { RULE_IDS, ruleMeta } from '../../src/core/rules';

export const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 2000));
export const SEED = Number(process.env.FUZZ_SEED ?? 20260201);
/**
 * No test asserts a wall-clock time (the machines are shared and noisy): work is bounded by what a
 * test counts (records, findings, tree nodes: linear in the input), and a hang by Vitest's timeout.
 * Inputs slower than this are only reported on the console, to look into.
 */
export const SLOW_MS = Number(process.env.FUZZ_SLOW_MS ?? 2000);
/** Vitest's per-test timeout, scaled with the run count (200,000 runs may take a while). */
export const TIMEOUT = Math.max(120_000, RUNS * 20);

function hashName(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * fast-check parameters for one property: `fraction` of RUNS (expensive properties run fewer), and
 * a seed derived from FUZZ_SEED and the property's name so properties do not share their inputs.
 */
export function params(name: string, fraction = 1, min = 10): { numRuns: number; seed: number } {
  return { numRuns: Math.max(min, Math.round(RUNS * fraction)), seed: (SEED ^ hashName(name)) | 0 };
}

/** Runs fn; an input slower than SLOW_MS is reported (never failed: see SLOW_MS). */
export function bounded<T>(what: string, fn: () => T, slow = SLOW_MS): T {
  const t0 = performance.now();
  const out = fn();
  reportSlow(what, performance.now() - t0, slow);
  return out;
}

export async function boundedAsync<T>(what: string, fn: () => Promise<T>, slow = SLOW_MS): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  reportSlow(what, performance.now() - t0, slow);
  return out;
}

export function reportSlow(what: string, ms: number, slow = SLOW_MS): void {
  if (ms > slow) console.warn(`slow input (not a failure): ${what} took ${ms.toFixed(0)} ms`);
}

// ---------------------------------------------------------------------------------------------
// Codes and rule ids of docs/report.md
// ---------------------------------------------------------------------------------------------

/** Decode error codes of report.md (`error.code`): the catalogue's decode errors. */
export const REPORT_CODES: ReadonlySet<string> = new Set(RULE_IDS.filter((id) => ruleMeta(id)?.kind === 'decode-error'));

export const CBOR_CODES: ReadonlySet<string> = new Set(RULE_IDS.filter((id) => ruleMeta(id)?.family === 'cbor'));
/** What decodeEnvelope may fail with. */
export const ENVELOPE_CODES = new Set(['agdx/not-a-map', 'agdx/unknown-kind', 'agdx/field-type', 'agdx/duplicate-field', 'agdx/missing-field']);
export const PERMALINK_CODES = new Set(['permalink/not-a-link', 'permalink/newer-version', 'permalink/damaged', 'permalink/too-large']);

export const RECORD_FORMATS: ReadonlySet<string> = new Set(RECORD_FORMAT_LIST);

export const SIGNATURE_STATUSES: ReadonlySet<string> = new Set(SIGNATURE_STATUS_LIST);

/** Every rule id report.md documents (the catalogue, which rules.test.ts keeps equal to report.md). */
export const isDocumentedRule = (rule: string) => ruleMeta(rule)?.kind === 'finding';

function countNodes(tree: readonly FieldNode[]): number {
  let n = 0;
  const stack = [...tree];
  while (stack.length) {
    const x = stack.pop()!;
    n++;
    if (x.children) stack.push(...x.children);
  }
  return n;
}

/** A cheap assertion for hot loops: `expect` costs more than the code under test. */
export function must(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

/** Deep equality through a canonical JSON form; `expect(...).toEqual` only to show a difference. */
export function same(actual: unknown, wanted: unknown, where = ''): void {
  const j = (v: unknown) =>
    JSON.stringify(v, (_k, x) =>
      typeof x === 'bigint'
        ? `${x}n`
        : x instanceof Uint8Array
          ? Array.from(x)
          : x instanceof Map
            ? [...x]
            : typeof x === 'number' && (Number.isNaN(x) || Object.is(x, -0))
              ? String(Object.is(x, -0) ? '-0' : x)
              : x,
    );
  if (j(actual) !== j(wanted)) expect(actual, where).toEqual(wanted);
}

/**
 * The invariants every record keeps, whatever the input of `inputLength` bytes: a verdict or a coded
 * error, spans inside the record's bytes, documented rule ids, and work bounded by the input's size
 * (records, findings and tree nodes at most linear in the bytes).
 */
export function checkRecords(records: readonly InspectedRecord[], inputLength: number, where: string, allowNone = false): void {
  // Only an export with no messages has no record at all.
  if (!allowNone) must(records.length > 0, `${where}: no record`);
  must(records.length <= inputLength + 1, `${where}: ${records.length} records for ${inputLength} bytes`);
  let findings = 0;
  let nodes = 0;
  records.forEach((record, i) => {
    const at = `${where}, record ${i}`;
    const { verdict: r, data } = record;
    const length = data.view.length;
    must(r.index === i, `${at}: index ${r.index}`);
    must(RECORD_FORMATS.has(r.format), `${at}: format ${r.format}`);
    if (!r.decoded) {
      must(r.error !== null, `${at}: not decoded and no error`);
      must(REPORT_CODES.has(r.error.code), `${at}: code ${r.error.code} is not in report.md (${r.error.message})`);
      must(!/internal error|unexpected failure/.test(r.error.message), `${at}: ${r.error.message}`);
    } else must(r.error === null, `${at}: decoded with an error`);
    if (r.error?.offset != null) must(r.error.offset >= 0 && r.error.offset <= length, `${at}: error offset ${r.error.offset} outside ${length} bytes`);
    for (const s of [r.span, r.inputSpan, data.bodySpan]) if (s) must(s[0] >= 0 && s[0] <= s[1], `${at}: span ${s}`);
    if (r.span) must(r.span[1] <= length, `${at}: span ${r.span} outside ${length} bytes`);
    if (data.bodySpan) must(data.bodySpan[1] <= length, `${at}: body span ${data.bodySpan} outside ${length} bytes`);
    must(SIGNATURE_STATUSES.has(r.signature.status), `${at}: signature ${r.signature.status}`);
    // A signature is valid only with a key that checked it: never for a record that did not decode.
    if (r.signature.status === 'valid') must(r.decoded, `${at}: valid signature on an undecoded record`);
    for (const f of r.findings) {
      must(isDocumentedRule(f.rule), `${at}: undocumented rule ${f.rule}`);
      must(f.severity === 'error' || f.severity === 'warning' || f.severity === 'info', `${at}: severity ${f.severity}`);
      if (f.span) must(f.span[0] >= 0 && f.span[0] <= f.span[1] && f.span[1] <= length, `${at}: ${f.rule} span ${f.span} outside ${length} bytes`);
      // The log's findings live in their own map, never in a record's verdict.
      must(!logWide(f.rule), `${at}: the log-level finding ${f.rule} is in the record's verdict`);
    }
    findings += r.findings.length;
    nodes += countNodes(recordViews(record).tree);
  });
  // Work bounds: every finding and every tree node stands for at least some bytes of the input.
  must(findings <= 2 * inputLength + 64, `${where}: ${findings} findings for ${inputLength} bytes`);
  must(nodes <= 4 * inputLength + 256, `${where}: ${nodes} tree nodes for ${inputLength} bytes`);
}

/** checkRecords for a whole inspect() result, and the report: it serialises, and each record's validity follows from its findings. */
export function checkResult(result: InspectResult, lengths: number[], where: string): void {
  must(result.inputs.length === lengths.length, `${where}: ${result.inputs.length} inputs`);
  lengths.forEach((len, i) => {
    const mine = result.records.filter((r) => r.verdict.input === i);
    checkRecords(mine, len, `${where} input ${i}`, result.inputs[i].format === 'iggy-json(empty)');
  });
  for (const w of result.workflows) {
    must(w.record >= 0 && w.record < result.records.length, `${where}: workflow record ${w.record}`);
    for (const code of Object.values(w.modes)) must([1000, 2001, 2002, 2003].includes(code), `${where}: mode ${code}`);
  }
  const report = buildReport(result);
  report.records.forEach((r, i) => {
    if (!r.decoded) must(!r.valid, `${where}, record ${i}: valid but not decoded`);
    must(r.valid === (r.decoded && !r.findings.some((f) => f.severity === 'error')), `${where}, record ${i}: valid is ${r.valid} against its findings`);
  });
  JSON.stringify(report, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Findings that depend on the whole log (the graph's, the folds'): a record's neighbours change them. */
const logWide = (rule: string) => rule.startsWith('agdx/graph/') || rule.startsWith('agdx/fold/');

/** What a person relies on in a record: its verdict (log-wide findings are not part of it). */
export function verdictOf({ verdict: r }: InspectedRecord): unknown {
  return {
    format: r.format,
    decoded: r.decoded,
    error: r.error?.code ?? null,
    kind: r.kind,
    id: r.id,
    conversation: r.conversation,
    source: r.source,
    target: r.target,
    valid: r.decoded && !r.findings.some((f) => f.severity === 'error'),
    findings: r.findings.map((f) => `${f.severity} ${f.rule} ${f.path} ${f.span}`),
    signature: { ...r.signature },
  };
}

// ---------------------------------------------------------------------------------------------
// A CBOR model and an encoder that writes any well-formed variant of it
// ---------------------------------------------------------------------------------------------

export type Model =
  | { t: 'uint'; v: bigint }
  | { t: 'nint'; v: bigint }
  | { t: 'bytes'; v: Uint8Array }
  | { t: 'text'; v: string }
  | { t: 'array'; items: Model[] }
  | { t: 'map'; entries: [Model, Model][] }
  | { t: 'tag'; tag: bigint; item: Model }
  | { t: 'simple'; v: number }
  | { t: 'float'; bits: bigint; width: 16 | 32 | 64 };

/** How to write each head: minimal, or a wider argument; strings, arrays and maps maybe indefinite. */
export interface Style {
  /** Extra width steps for a head (0 = minimal). */
  widen: (depth: number) => number;
  indefinite: (depth: number) => boolean;
  /** For indefinite strings: where to cut the content into chunks (may be empty chunks). */
  chunks: (length: number) => number[];
}

export const MINIMAL: Style = { widen: () => 0, indefinite: () => false, chunks: () => [] };

const utf8enc = new TextEncoder();

export class Bytes {
  private out: number[] = [];
  push(...b: number[]): void {
    for (const x of b) this.out.push(x);
  }
  append(b: Uint8Array): void {
    for (let i = 0; i < b.length; i++) this.out.push(b[i]);
  }
  get length(): number {
    return this.out.length;
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

/** A head with argument `arg`, `widen` steps wider than minimal (up to 8 bytes). Returns whether minimal. */
export function writeHead(w: Bytes, major: number, arg: bigint, widen = 0): boolean {
  const m = major << 5;
  let size = arg < 24n ? 0 : arg <= 0xffn ? 1 : arg <= 0xffffn ? 2 : arg <= 0xffffffffn ? 4 : 8;
  const minimalSize = size;
  for (let i = 0; i < widen && size < 8; i++) size = size === 0 ? 1 : size * 2;
  if (size === 0) {
    w.push(m | Number(arg));
    return true;
  }
  w.push(m | (size === 1 ? 24 : size === 2 ? 25 : size === 4 ? 26 : 27));
  for (let i = size - 1; i >= 0; i--) w.push(Number((arg >> BigInt(8 * i)) & 0xffn));
  return size === minimalSize;
}

/** Encodes the model; `style` chooses the variant. */
export function encodeModel(m: Model, style: Style = MINIMAL, depth = 0, w = new Bytes()): Uint8Array {
  write(m, style, depth, w);
  return w.finish();
}

function write(m: Model, style: Style, depth: number, w: Bytes): void {
  const widen = style.widen(depth);
  switch (m.t) {
    case 'uint':
      writeHead(w, 0, m.v, widen);
      return;
    case 'nint':
      writeHead(w, 1, -1n - m.v, widen);
      return;
    case 'bytes':
    case 'text': {
      const major = m.t === 'bytes' ? 2 : 3;
      const content = m.t === 'bytes' ? m.v : utf8enc.encode(m.v);
      if (style.indefinite(depth)) {
        w.push((major << 5) | 31);
        // Text chunks must each be valid UTF-8: cut only at character boundaries.
        const cuts = style.chunks(content.length).filter((c) => major === 2 || c === content.length || (content[c] & 0xc0) !== 0x80);
        let prev = 0;
        for (const c of [...cuts.filter((c) => c >= 0 && c <= content.length).sort((a, b) => a - b), content.length]) {
          writeHead(w, major, BigInt(c - prev), style.widen(depth + 1));
          w.append(content.subarray(prev, c));
          prev = c;
        }
        w.push(0xff);
        return;
      }
      writeHead(w, major, BigInt(content.length), widen);
      w.append(content);
      return;
    }
    case 'array':
      if (style.indefinite(depth)) w.push(0x9f);
      else writeHead(w, 4, BigInt(m.items.length), widen);
      for (const x of m.items) write(x, style, depth + 1, w);
      if (style.indefinite(depth)) w.push(0xff);
      return;
    case 'map':
      if (style.indefinite(depth)) w.push(0xbf);
      else writeHead(w, 5, BigInt(m.entries.length), widen);
      for (const [k, v] of m.entries) {
        write(k, style, depth + 1, w);
        write(v, style, depth + 1, w);
      }
      if (style.indefinite(depth)) w.push(0xff);
      return;
    case 'tag':
      writeHead(w, 6, m.tag, widen);
      write(m.item, style, depth + 1, w);
      return;
    case 'simple':
      if (m.v < 24) w.push(0xe0 | m.v);
      else w.push(0xf8, m.v);
      return;
    case 'float': {
      const n = m.width / 8;
      w.push(m.width === 16 ? 0xf9 : m.width === 32 ? 0xfa : 0xfb);
      for (let i = n - 1; i >= 0; i--) w.push(Number((m.bits >> BigInt(8 * i)) & 0xffn));
      return;
    }
  }
}

/** A float's value from its bits, computed independently of the reader. */
export function floatValue(bits: bigint, width: 16 | 32 | 64): number {
  if (width === 64) {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setBigUint64(0, bits);
    return dv.getFloat64(0);
  }
  if (width === 32) {
    const dv = new DataView(new ArrayBuffer(4));
    dv.setUint32(0, Number(bits));
    return dv.getFloat32(0);
  }
  // Half: widen to float32 bits exactly, then read.
  const h = Number(bits);
  const sign = (h & 0x8000) << 16;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  let f32: number;
  if (exp === 0x1f) f32 = sign | 0x7f800000 | (frac << 13);
  else if (exp === 0) {
    if (frac === 0) f32 = sign;
    else {
      // Subnormal half: normalise.
      let e = -1;
      let f = frac;
      do {
        f <<= 1;
        e++;
      } while ((f & 0x400) === 0);
      f32 = sign | ((127 - 15 - e) << 23) | ((f & 0x3ff) << 13);
    }
  } else f32 = sign | ((exp - 15 + 127) << 23) | (frac << 13);
  const dv = new DataView(new ArrayBuffer(4));
  dv.setUint32(0, f32 >>> 0);
  return dv.getFloat32(0);
}

/** Number of items in a model (for bounds). */
export function modelSize(m: Model): number {
  switch (m.t) {
    case 'array':
      return 1 + m.items.reduce((n, x) => n + modelSize(x), 0);
    case 'map':
      return 1 + m.entries.reduce((n, [k, v]) => n + modelSize(k) + modelSize(v), 0);
    case 'tag':
      return 1 + modelSize(m.item);
    default:
      return 1;
  }
}

export function modelDepth(m: Model): number {
  switch (m.t) {
    case 'array':
      return 1 + Math.max(0, ...m.items.map(modelDepth));
    case 'map':
      return 1 + Math.max(0, ...m.entries.map(([k, v]) => Math.max(modelDepth(k), modelDepth(v))));
    case 'tag':
      return 1 + modelDepth(m.item);
    default:
      return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/** Integers around every head-size boundary, and anything up to 2^64 - 1. */
export const uint64Arb: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: 0n, max: 30n }),
  fc.constantFrom(23n, 24n, 255n, 256n, 65535n, 65536n, 0xffffffffn, 0x100000000n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 64n - 1n),
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
);

/** Strings that stress decoders: ASCII, any code point, astral characters, markup and script text. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom(
    '',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    '\u0000',
    '\u2028\u2029',
    '\ufeff',
    '\uffff',
    '\u{10000}',
    '\u{10ffff}',
    'é',
    'a\u0301',
    '../../etc/passwd',
    '%00',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, as text on purpose
    '${7*7}',
  ),
);

/** A string that is valid Unicode (UTF-8 encodable without replacement). */
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

export const wellFormedString: fc.Arbitrary<string> = hostileString.filter(isWellFormed);

const floatArb: fc.Arbitrary<Model> = fc.oneof(
  fc.bigInt({ min: 0n, max: 0xffffn }).map((bits) => ({ t: 'float' as const, bits, width: 16 as const })),
  fc.bigInt({ min: 0n, max: 0xffffffffn }).map((bits) => ({ t: 'float' as const, bits, width: 32 as const })),
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((bits) => ({ t: 'float' as const, bits, width: 64 as const })),
  fc.constantFrom<Model>(
    { t: 'float', bits: 0x7e00n, width: 16 }, // NaN
    { t: 'float', bits: 0x7c00n, width: 16 }, // Infinity
    { t: 'float', bits: 0xfc00n, width: 16 }, // -Infinity
    { t: 'float', bits: 0x8000n, width: 16 }, // -0
    { t: 'float', bits: 0x0001n, width: 16 }, // smallest subnormal
    { t: 'float', bits: 0x7ff8000000000001n, width: 64 }, // NaN with a payload
  ),
);

export const scalarModel: fc.Arbitrary<Model> = fc.oneof(
  uint64Arb.map((v) => ({ t: 'uint' as const, v })),
  uint64Arb.map((v) => ({ t: 'nint' as const, v: -1n - v })),
  fc.uint8Array({ maxLength: 40 }).map((v) => ({ t: 'bytes' as const, v })),
  wellFormedString.map((v) => ({ t: 'text' as const, v })),
  fc.oneof(fc.constantFrom(20, 21, 22, 23), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 32, max: 255 })).map((v) => ({ t: 'simple' as const, v })),
  floatArb,
);

/** Any CBOR data model value, nested up to `maxDepth`. */
export function modelArb(maxDepth = 6): fc.Arbitrary<Model> {
  const { tree } = fc.letrec<{ tree: Model }>((tie) => ({
    tree: fc.oneof(
      { maxDepth, depthSize: 'small', withCrossShrink: true },
      scalarModel,
      fc.array(tie('tree'), { maxLength: 5 }).map((items) => ({ t: 'array' as const, items })),
      fc.array(fc.tuple(tie('tree'), tie('tree')), { maxLength: 4 }).map((entries) => ({ t: 'map' as const, entries })),
      fc.tuple(fc.oneof(uint64Arb, fc.constantFrom(0n, 1n, 2n, 3n, 24n, 32n, 55799n)), tie('tree')).map(([tag, item]) => ({ t: 'tag' as const, tag, item })),
    ),
  }));
  return tree;
}

/** A random encoding style (fixed choices per depth, so one style is one coherent variant). */
export const styleArb: fc.Arbitrary<Style> = fc
  .record({
    widen: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 8, maxLength: 8 }),
    indefinite: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    cuts: fc.array(fc.nat(64), { maxLength: 3 }),
  })
  .map(({ widen, indefinite, cuts }) => ({
    widen: (d: number) => widen[d % 8],
    indefinite: (d: number) => indefinite[d % 8],
    chunks: (len: number) => cuts.map((c) => (len === 0 ? 0 : c % (len + 1))),
  }));

/** Concatenates byte arrays (the core's own helper, under the short name the suites use). */
export const cat = concatBytes;

export const utf8 = (s: string) => new TextEncoder().encode(s);
