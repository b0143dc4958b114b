import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { align, type AlignRun } from './align';

/** The LCS length, computed the obvious way (small inputs only). */
function lcs(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const t: number[][] = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
  return t[0][0];
}

/** Checks the runs cover both sides in order and say true things; returns the equal count. */
function checkRuns(a: ArrayLike<number>, b: ArrayLike<number>, runs: AlignRun[]): number {
  let i = 0;
  let j = 0;
  let equal = 0;
  for (const r of runs) {
    expect(r.n).toBeGreaterThan(0);
    expect([r.a, r.b]).toEqual([i, j]);
    if (r.op === 'equal') {
      for (let k = 0; k < r.n; k++) expect(a[i + k]).toBe(b[j + k]);
      i += r.n;
      j += r.n;
      equal += r.n;
    } else if (r.op === 'delete') i += r.n;
    else j += r.n;
  }
  expect([i, j]).toEqual([a.length, b.length]);
  return equal;
}

describe('align', () => {
  it('gives the shortest edit script: the equal runs are a longest common subsequence', () => {
    const seq = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 40 });
    fc.assert(
      fc.property(seq, seq, (a, b) => {
        const { runs, exact } = align(a, b);
        expect(exact).toBe(true);
        expect(checkRuns(a, b, runs)).toBe(lcs(a, b));
      }),
      { numRuns: 400, seed: 17 },
    );
  });

  it('finds one changed byte in the middle of two large buffers, and gives up on wholly different ones (one replacement, not exact)', () => {
    const a = new Uint8Array(200_000).map((_, i) => (i * 31) % 251);
    const b = a.slice();
    b[100_000] ^= 0xff;
    const near = align(a, b);
    expect(near.exact).toBe(true);
    expect(near.runs.map((r) => [r.op, r.n])).toEqual([
      ['equal', 100_000],
      ['delete', 1],
      ['insert', 1],
      ['equal', 99_999],
    ]);
    const c = new Uint8Array(200_000).map((_, i) => (i * 17 + 3) % 7);
    const far = align(a, c);
    expect(far.exact).toBe(false);
    checkRuns(a, c, far.runs);
    expect(far.runs.filter((r) => r.op !== 'equal').map((r) => r.op)).toEqual(['delete', 'insert']);
  });

  it('an insertion shifts nothing after it: the rest stays equal', () => {
    const a = [1, 2, 3, 4, 5, 6];
    const b = [1, 2, 9, 9, 3, 4, 5, 6];
    expect(align(a, b).runs).toEqual([
      { op: 'equal', a: 0, b: 0, n: 2 },
      { op: 'insert', a: 2, b: 2, n: 2 },
      { op: 'equal', a: 2, b: 4, n: 4 },
    ]);
    expect(align([], [1]).runs).toEqual([{ op: 'insert', a: 0, b: 0, n: 1 }]);
    expect(align([1], []).runs).toEqual([{ op: 'delete', a: 0, b: 0, n: 1 }]);
    expect(align([], []).runs).toEqual([]);
  });

  it('throws on misuse', () => {
    expect(() => align(null as never, [])).toThrow(TypeError);
  });
});
