// The structural diff of two values (value.ts): every field of either side as a row, in order, with
// what became of it: the same, added (only on B), removed (only on A) or changed. Maps match by key;
// lists are aligned (align.ts) by their items' fingerprints, so an item put in or taken out of a list
// (a permission granted or withdrawn) reads as one added or removed item, not as every later item
// changed; changed maps or lists facing each other in a list are compared member by member. One pass
// over both trees, bottom-up: a container's status comes from its members.
import { bytesEqual } from '../bytes';
import { align } from './align';
import type { ChangeCounts, ChangeStatus, FieldRow } from './model';
import { displayOf, fingerprint, type DiffValue } from './value';

/** Rows kept by default: a comparison shows at most this many (the changes are all counted). */
export const MAX_ROWS = 2_000;
/** A value as a row shows it: cut here. */
const DISPLAY_MAX = 300;

export interface StructuralDiff {
  rows: FieldRow[];
  counts: ChangeCounts;
  omitted: number;
  /** Paths where changes start (an added map once), in order, all of them. */
  changes: { path: string; status: Exclude<ChangeStatus, 'same'> }[];
}

const cut = (s: string) => (s.length > DISPLAY_MAX ? `${s.slice(0, DISPLAY_MAX)}… (${s.length} characters)` : s);

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/**
 * The diff of `a` and `b` (either may be null: all added or all removed). Two maps are diffed
 * member by member from the top (rows at depth 0 are their members); anything else is one row
 * `(value)` and its members.
 */
