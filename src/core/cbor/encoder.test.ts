import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../bytes';
import { toDiagnostic } from './diagnostic';
import { CborWriter, numberToHalf } from './encoder';
import { halfToNumber, readSingle } from './reader';
import type { CborItem } from './reader';

const w = () => new CborWriter();
const hexOf = (writer: CborWriter) => toHex(writer.finish());

function read(bytes: Uint8Array): CborItem {
  const res = readSingle(bytes);
  if (!res.ok) throw new Error(`${res.error.code} at ${res.error.offset}: ${res.error.message}`);
  expect(res.value.end).toBe(bytes.length);
  return res.value;
}

function intOf(item: CborItem): bigint {
  if (item.kind !== 'uint' && item.kind !== 'nint') throw new Error(`expected an integer, got ${item.kind}`);
  return BigInt(item.value);
}

function floatOf(item: CborItem): number {
  if (item.kind !== 'float') throw new Error(`expected a float, got ${item.kind}`);
  return item.value;
}

// ---------------------------------------------------------------------------------------------
// A small value model, written with CborWriter and read back with readSingle
// ---------------------------------------------------------------------------------------------

type Model =
  | { int: bigint }
  | { float: number }
  | { text: string }
  | { bytes: string }
  | { bool: boolean }
  | { null: true }
  | { array: Model[] }
  | { map: [Model, Model][] }
  | { tag: bigint; item: Model };

function write(writer: CborWriter, m: Model): CborWriter {
  if ('int' in m) return writer.int(m.int);
  if ('float' in m) return writer.float(m.float);
  if ('text' in m) return writer.text(m.text);
  if ('bytes' in m) return writer.bytes(fromHex(m.bytes)!);
  if ('bool' in m) return writer.bool(m.bool);
  if ('null' in m) return writer.null();
  if ('array' in m) {
    writer.head(4, m.array.length);
    for (const x of m.array) write(writer, x);
    return writer;
  }
  if ('map' in m) {
    writer.head(5, m.map.length);
    for (const [k, v] of m.map) write(write(writer, k), v);
    return writer;
  }
  return write(writer.head(6, m.tag), m.item);
}

function model(item: CborItem): Model {
  switch (item.kind) {
    case 'uint':
    case 'nint':
      return { int: BigInt(item.value) };
    case 'float':
      return { float: item.value };
    case 'text':
      return { text: item.value };
    case 'bytes':
      return { bytes: toHex(item.value) };
    case 'simple':
      if (item.value === 20 || item.value === 21) return { bool: item.value === 21 };
      if (item.value === 22) return { null: true };
      throw new Error(`unexpected simple(${item.value})`);
    case 'array':
      return { array: item.items.map(model) };
    case 'map':
      return { map: item.entries.map((e): [Model, Model] => [model(e.key), model(e.value)]) };
    case 'tag':
      return { tag: BigInt(item.tag), item: model(item.item) };
  }
}

/** Every item the writer produces is minimal and definite, recursively. */
function allMinimal(item: CborItem): boolean {
  if (!item.minimal || item.indefinite) return false;
  if (item.kind === 'array') return item.items.every(allMinimal);
  if (item.kind === 'map') return item.entries.every((e) => allMinimal(e.key) && allMinimal(e.value));
  if (item.kind === 'tag') return allMinimal(item.item);
  return true;
}

const U64_MAX = 2n ** 64n - 1n;

