import { describe, expect, it } from 'vitest';
import type { InputSummary } from '../../wire/protocol';
import { layoutList, positions, rowsBetween, rowTop, type ListSource } from './layout';

const input = (n: number): InputSummary => ({ input: n, name: `in${n}`, bytes: 1, sha256: '', format: 'cbor-seq', records: 0, error: null });
/** Keys 0–9: 0–3 of input 0, 4–5 of input 1, 6–9 of input 2. */
const inputOf = (key: number) => (key < 4 ? 0 : key < 6 ? 1 : 2);
const source = (keys: number[]): ListSource => ({ count: keys.length, keyAt: (i) => keys[i], inputOf });
const inputs = [input(0), input(1), input(2)];

describe('the record list layout', () => {
  it('puts each input under its header in log order, and leaves out an input a filter emptied', () => {
    const all = layoutList(inputs, source([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), true, 30, () => 20, false);
    expect(all.segments.map((s) => [s.input?.input, s.top, s.from, s.to])).toEqual([
      [0, 0, 0, 4],
      [1, 140, 4, 6],
      [2, 220, 6, 10],
    ]);
    expect(all.total).toBe(20 * 3 + 30 * 10);
    expect(rowTop(all, 5)).toBe(140 + 20 + 30);
    const some = layoutList(inputs, source([1, 7, 9]), true, 30, () => 20, true);
    expect(some.segments.map((s) => s.input?.input)).toEqual([0, 2]);
  });

  it('lays a sorted list out as one stretch without headers', () => {
    const sorted = layoutList(inputs, source([9, 0, 5]), false, 30, () => 20, true);
    expect(sorted.segments).toEqual([{ input: null, top: 0, head: 0, from: 0, to: 3 }]);
    expect(rowTop(sorted, 2)).toBe(60);
    expect(rowsBetween(sorted, 0, 45).map((r) => (r.kind === 'record' ? r.index : 'head'))).toEqual([0, 1]);
  });

  it('gives the headers and rows in a window, and nothing outside it', () => {
    const all = layoutList(inputs, source([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), true, 30, () => 20, false);
    const rows = rowsBetween(all, 130, 200).map((r) => (r.kind === 'record' ? r.index : `head ${r.segment.input?.input}`));
    expect(rows).toEqual([3, 'head 1', 4, 5]);
  });

  it('finds a key in every record, keys in log order and sorted keys', () => {
    expect(positions(null, false, 10)(7)).toBe(7);
    expect(positions(null, false, 10)(12)).toBe(-1);
    const filtered = positions(Int32Array.from([1, 4, 8]), false, 10);
    expect([filtered(4), filtered(5), filtered(8)]).toEqual([1, -1, 2]);
    const sorted = positions(Int32Array.from([8, 1, 4]), true, 10);
    expect([sorted(8), sorted(1), sorted(4), sorted(2), sorted(-1), sorted(99)]).toEqual([0, 1, 2, -1, -1, -1]);
    // A key past the store's size (a reply older than a clear) is still found.
    expect(positions(Int32Array.from([12, 3]), true, 10)(12)).toBe(0);
  });
});
