import { describe, expect, it } from 'vitest';
import { toCrockford, ulidTimeMs } from '../bytes';
import { IdTable } from './ids';

const id = (n: number, length = 16) => {
  const b = new Uint8Array(length);
  new DataView(b.buffer).setUint32(length - 4, n);
  b[0] = 1;
  return b;
};

describe('IdTable', () => {
  it('numbers each distinct id once, in the order first interned, and gives back its bytes and text', () => {
    const t = new IdTable();
    expect(t.intern(id(7))).toBe(0);
    expect(t.intern(id(9))).toBe(1);
    expect(t.intern(id(7))).toBe(0);
    expect(t.size).toBe(2);
    expect([...t.bytesOf(1)]).toEqual([...id(9)]);
    expect(t.text(0)).toBe(toCrockford(id(7)));
    expect(t.text(-1)).toBeNull();
    expect(t.find(id(9))).toBe(1);
    expect(t.find(id(8))).toBe(-1);
  });

  it('copies what it interns: a view written later changes nothing', () => {
    const t = new IdTable();
    const b = id(1);
    t.intern(b);
    b[15] = 99;
    expect(t.find(id(1))).toBe(0);
    expect(t.find(b)).toBe(-1);
  });

  it('agrees with a Map of the texts over many ids of several lengths, through growth', () => {
    const t = new IdTable();
    const ref = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const length = [16, 16, 16, 8, 0, 20][i % 6];
      const b = id((i * 7919) % 6151, Math.max(length, 4));
      const bytes = length === 0 ? new Uint8Array(0) : b;
      const key = toCrockford(bytes) + ':' + bytes.length;
      const n = t.intern(bytes);
      if (!ref.has(key)) ref.set(key, ref.size);
      expect(n).toBe(ref.get(key));
    }
    expect(t.size).toBe(ref.size);
    for (let n = 0; n < t.size; n++) expect(t.find(t.bytesOf(n).slice())).toBe(n);
  });

  it('ids of one length, then of another: each gives back its bytes, text and number, before and after sealing', () => {
    // While every id has the first one's length, no starts are kept (ids.ts IdTable.starts).
    for (const other of [3, 0, 20]) {
      const t = new IdTable();
      const ids: Uint8Array[] = [];
      for (let i = 0; i < 3000; i++) ids.push(i === 1500 ? id(i, Math.max(other, 4)).subarray(0, other) : id(i));
      for (const [i, b] of ids.entries()) expect(t.intern(b)).toBe(i);
      const check = () =>
        ids.forEach((b, i) => {
          expect([...t.bytesOf(i)]).toEqual([...b]);
          expect(t.text(i)).toBe(toCrockford(b));
        });
      check();
      for (const [i, b] of ids.entries()) expect(t.find(b)).toBe(i);
      t.seal();
      check();
    }
  });

  it("gives an id's ULID time as bytes/index.ts ulidTimeMs reads it, 0 for one shorter than 6 bytes", () => {
    const t = new IdTable();
    const ids = [id(1), Uint8Array.of(0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0xfa, 1), Uint8Array.of(1, 2, 3, 4, 5), new Uint8Array(16)];
    for (const b of ids) t.intern(b);
    for (const [n, b] of ids.entries()) expect(t.ulidMs(n)).toBe(b.length < 6 ? 0 : ulidTimeMs(b));
    expect(t.ulidMs(1)).toBe(0xfffefdfcfbfa);
    t.seal();
    expect(t.ulidMs(1)).toBe(0xfffefdfcfbfa);
    expect(() => t.ulidMs(4)).toThrow(TypeError);
  });

  it('throws a TypeError for a number it did not give', () => {
    const t = new IdTable();
    t.intern(id(1));
    expect(() => t.bytesOf(1)).toThrow(TypeError);
    expect(() => t.text(2)).toThrow(TypeError);
    expect(() => t.bytesOf(0.5)).toThrow(TypeError);
  });
});

describe('IdTable.seal', () => {
  it('keeps every number’s bytes and text, and refuses to intern or find after', () => {
    const t = new IdTable();
    for (let i = 0; i < 1000; i++) t.intern(id(i));
    const texts = Array.from({ length: t.size }, (_, n) => t.text(n));
    t.seal();
    t.seal();
    expect(Array.from({ length: t.size }, (_, n) => t.text(n))).toEqual(texts);
    expect([...t.bytesOf(999)]).toEqual([...id(999)]);
    expect(() => t.intern(id(1))).toThrow(TypeError);
    expect(() => t.find(id(1))).toThrow(TypeError);
  });
});
