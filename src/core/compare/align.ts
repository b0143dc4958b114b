// Aligning two sequences (bytes, lines, the items of two lists): the shortest edit script (Myers'
// O((N+M)·D) greedy algorithm) between their common first and last elements. Every diff of the
// compare module aligns through here. Bounded: past a budget of edits linear in the sizes, the
// changed middle is given as one replacement (`exact: false`), so a hostile pair of large, wholly
// different inputs costs linear time, never N × M.

/** A run of the alignment: `n` elements equal on both sides, removed from `a`, or added from `b`. */
export interface AlignRun {
  op: 'equal' | 'delete' | 'insert';
  /** Where the run starts in `a` (for an insert: where it goes). */
  a: number;
  /** Where the run starts in `b` (for a delete: where it would be). */
  b: number;
  n: number;
}

export interface Alignment {
  runs: AlignRun[];
  /** False when the budget was spent: the middle is one delete and one insert, not the shortest script. */
  exact: boolean;
}

/** The most edits searched for: enough for every near pair, bounded for wholly different ones. */
const MAX_EDITS = 4_000;
/** Steps of the search allowed in all: D × (N + M) stays under this. */
const MAX_STEPS = 8_000_000;

/** Equal elements compare with ===: numbers (bytes, interned strings) or strings. */
type Seq = ArrayLike<number> | ArrayLike<string>;

/**
 * The alignment of `a` and `b`: runs in order, covering both wholly. `maxEdits` bounds the search
 * (default: what the step budget allows for these sizes, at most 4,000 edits).
 */
export function align(a: Seq, b: Seq, maxEdits?: number): Alignment {
  if (a == null || b == null || typeof a.length !== 'number' || typeof b.length !== 'number') throw new TypeError('align: a and b must be sequences');
  const n = a.length;
  const m = b.length;
  let pre = 0;
  while (pre < n && pre < m && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < n - pre && suf < m - pre && a[n - 1 - suf] === b[m - 1 - suf]) suf++;
  const runs: AlignRun[] = [];
  const push = (op: AlignRun['op'], ai: number, bi: number, len: number) => {
    if (len <= 0) return;
    const last = runs[runs.length - 1];
    if (last && last.op === op && last.a + (op === 'insert' ? 0 : last.n) === ai && last.b + (op === 'delete' ? 0 : last.n) === bi) last.n += len;
    else runs.push({ op, a: ai, b: bi, n: len });
  };
  push('equal', 0, 0, pre);
  const na = n - pre - suf;
  const nb = m - pre - suf;
  const budget = maxEdits ?? Math.min(MAX_EDITS, Math.max(64, Math.floor(MAX_STEPS / Math.max(1, na + nb))));
  const middle = na === 0 || nb === 0 ? null : myers(a, b, pre, pre + na, pre, pre + nb, budget);
  let exact = true;
  if (middle) for (const r of middle) push(r.op, r.a, r.b, r.n);
  else {
    exact = na === 0 || nb === 0;
    push('delete', pre, pre, na);
    push('insert', pre + na, pre, nb);
  }
  push('equal', n - suf, m - suf, suf);
  return { runs, exact };
}

/**
 * Myers' greedy shortest edit script of a[a0, a1) and b[b0, b1), or null past `maxD` edits. Keeps
 * the furthest-reaching x of each diagonal per step (the window [-d, d], D² in all) to walk back.
 */
function myers(a: Seq, b: Seq, a0: number, a1: number, b0: number, b1: number, maxD: number): AlignRun[] | null {
  const N = a1 - a0;
  const M = b1 - b0;
  const max = Math.min(N + M, maxD);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < N && y < M && a[a0 + x] === b[b0 + y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= N && y >= M) {
        trace.push(v.slice(off - d, off + d + 1));
        return walkBack(trace, N, M, a0, b0);
      }
    }
    trace.push(v.slice(off - d, off + d + 1));
  }
  return null;
}

/** The runs of the script the trace found, in order. trace[d] holds x of diagonals -d..d after step d. */
function walkBack(trace: Int32Array[], N: number, M: number, a0: number, b0: number): AlignRun[] {
  const out: AlignRun[] = [];
  const add = (op: AlignRun['op'], x: number, y: number, n: number) => {
    if (n <= 0) return;
    const last = out[out.length - 1];
    // Walking back: a run before the last one found.
    if (last && last.op === op && (op === 'insert' ? last.a === x : last.a === x + n) && (op === 'delete' ? last.b === y : last.b === y + n)) {
      last.a = x;
      last.b = y;
      last.n += n;
    } else out.push({ op, a: x, b: y, n });
  };
  let x = N;
  let y = M;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1];
    const at = (k: number) => prev[k + d - 1];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const px = at(pk);
    const py = px - pk;
    // The snake after the edit: equal elements.
    const sx = down ? px : px + 1;
    add('equal', a0 + sx, b0 + (sx - k), x - sx);
    if (down) add('insert', a0 + px, b0 + py, 1);
    else add('delete', a0 + px, b0 + py, 1);
    x = px;
    y = py;
  }
  add('equal', a0, b0, x);
  return out.reverse();
}
