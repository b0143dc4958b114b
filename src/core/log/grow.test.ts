import { describe, expect, it } from 'vitest';
import { Column, grown } from './grow';

const kinds = [
  ['Int32Array', (n: number) => new Int32Array(n), (i: number) => i * 7 - 1000],
  ['Uint32Array', (n: number) => new Uint32Array(n), (i: number) => (i * 2654435761) >>> 0],
  ['Float64Array', (n: number) => new Float64Array(n), (i: number) => i / 3],
  ['Uint8Array', (n: number) => new Uint8Array(n), (i: number) => i & 255],
] as const;

describe('Column', () => {
  for (const [name, make, value] of kinds) {
    for (const maxBytes of [undefined, 4096, 0]) {
      it(`keeps every value pushed into a ${name} column, in order, at the exact length (maxBytes ${maxBytes ?? 'default'})`, () => {
        const column = new Column(make as (n: number) => Int32Array, { maxBytes, initial: maxBytes === 0 ? 1 : undefined });
        const n = 5000;
        for (let i = 0; i < n; i++) column.push(value(i));
        const out = column.done();
        expect(out.constructor.name).toBe(name);
        expect(out.length).toBe(n);
        // A plain array (not a view of a resizable buffer that a later push could move).
        expect((out.buffer as ArrayBuffer).resizable).toBe(false);
        const expected = make(n);
        for (let i = 0; i < n; i++) expected[i] = value(i);
        expect(Array.from(out)).toEqual(Array.from(expected));
      });
    }
  }

  it('starts again empty after done, and an empty column gives an empty array', () => {
    const column = new Column((n) => new Int32Array(n));
    expect(column.done().length).toBe(0);
    column.push(1);
    column.push(2);
    expect(Array.from(column.done())).toEqual([1, 2]);
    column.push(3);
    expect(Array.from(column.done())).toEqual([3]);
  });
});

describe('grown', () => {
  it('doubles, or grows to what is asked when that is more, keeping the values', () => {
    const a = Int32Array.of(1, 2, 3);
    expect(Array.from(grown(a))).toEqual([1, 2, 3, 0, 0, 0]);
    expect(grown(a, 10).length).toBe(10);
  });
});