export function diffValues(a: DiffValue | null, b: DiffValue | null, { maxRows = MAX_ROWS }: { maxRows?: number } = {}): StructuralDiff {
  if (a !== null && (typeof a !== 'object' || !('kind' in a))) throw new TypeError('diffValues: a must be a value or null');
  if (b !== null && (typeof b !== 'object' || !('kind' in b))) throw new TypeError('diffValues: b must be a value or null');
  const out: StructuralDiff = { rows: [], counts: { added: 0, removed: 0, changed: 0 }, omitted: 0, changes: [] };

  const row = (r: FieldRow): FieldRow | null => {
    if (out.rows.length >= maxRows) {
      out.omitted++;
      return null;
    }
    out.rows.push(r);
    return r;
  };
  const change = (path: string, status: Exclude<ChangeStatus, 'same'>) => {
    out.counts[status]++;
    out.changes.push({ path, status });
  };

  /** A value on one side only, or the same on both: its row and its members' rows. */
  const subtree = (v: DiffValue, path: string, depth: number, status: 'same' | 'added' | 'removed'): void => {
    const shown = cut(displayOf(v));
    const container = v.kind === 'map' || v.kind === 'list';
    row({ path, depth, status, a: status === 'added' ? null : shown, b: status === 'removed' ? null : shown, container });
    if (v.kind === 'map') for (const [k, x] of v.entries) subtree(x, join(path, k), depth + 1, status);
    else if (v.kind === 'list') {
      for (let i = 0; i < v.items.length; i++) subtree(v.items[i], `${path}[${i}]`, depth + 1, status);
    }
  };

  /** Both sides: returns whether they are the same. */
  const both = (x: DiffValue, y: DiffValue, path: string, depth: number): boolean => {
    if ((x.kind === 'map' && y.kind === 'map') || (x.kind === 'list' && y.kind === 'list')) {
      const r = row({ path, depth, status: 'same', a: cut(displayOf(x)), b: cut(displayOf(y)), container: true });
      const same = x.kind === 'map' && y.kind === 'map' ? members(x, y, path, depth + 1) : items(x as ListValue, y as ListValue, path, depth + 1);
      if (r && !same) r.status = 'changed';
      return same;
    }
    // Two scalars, two byte strings, or two things of different kinds (a map and a list, a map and a scalar).
    const same = sameLeaf(x, y);
    row({ path, depth, status: same ? 'same' : 'changed', a: cut(displayOf(x)), b: cut(displayOf(y)), container: false });
    if (!same) change(path, 'changed');
    return same;
  };

  const one = (v: DiffValue, path: string, depth: number, status: 'added' | 'removed') => {
    change(path, status);
    subtree(v, path, depth, status);
  };

  /** Members of two maps by key, in the order of A with B's own members where B has them. */
  const members = (x: MapValue, y: MapValue, path: string, depth: number): boolean => {
    const inB = new Map(y.entries);
    const inA = new Map(x.entries);
    const bKeys = y.entries.map(([k]) => k);
    const bAt = new Map(bKeys.map((k, i) => [k, i]));
    let same = true;
    let j = 0;
    const bOnlyUpTo = (end: number) => {
      for (; j < end; j++) {
        const k = bKeys[j];
        if (!inA.has(k)) {
          one(inB.get(k)!, join(path, k), depth, 'added');
          same = false;
        }
      }
    };
    for (const [k, v] of x.entries) {
      const w = inB.get(k);
      if (w === undefined) {
        one(v, join(path, k), depth, 'removed');
        same = false;
        continue;
      }
      bOnlyUpTo(bAt.get(k)!);
      if (j <= bAt.get(k)!) j = bAt.get(k)! + 1;
      if (!both(v, w, join(path, k), depth)) same = false;
    }
    bOnlyUpTo(bKeys.length);
    return same;
  };

  /** Items of two lists, aligned by fingerprint; what faces each other in a gap is compared when both are maps or both lists. */
  const items = (x: ListValue, y: ListValue, path: string, depth: number): boolean => {
    const intern = new Map<string, number>();
    const id = (v: DiffValue) => {
      const f = fingerprint(v);
      let n = intern.get(f);
      if (n === undefined) intern.set(f, (n = intern.size));
      return n;
    };
    const runs = align(x.items.map(id), y.items.map(id)).runs;
    let same = true;
    for (let r = 0; r < runs.length; r++) {
      const run = runs[r];
      if (run.op === 'equal') {
        for (let k = 0; k < run.n; k++) if (!both(x.items[run.a + k], y.items[run.b + k], `${path}[${run.a + k}]`, depth)) same = false;
        continue;
      }
      same = false;
      // A gap: the deletes and inserts between two equal runs.
      const dels: number[] = [];
      const ins: number[] = [];
      for (; r < runs.length && runs[r].op !== 'equal'; r++) {
        const g = runs[r];
        for (let k = 0; k < g.n; k++) (g.op === 'delete' ? dels : ins).push(g.op === 'delete' ? g.a + k : g.b + k);
      }
      r--;
      for (let k = 0; k < Math.max(dels.length, ins.length); k++) {
        const u = k < dels.length ? x.items[dels[k]] : undefined;
        const w = k < ins.length ? y.items[ins[k]] : undefined;
        if (u && w && u.kind === w.kind && (u.kind === 'map' || u.kind === 'list')) both(u, w, `${path}[${dels[k]}]`, depth);
        else {
          if (u) one(u, `${path}[${dels[k]}]`, depth, 'removed');
          if (w) one(w, `${path}[${ins[k]}]`, depth, 'added');
        }
      }
    }
    return same;
  };

  if (a && b && a.kind === 'map' && b.kind === 'map') members(a, b, '', 0);
  else if (a && b) both(a, b, '(value)', 0);
  else if (a) one(a, '(value)', 0, 'removed');
  else if (b) one(b, '(value)', 0, 'added');
  return out;
}

type MapValue = Extract<DiffValue, { kind: 'map' }>;
type ListValue = Extract<DiffValue, { kind: 'list' }>;

function sameLeaf(x: DiffValue, y: DiffValue): boolean {
  if (x.kind === 'scalar' && y.kind === 'scalar') return x.type === y.type && x.key === y.key;
  if (x.kind === 'bytes' && y.kind === 'bytes') return bytesEqual(x.bytes, y.bytes);
  return false;
}
