import { describe, expect, it } from 'vitest';
import { SparseIntegers, SparseValues } from './sparse';

describe('sparse columns', () => {
  it('give back what was set for each entry, undefined for the others, in any order of reading', () => {
    const ints = new SparseIntegers();
    const values = new SparseValues<string>();
    const ref = new Map<number, number | bigint>();
    for (let k = 0; k < 10_000; k++) {
      if (k % 3 !== 0) continue;
      const v = k % 7 === 0 ? 2n ** 70n + BigInt(k) : k % 5 === 0 ? -k * 1e9 : k;
      ints.set(k, v);
      values.set(k, `v${k}`);
      ref.set(k, v);
    }
    expect(ints.size).toBe(ref.size);
    const read = (k: number) => {
      expect(ints.get(k)).toBe(ref.get(k));
      expect(values.get(k)).toBe(ref.has(k) ? `v${k}` : undefined);
    };
    for (let k = 0; k < 10_001; k++) read(k);
    for (let k = 10_000; k >= 0; k -= 7) read(k);
    for (let i = 0; i < 2000; i++) read((i * 7919) % 10_003);
  });

  it('keep a bigint a double holds exactly as a number, any other as a bigint, and give either back as a bigint', () => {
    const ints = new SparseIntegers();
    ints.set(0, 2n ** 53n - 1n);
    ints.set(1, 2n ** 53n);
    ints.set(2, -(2n ** 53n - 1n));
    expect(ints.get(0)).toBe(2 ** 53 - 1);
    expect(ints.get(1)).toBe(2n ** 53n);
    expect(ints.get(2)).toBe(-(2 ** 53 - 1));
    expect([0, 1, 2, 3].map((k) => ints.bigint(k))).toEqual([2n ** 53n - 1n, 2n ** 53n, -(2n ** 53n - 1n), null]);
  });

  it('give back what was set after the column is trimmed, and across its change from 32-bit values to doubles', () => {
    const ints = new SparseIntegers();
    const ref = new Map<number, number>();
    for (let k = 0; k < 3000; k += 2) {
      // 32-bit values first, then one past them (2^31), then any: the earlier ones stay exact.
      const v = k < 1000 ? k - 500 : k === 1000 ? 2 ** 31 : k % 3 === 0 ? -(2 ** 40) - k : k;
      ints.set(k, v);
      ref.set(k, v);
    }
    const values = new SparseValues<number>();
    for (let k = 1; k < 3000; k += 5) values.set(k, k);
    ints.trim();
    values.trim();
    for (let k = 0; k < 3000; k++) {
      expect(ints.get(k)).toBe(ref.get(k));
      expect(values.get(k)).toBe(k % 5 === 1 ? k : undefined);
    }
    // −0 is not a 32-bit integer: it is kept as it was given.
    const zero = new SparseIntegers();
    zero.set(0, -0);
    expect(Object.is(zero.get(0), -0)).toBe(true);
    // Set after a trim, it grows again.
    ints.set(5000, 7);
    expect(ints.get(5000)).toBe(7);
    expect(ints.get(2998)).toBe(2998);
  });

  it('throw a TypeError for an entry set out of order or not an entry number', () => {
    const ints = new SparseIntegers();
    ints.set(4, 1);
    expect(() => ints.set(4, 2)).toThrow(TypeError);
    expect(() => ints.set(3, 2)).toThrow(TypeError);
    expect(() => new SparseValues().set(-1, 'x')).toThrow(TypeError);
    expect(() => new SparseValues().set(1.5, 'x')).toThrow(TypeError);
  });
});