const modelArb: fc.Arbitrary<Model> = fc.letrec<{ model: Model }>((tie) => ({
  model: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.bigInt({ min: -(2n ** 64n), max: U64_MAX }).map((int) => ({ int })),
    fc.oneof(fc.integer(), fc.constantFrom(0, 23, 24, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, -24, -25, -256, -257)).map((n) => ({ int: BigInt(n) })),
    fc.double().map((float) => ({ float })),
    fc.string({ unit: 'grapheme', maxLength: 40 }).map((text) => ({ text })),
    fc.uint8Array({ maxLength: 40 }).map((b) => ({ bytes: toHex(b) })),
    fc.boolean().map((bool) => ({ bool })),
    fc.constant({ null: true as const }),
    fc.array(tie('model'), { maxLength: 5 }).map((array) => ({ array })),
    fc.array(fc.tuple(tie('model'), tie('model')), { maxLength: 4 }).map((map) => ({ map })),
    fc.tuple(fc.bigInt({ min: 0n, max: U64_MAX }), tie('model')).map(([tag, item]) => ({ tag, item })),
  ),
})).model;

// ---------------------------------------------------------------------------------------------
// Integers and heads
// ---------------------------------------------------------------------------------------------

describe('CborWriter heads', () => {
  it.each([
    [0, '00'],
    [1, '01'],
    [23, '17'],
    [24, '1818'],
    [255, '18ff'],
    [256, '190100'],
    [65535, '19ffff'],
    [65536, '1a00010000'],
    [2 ** 32 - 1, '1affffffff'],
    [2 ** 32, '1b0000000100000000'],
    [2 ** 53 - 1, '1b001fffffffffffff'],
    [2 ** 53, '1b0020000000000000'],
    [2 ** 63, '1b8000000000000000'],
    [2n ** 32n - 1n, '1affffffff'],
    [2n ** 32n, '1b0000000100000000'],
    [2n ** 64n - 1n, '1bffffffffffffffff'],
    [0n, '00'],
    [24n, '1818'],
  ])('uint(%s) → %s (shortest head)', (value, expected) => {
    expect(hexOf(w().uint(value))).toBe(expected);
    expect(hexOf(w().int(value))).toBe(expected);
    const item = read(fromHex(expected)!);
    expect(item).toMatchObject({ kind: 'uint', minimal: true });
    expect(intOf(item)).toBe(BigInt(value));
  });

  it.each([
    [-1, '20'],
    [-24, '37'],
    [-25, '3818'],
    [-256, '38ff'],
    [-257, '390100'],
    [-65536, '39ffff'],
    [-65537, '3a00010000'],
    [-(2 ** 32), '3affffffff'],
    [-(2 ** 32) - 1, '3b0000000100000000'],
    [-(2 ** 53) + 1, '3b001ffffffffffffe'],
    [-(2 ** 53), '3b001fffffffffffff'],
    [-(2 ** 60), '3b0fffffffffffffff'], // -1 - value is not exact in doubles here
    [-(2 ** 63), '3b7fffffffffffffff'],
    [-(2 ** 64), '3bffffffffffffffff'],
    [-1n, '20'],
    [-25n, '3818'],
    [-(2n ** 32n) - 1n, '3b0000000100000000'],
    [-(2n ** 64n), '3bffffffffffffffff'],
  ])('int(%s) → %s', (value, expected) => {
    expect(hexOf(w().int(value))).toBe(expected);
    const item = read(fromHex(expected)!);
    expect(item).toMatchObject({ kind: 'nint', minimal: true });
    expect(intOf(item)).toBe(BigInt(value));
  });

  it('uses the same shortest heads for every major type', () => {
    expect(hexOf(w().head(2, 24))).toBe('5818');
    expect(hexOf(w().head(3, 256))).toBe('790100');
    expect(hexOf(w().head(4, 65536))).toBe('9a00010000');
    expect(hexOf(w().head(5, 23))).toBe('b7');
    expect(hexOf(w().head(6, 2n ** 32n))).toBe('db0000000100000000');
    expect(hexOf(w().head(7, 0))).toBe('e0');
    expect(hexOf(w().bytes(new Uint8Array(24)))).toBe('5818' + '00'.repeat(24));
    expect(hexOf(w().text('a'.repeat(23)))).toBe('77' + '61'.repeat(23));
    expect(hexOf(w().text('a'.repeat(256))).slice(0, 6)).toBe('790100');
  });

  it('rejects head arguments that CBOR cannot carry instead of writing wrong bytes', () => {
    expect(() => w().uint(-1)).toThrow(RangeError); // used to write 0xff, a break
    expect(() => w().uint(1.5)).toThrow(RangeError); // used to write 01
    expect(() => w().uint(NaN)).toThrow(RangeError);
    expect(() => w().uint(Infinity)).toThrow(RangeError);
    expect(() => w().uint(2 ** 64)).toThrow(RangeError); // used to wrap to 0
    expect(() => w().uint(2n ** 64n)).toThrow(RangeError); // used to wrap to 0
    expect(() => w().uint(-1n)).toThrow(RangeError);
    expect(() => w().int(-(2n ** 64n) - 1n)).toThrow(RangeError);
    expect(() => w().int(-(2 ** 65))).toThrow(RangeError);
    expect(() => w().int(-1.5)).toThrow(RangeError);
    expect(() => w().int(NaN)).toThrow(RangeError);
    expect(() => w().int(-Infinity)).toThrow(RangeError);
    expect(() => w().head(4, -3)).toThrow(RangeError);
    // -0 is an integer zero.
    expect(hexOf(w().int(-0))).toBe('00');
    expect(hexOf(w().uint(-0))).toBe('00');
  });

  it('round-trips random integers in [-2^64, 2^64 - 1] with the shortest head', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 64n), max: U64_MAX }), (n) => {
        const bytes = w().int(n).finish();
        const item = read(bytes);
        expect(intOf(item)).toBe(n);
        expect(item.minimal).toBe(true);
        const arg = n < 0n ? -1n - n : n;
        const len = arg < 24n ? 1 : arg <= 0xffn ? 2 : arg <= 0xffffn ? 3 : arg <= 0xffffffffn ? 5 : 9;
        expect(bytes.length).toBe(len);
        // A safe number gives the same bytes as its bigint.
        if (n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)) expect(w().int(Number(n)).finish()).toEqual(bytes);
      }),
      { numRuns: 1000 },
    );
  });

  it('encodes every integral double exactly (including beyond 2^53)', () => {
    fc.assert(
      fc.property(fc.double({ min: -(2 ** 64), max: 2 ** 64 - 2048, noNaN: true }), (d) => {
        const n = Math.trunc(d);
        const item = read(w().int(n).finish());
        expect(intOf(item)).toBe(BigInt(n));
      }),
      { numRuns: 1000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Floats
// ---------------------------------------------------------------------------------------------

describe('CborWriter floats (ciborium width rule)', () => {
  it.each([
    [1.0, 'f93c00'],
    [1.5, 'f93e00'],
    [65504, 'f97bff'],
    [100000.0, 'fa47c35000'],
    [1.1, 'fb3ff199999999999a'],
    [2 ** -24, 'f90001'],
    [0.00006103515625, 'f90400'],
    [0.0, 'f90000'],
    [-0.0, 'f98000'],
    [-4.0, 'f9c400'],
    [-4.1, 'fbc010666666666666'],
    [Infinity, 'f97c00'],
    [-Infinity, 'f9fc00'],
    [NaN, 'f97e00'],
    [3.4028234663852886e38, 'fa7f7fffff'],
    [1.0e300, 'fb7e37e43c8800759c'],
    [1363896240.5, 'fb41d452d9ec200000'],
    [65505, 'fa477fe100'], // above the largest half: single
    [65520, 'fa477ff000'], // would round to half Infinity: not exact, so single
    [2 ** -24 * 3, 'f90003'], // half subnormal
    [2 ** -14 - 2 ** -24, 'f903ff'], // largest half subnormal
    [2 ** -25, 'fa33000000'], // below the smallest half subnormal: single
    [1 + 2 ** -10, 'f93c01'],
    [1 + 2 ** -11, 'fa3f801000'], // needs 11 fraction bits
    [2 ** -149, 'fa00000001'], // smallest single subnormal
    [2 ** -150, 'fb3690000000000000'],
    [Number.MIN_VALUE, 'fb0000000000000001'],
    [Number.MAX_VALUE, 'fb7fefffffffffffff'],
    [16777216, 'fa4b800000'],
    [16777217, 'fb4170000010000000'],
  ])('float(%s) → %s', (value, expected) => {
    const bytes = w().float(value).finish();
    expect(toHex(bytes)).toBe(expected);
    const item = read(bytes);
    expect(item.kind).toBe('float');
    expect(Object.is(floatOf(item), value)).toBe(true);
  });

  const HALF_OF = (() => {
    // Every half value (NaN aside) mapped to its bit pattern: an oracle independent of numberToHalf.
    const key = (v: number) => (Object.is(v, -0) ? '-0' : String(v)); // keeps -0 apart from +0
    const m = new Map<string, number>();
    for (let h = 0; h < 0x10000; h++) {
      const v = halfToNumber(h);
      if (!Number.isNaN(v)) m.set(key(v), h);
    }
    return (v: number) => m.get(key(v));
  })();

  function expectedWidth(v: number): 16 | 32 | 64 {
    if (Number.isNaN(v) || HALF_OF(v) !== undefined) return 16;
    return Object.is(Math.fround(v), v) ? 32 : 64;
  }

  it('numberToHalf inverts halfToNumber for all 65,536 half bit patterns', () => {
    for (let h = 0; h < 0x10000; h++) {
      const v = halfToNumber(h);
      expect(numberToHalf(v)).toBe(Number.isNaN(v) ? 0x7e00 : h);
    }
  });

  it('numberToHalf is null exactly when no half holds the value', () => {
    for (const v of [1.1, 65505, 65520, 65536, 100000, 2 ** -25, 1 + 2 ** -11, 2 ** -24 * 1.5, 2 ** 16, 1e-300, 1e300, Number.MAX_VALUE]) {
      expect(numberToHalf(v)).toBeNull();
      expect(HALF_OF(v)).toBeUndefined();
    }
  });

  it('random doubles decode to the same value in the smallest exact width', () => {
    fc.assert(
      fc.property(fc.double(), (v) => {
        const bytes = w().float(v).finish();
        const item = read(bytes);
        expect(item.kind).toBe('float');
        if (item.kind !== 'float') return;
        expect(Object.is(item.value, v)).toBe(true);
        const width = expectedWidth(v);
        expect(item.width).toBe(width);
        expect(bytes.length).toBe(1 + width / 8);
        expect(numberToHalf(v) !== null).toBe(width === 16);
      }),
      { numRuns: 5000 },
    );
  });

  it('values that are exactly halves or singles use that width', () => {
    const view = new DataView(new ArrayBuffer(4));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffffffff }), (h, s) => {
        const half = halfToNumber(h);
        const hb = w().float(half).finish();
        if (Number.isNaN(half)) expect(toHex(hb)).toBe('f97e00');
        else expect(toHex(hb)).toBe('f9' + h.toString(16).padStart(4, '0'));
        view.setUint32(0, s);
        const single = view.getFloat32(0);
        const item = read(w().float(single).finish());
        expect(Object.is(floatOf(item), single)).toBe(true);
        expect((item as { width: number }).width).toBe(expectedWidth(single));
        expect((item as { width: number }).width).toBeLessThanOrEqual(32);
      }),
      { numRuns: 3000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Strings, simple values, buffer growth and whole-value round trips
// ---------------------------------------------------------------------------------------------

describe('CborWriter round trips', () => {
  it('writes strings, bools, null, raw and appended bytes', () => {
    expect(hexOf(w().text(''))).toBe('60');
    expect(hexOf(w().text('\u00fc'))).toBe('62c3bc');
    expect(hexOf(w().text('\u6c34'))).toBe('63e6b0b4');
    expect(hexOf(w().text('\ud800\udd51'))).toBe('64f0908591');
    expect(hexOf(w().text('\ufeffa'))).toBe('64efbbbf61');
    expect(read(w().text('\ufeffa').finish())).toMatchObject({ kind: 'text', value: '\ufeffa' });
    expect(hexOf(w().textBytes(new Uint8Array([0x61, 0x62])))).toBe('626162');
    expect(hexOf(w().bytes(new Uint8Array(0)))).toBe('40');
    expect(hexOf(w().bytes(new Uint8Array([1, 2, 3, 4])))).toBe('4401020304');
    expect(hexOf(w().bool(false).bool(true).null())).toBe('f4f5f6');
    expect(
      hexOf(
        w()
          .raw(0x82)
          .uint(1)
          .append(new Uint8Array([0x02])),
      ),
    ).toBe('820102');
  });

  it('grows its buffer for large values and keeps earlier bytes', () => {
    const big = new Uint8Array(100_000).map((_, i) => i & 0xff);
    const writer = w().head(4, 3).uint(7).bytes(big).text('end');
    const bytes = writer.finish();
    const item = read(bytes);
    if (item.kind !== 'array') throw new Error('shape');
    expect(item.items[0]).toMatchObject({ value: 7 });
    expect(item.items[1]).toMatchObject({ kind: 'bytes', value: big, contentStart: 7 });
    expect(item.items[2]).toMatchObject({ kind: 'text', value: 'end' });
    // Many small writes across the growth boundary.
    const many = w().head(4, 2000);
    for (let i = 0; i < 1000; i++) many.uint(i).float(i + 0.5);
    const arr = read(many.finish());
    if (arr.kind !== 'array') throw new Error('shape');
    expect(arr.items).toHaveLength(2000);
    expect(arr.items.map((x) => (x.kind === 'float' ? x.value : Number(intOf(x))))).toEqual(Array.from({ length: 1000 }, (_, i) => [i, i + 0.5]).flat());
  });

  it('finish returns a copy; the writer can keep going', () => {
    const writer = w().uint(1);
    const a = writer.finish();
    writer.uint(2);
    const b = writer.finish();
    expect(toHex(a)).toBe('01');
    expect(toHex(b)).toBe('0102');
    a[0] = 0xff;
    expect(toHex(writer.finish())).toBe('0102');
  });

  it('writes a nested document that reads back with exact spans', () => {
    const writer = w()
      .head(5, 3)
      .text('id')
      .bytes(new Uint8Array([0xde, 0xad]))
      .text('n')
      .head(4, 3)
      .int(-1)
      .float(1.5)
      .float(1.1)
      .text('t')
      .head(6, 1)
      .uint(1363896240);
    const bytes = writer.finish();
    expect(toHex(bytes)).toBe('a3' + '626964' + '42dead' + '616e' + '8320f93e00fb3ff199999999999a' + '6174' + 'c11a514b67b0');
    const item = read(bytes);
    expect(toDiagnostic(item)).toBe('{"id": h\'dead\', "n": [-1, 1.5_1, 1.1], "t": 1(1363896240)}');
    expect(allMinimal(item)).toBe(true);
    if (item.kind !== 'map') throw new Error('shape');
    expect(item.entries.map((e) => toHex(bytes.subarray(e.value.start, e.value.end)))).toEqual(['42dead', '8320f93e00fb3ff199999999999a', 'c11a514b67b0']);
  });

  it('random values round-trip through readSingle unchanged, minimal and definite', () => {
    fc.assert(
      fc.property(modelArb, (m) => {
        const bytes = write(w(), m).finish();
        const item = read(bytes);
        expect(model(item)).toEqual(m);
        expect(allMinimal(item)).toBe(true);
        // Writing the decoded value again gives the same bytes (the encoding is canonical).
        expect(write(w(), model(item)).finish()).toEqual(bytes);
      }),
      { numRuns: 1000 },
    );
  });
});
