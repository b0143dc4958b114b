// The byte diff of two encodings (the canonical CBOR of two envelopes, the hashed content JSON of
// two AgentDNA envelopes, or two records' bytes as received): aligned stretches, equal or
// differing, each differing one named by the top-level fields it touches.
import { readSingle, untag } from '../cbor/reader';
import { toDiagnostic } from '../cbor/diagnostic';
import { readJson } from '../json/lossless';
import type { FieldNode, Span } from '../model';
import { align } from './align';
import type { ByteDiff, ByteRange } from './model';

/** Bytes of each side a comparison carries to the page (the diff is over all of them). */
export const MAX_DIFF_BYTES = 1 << 20;

/** A top-level field's bytes (its key and its value) in an encoding. */
export interface FieldSpan {
  name: string;
  start: number;
  end: number;
}

/** The top-level members of a CBOR map, with their key and value bytes; [] when it is not one. */
export function cborLayout(bytes: Uint8Array): FieldSpan[] {
  const r = readSingle(bytes);
  if (!r.ok) return [];
  const root = untag(r.value);
  if (root.kind !== 'map') return [];
  return root.entries.map((e) => {
    const k = untag(e.key);
    return { name: k.kind === 'text' ? k.value : toDiagnostic(k, 64), start: e.key.start, end: e.value.end };
  });
}

/** The top-level members of a JSON object, with their key and value bytes; [] when it is not one. */
export function jsonLayout(bytes: Uint8Array): FieldSpan[] {
  const r = readJson(bytes, { maxDepth: 128 });
  if (!r.ok || r.value.type !== 'object') return [];
  return r.value.entries.map((e) => ({ name: e.key, start: e.keyStart, end: e.value.end }));
}

/** The top-level fields of a field tree, their spans shifted by `offset` (a record's bytes as received). */
export function treeLayout(tree: readonly FieldNode[], offset: number): FieldSpan[] {
  const out: FieldSpan[] = [];
  for (const n of tree) {
    const s = n.keySpan ?? n.span;
    const e = n.span ?? n.keySpan;
    if (s && e) out.push({ name: n.path || n.label, start: s[0] - offset, end: e[1] - offset });
  }
  return out;
}

/** The fields whose bytes meet [start, end); for an empty stretch, the field it sits in (or just after). */
function fieldsAt(layout: readonly FieldSpan[], [start, end]: Span): string[] {
  if (start === end) {
    const f = layout.find((x) => x.start <= start && start < x.end) ?? layout.find((x) => x.end === start);
    return f ? [f.name] : [];
  }
  return layout.filter((x) => x.start < end && start < x.end).map((x) => x.name);
}

/**
 * The diff of `a` and `b`: their stretches in order, equal or changed (a changed stretch has the
 * bytes of A it replaces and the bytes of B that replace them, either possibly empty).
 */
export function byteDiff(
  what: ByteDiff['what'],
  a: Uint8Array,
  b: Uint8Array,
  layout: { a: readonly FieldSpan[]; b: readonly FieldSpan[] } = { a: [], b: [] },
): ByteDiff {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array)) throw new TypeError('byteDiff: a and b must be byte arrays');
  const { runs, exact } = align(a, b);
  const ranges: ByteRange[] = [];
  const differing = { a: 0, b: 0 };
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i];
    if (r.op === 'equal') {
      ranges.push({ op: 'equal', a: [r.a, r.a + r.n], b: [r.b, r.b + r.n], fields: [] });
      continue;
    }
    // A delete and an insert side by side are one changed stretch.
    let aEnd = r.a;
    let bEnd = r.b;
    for (; i < runs.length && runs[i].op !== 'equal'; i++) {
      if (runs[i].op === 'delete') aEnd = runs[i].a + runs[i].n;
      else bEnd = runs[i].b + runs[i].n;
    }
    i--;
    const sa: Span = [r.a, aEnd];
    const sb: Span = [r.b, bEnd];
    differing.a += aEnd - r.a;
    differing.b += bEnd - r.b;
    const fields = [...new Set([...fieldsAt(layout.a, sa), ...fieldsAt(layout.b, sb)])];
    ranges.push({ op: 'changed', a: sa, b: sb, fields });
  }
  const truncated = a.length > MAX_DIFF_BYTES || b.length > MAX_DIFF_BYTES;
  return {
    what,
    a: a.length > MAX_DIFF_BYTES ? a.slice(0, MAX_DIFF_BYTES) : a,
    b: b.length > MAX_DIFF_BYTES ? b.slice(0, MAX_DIFF_BYTES) : b,
    ranges,
    differing,
    identical: differing.a === 0 && differing.b === 0,
    exact,
    truncated,
  };
}
