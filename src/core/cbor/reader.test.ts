import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../bytes';
import { toDiagnostic } from './diagnostic';
import { halfToNumber, isNull, MAX_ITEMS, readItemAt, readSequence, readSingle, untag } from './reader';
import type { CborError, CborItem } from './reader';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function hex(text: string): Uint8Array {
  const bytes = fromHex(text);
  if (!bytes) throw new Error(`bad hex in test: ${text}`);
  return bytes;
}

function ok(bytes: Uint8Array | string): CborItem {
  const res = readSingle(typeof bytes === 'string' ? hex(bytes) : bytes);
  if (!res.ok) throw new Error(`expected ok, got ${res.error.code} at ${res.error.offset}: ${res.error.message}`);
  return res.value;
}

function err(bytes: Uint8Array | string): CborError {
  const res = readSingle(typeof bytes === 'string' ? hex(bytes) : bytes);
  if (res.ok) throw new Error(`expected an error, got ${toDiagnostic(res.value)}`);
  return res.error;
}

/**
 * A plain structural view of an item, for comparing with expectations:
 * uint/nint → number | bigint; definite text → string; definite array → array;
 * everything else → a small tagged object. Indefinite containers say so.
 */
type Plain =
  | number
  | bigint
  | string
  | Plain[]
  | { float: number; width: 16 | 32 | 64 }
  | { simple: number }
  | { bytes: string; indefinite?: true }
  | { text: string; indefinite: true }
  | { array: Plain[]; indefinite: true }
  | { map: [Plain, Plain][]; indefinite?: true }
  | { tag: number | bigint; item: Plain };

function plain(item: CborItem): Plain {
  switch (item.kind) {
    case 'uint':
    case 'nint':
      return item.value;
    case 'float':
      return { float: item.value, width: item.width };
    case 'simple':
      return { simple: item.value };
    case 'bytes':
      return item.indefinite ? { bytes: toHex(item.value), indefinite: true } : { bytes: toHex(item.value) };
    case 'text':
      return item.indefinite ? { text: item.value, indefinite: true } : item.value;
    case 'array':
      return item.indefinite ? { array: item.items.map(plain), indefinite: true } : item.items.map(plain);
    case 'map': {
      const map = item.entries.map((e): [Plain, Plain] => [plain(e.key), plain(e.value)]);
      return item.indefinite ? { map, indefinite: true } : { map };
    }
    case 'tag':
      return { tag: item.tag, item: plain(item.item) };
  }
}

// Shorthands for expectations.
const f = (float: number, width: 16 | 32 | 64) => ({ float, width });
const simple = (value: number) => ({ simple: value });
const bytes = (h: string) => ({ bytes: h });
const tag = (t: number | bigint, item: Plain) => ({ tag: t, item });
const map = (...entries: [Plain, Plain][]) => ({ map: entries });
const imap = (...entries: [Plain, Plain][]) => ({ map: entries, indefinite: true as const });
const iarr = (...items: Plain[]) => ({ array: items, indefinite: true as const });
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** Checks invariants every item in a tree must keep: spans nest and tile, integers are bigint exactly when unsafe. */
function checkTree(item: CborItem, bytesIn: Uint8Array): void {
  expect(item.start).toBeGreaterThanOrEqual(0);
  expect(item.end).toBeGreaterThan(item.start);
  expect(item.end).toBeLessThanOrEqual(bytesIn.length);
  const children: CborItem[] =
    item.kind === 'array' ? item.items : item.kind === 'map' ? item.entries.flatMap((e) => [e.key, e.value]) : item.kind === 'tag' ? [item.item] : [];
  let pos = -1;
  for (const c of children) {
    expect(c.start).toBeGreaterThan(item.start);
    expect(c.end).toBeLessThanOrEqual(item.end);
    if (pos >= 0) expect(c.start).toBe(pos); // children are back to back
    pos = c.end;
    checkTree(c, bytesIn);
  }
  if (item.kind === 'tag') expect(item.item.end).toBe(item.end);
  if ((item.kind === 'array' || item.kind === 'map') && !item.indefinite && children.length) expect(pos).toBe(item.end);
  if ((item.kind === 'array' || item.kind === 'map') && item.indefinite) {
    expect(bytesIn[item.end - 1]).toBe(0xff);
    if (children.length) expect(pos).toBe(item.end - 1);
  }
  if ((item.kind === 'bytes' || item.kind === 'text') && !item.indefinite) {
    expect(item.end - item.contentStart).toBe(item.kind === 'bytes' ? item.value.length : new TextEncoder().encode(item.value).length);
  }
  if ((item.kind === 'bytes' || item.kind === 'text') && item.indefinite) expect(item.contentStart).toBe(-1);
  if (item.kind === 'uint' || item.kind === 'nint') {
    const big = typeof item.value === 'bigint';
    const v = BigInt(item.value);
    expect(big).toBe(v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER));
    expect(item.kind === 'uint' ? v >= 0n : v < 0n).toBe(true);
  }
  // The slice of an item is itself a single well-formed item with the same content.
  const again = readSingle(bytesIn.slice(item.start, item.end));
  expect(again.ok).toBe(true);
  if (again.ok) expect(plain(again.value)).toEqual(plain(item));
}

// ---------------------------------------------------------------------------------------------
// 1. RFC 8949 Appendix A
// ---------------------------------------------------------------------------------------------

interface Vector {
  hex: string;
  value: Plain;
  /** Diagnostic notation as printed in RFC 8949 Appendix A. */
  rfc: string;
  /** Our toDiagnostic output where it differs from the RFC column (float width suffixes, 1e+300, joined chunks, raw Unicode). */
  ours?: string;
  /** Defaults: indefinite false, minimal = !indefinite. */
  indefinite?: boolean;
}

const APPENDIX_A: Vector[] = [
  // Integers
  { hex: '00', value: 0, rfc: '0' },
  { hex: '01', value: 1, rfc: '1' },
  { hex: '0a', value: 10, rfc: '10' },
  { hex: '17', value: 23, rfc: '23' },
  { hex: '1818', value: 24, rfc: '24' },
  { hex: '1819', value: 25, rfc: '25' },
  { hex: '1864', value: 100, rfc: '100' },
  { hex: '1903e8', value: 1000, rfc: '1000' },
  { hex: '1a000f4240', value: 1000000, rfc: '1000000' },
  { hex: '1b000000e8d4a51000', value: 1000000000000, rfc: '1000000000000' },
  { hex: '1bffffffffffffffff', value: 18446744073709551615n, rfc: '18446744073709551615' },
  { hex: 'c249010000000000000000', value: tag(2, bytes('010000000000000000')), rfc: "2(h'010000000000000000')" },
  { hex: '3bffffffffffffffff', value: -18446744073709551616n, rfc: '-18446744073709551616' },
  { hex: 'c349010000000000000000', value: tag(3, bytes('010000000000000000')), rfc: "3(h'010000000000000000')" },
  { hex: '20', value: -1, rfc: '-1' },
  { hex: '29', value: -10, rfc: '-10' },
  { hex: '3863', value: -100, rfc: '-100' },
  { hex: '3903e7', value: -1000, rfc: '-1000' },
  // Floats
  { hex: 'f90000', value: f(0, 16), rfc: '0.0', ours: '0.0_1' },
  { hex: 'f98000', value: f(-0, 16), rfc: '-0.0', ours: '-0.0_1' },
  { hex: 'f93c00', value: f(1, 16), rfc: '1.0', ours: '1.0_1' },
  { hex: 'fb3ff199999999999a', value: f(1.1, 64), rfc: '1.1' },
  { hex: 'f93e00', value: f(1.5, 16), rfc: '1.5', ours: '1.5_1' },
  { hex: 'f97bff', value: f(65504, 16), rfc: '65504.0', ours: '65504.0_1' },
  { hex: 'fa47c35000', value: f(100000, 32), rfc: '100000.0', ours: '100000.0_2' },
  { hex: 'fa7f7fffff', value: f(3.4028234663852886e38, 32), rfc: '3.4028234663852886e+38', ours: '3.4028234663852886e+38_2' },
  { hex: 'fb7e37e43c8800759c', value: f(1.0e300, 64), rfc: '1.0e+300', ours: '1e+300' },
  { hex: 'f90001', value: f(2 ** -24, 16), rfc: '5.960464477539063e-8', ours: '5.960464477539063e-8_1' },
  { hex: 'f90400', value: f(0.00006103515625, 16), rfc: '0.00006103515625', ours: '0.00006103515625_1' },
  { hex: 'f9c400', value: f(-4, 16), rfc: '-4.0', ours: '-4.0_1' },
  { hex: 'fbc010666666666666', value: f(-4.1, 64), rfc: '-4.1' },
  { hex: 'f97c00', value: f(Infinity, 16), rfc: 'Infinity', ours: 'Infinity_1' },
  { hex: 'f97e00', value: f(NaN, 16), rfc: 'NaN', ours: 'NaN_1' },
  { hex: 'f9fc00', value: f(-Infinity, 16), rfc: '-Infinity', ours: '-Infinity_1' },
  { hex: 'fa7f800000', value: f(Infinity, 32), rfc: 'Infinity', ours: 'Infinity_2' },
  { hex: 'fa7fc00000', value: f(NaN, 32), rfc: 'NaN', ours: 'NaN_2' },
  { hex: 'faff800000', value: f(-Infinity, 32), rfc: '-Infinity', ours: '-Infinity_2' },
  { hex: 'fb7ff0000000000000', value: f(Infinity, 64), rfc: 'Infinity' },
  { hex: 'fb7ff8000000000000', value: f(NaN, 64), rfc: 'NaN' },
  { hex: 'fbfff0000000000000', value: f(-Infinity, 64), rfc: '-Infinity' },
  // Simple values
  { hex: 'f4', value: simple(20), rfc: 'false' },
  { hex: 'f5', value: simple(21), rfc: 'true' },
  { hex: 'f6', value: simple(22), rfc: 'null' },
  { hex: 'f7', value: simple(23), rfc: 'undefined' },
  { hex: 'f0', value: simple(16), rfc: 'simple(16)' },
  { hex: 'f8ff', value: simple(255), rfc: 'simple(255)' },
  // Tags
  {
    hex: 'c074323031332d30332d32315432303a30343a30305a',
    value: tag(0, '2013-03-21T20:04:00Z'),
    rfc: '0("2013-03-21T20:04:00Z")',
  },
  { hex: 'c11a514b67b0', value: tag(1, 1363896240), rfc: '1(1363896240)' },
  { hex: 'c1fb41d452d9ec200000', value: tag(1, f(1363896240.5, 64)), rfc: '1(1363896240.5)' },
  { hex: 'd74401020304', value: tag(23, bytes('01020304')), rfc: "23(h'01020304')" },
  { hex: 'd818456449455446', value: tag(24, bytes('6449455446')), rfc: "24(h'6449455446')" },
  {
    hex: 'd82076687474703a2f2f7777772e6578616d706c652e636f6d',
    value: tag(32, 'http://www.example.com'),
    rfc: '32("http://www.example.com")',
  },
  // Byte and text strings
  { hex: '40', value: bytes(''), rfc: "h''" },
  { hex: '4401020304', value: bytes('01020304'), rfc: "h'01020304'" },
  { hex: '60', value: '', rfc: '""' },
  { hex: '6161', value: 'a', rfc: '"a"' },
  { hex: '6449455446', value: 'IETF', rfc: '"IETF"' },
  { hex: '62225c', value: '"\\', rfc: '"\\"\\\\"' },
  { hex: '62c3bc', value: '\u00fc', rfc: '"\\u00fc"', ours: '"\u00fc"' },
  { hex: '63e6b0b4', value: '\u6c34', rfc: '"\\u6c34"', ours: '"\u6c34"' },
  { hex: '64f0908591', value: '\ud800\udd51', rfc: '"\\ud800\\udd51"', ours: '"\ud800\udd51"' },
  // Arrays and maps
  { hex: '80', value: [], rfc: '[]' },
  { hex: '83010203', value: [1, 2, 3], rfc: '[1, 2, 3]' },
  { hex: '8301820203820405', value: [1, [2, 3], [4, 5]], rfc: '[1, [2, 3], [4, 5]]' },
  {
    hex: '98190102030405060708090a0b0c0d0e0f101112131415161718181819',
    value: range(1, 25),
    rfc: '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]',
  },
  { hex: 'a0', value: map(), rfc: '{}' },
  { hex: 'a201020304', value: map([1, 2], [3, 4]), rfc: '{1: 2, 3: 4}' },
  { hex: 'a26161016162820203', value: map(['a', 1], ['b', [2, 3]]), rfc: '{"a": 1, "b": [2, 3]}' },
  { hex: '826161a161626163', value: ['a', map(['b', 'c'])], rfc: '["a", {"b": "c"}]' },
  {
    hex: 'a56161614161626142616361436164614461656145',
    value: map(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D'], ['e', 'E']),
    rfc: '{"a": "A", "b": "B", "c": "C", "d": "D", "e": "E"}',
  },
  // Indefinite length
  {
    hex: '5f42010243030405ff',
    value: { bytes: '0102030405', indefinite: true },
    rfc: "(_ h'0102', h'030405')",
    ours: "(_ h'0102030405')", // the reader joins chunks, so their boundaries are not shown
    indefinite: true,
  },
  {
    hex: '7f657374726561646d696e67ff',
    value: { text: 'streaming', indefinite: true },
    rfc: '(_ "strea", "ming")',
    ours: '(_ "streaming")',
    indefinite: true,
  },
  { hex: '9fff', value: iarr(), rfc: '[_ ]', indefinite: true },
  { hex: '9f018202039f0405ffff', value: iarr(1, [2, 3], iarr(4, 5)), rfc: '[_ 1, [2, 3], [_ 4, 5]]', indefinite: true },
  { hex: '9f01820203820405ff', value: iarr(1, [2, 3], [4, 5]), rfc: '[_ 1, [2, 3], [4, 5]]', indefinite: true },
  { hex: '83018202039f0405ff', value: [1, [2, 3], iarr(4, 5)], rfc: '[1, [2, 3], [_ 4, 5]]' },
  { hex: '83019f0203ff820405', value: [1, iarr(2, 3), [4, 5]], rfc: '[1, [_ 2, 3], [4, 5]]' },
  {
    hex: '9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff',
    value: iarr(...range(1, 25)),
    rfc: '[_ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]',
    indefinite: true,
  },
  { hex: 'bf61610161629f0203ffff', value: imap(['a', 1], ['b', iarr(2, 3)]), rfc: '{_ "a": 1, "b": [_ 2, 3]}', indefinite: true },
  { hex: '826161bf61626163ff', value: ['a', imap(['b', 'c'])], rfc: '["a", {_ "b": "c"}]' },
  { hex: 'bf6346756ef563416d7421ff', value: imap(['Fun', simple(21)], ['Amt', -2]), rfc: '{_ "Fun": true, "Amt": -2}', indefinite: true },
];

describe('RFC 8949 Appendix A examples', () => {
  it('covers every row of the table (81 examples)', () => {
    expect(APPENDIX_A).toHaveLength(81);
    expect(new Set(APPENDIX_A.map((v) => v.hex)).size).toBe(APPENDIX_A.length);
  });

  it.each(APPENDIX_A)('$hex → $rfc', (v) => {
    const input = hex(v.hex);
    const item = ok(input);
    expect(plain(item)).toEqual(v.value);
    expect(item.start).toBe(0);
    expect(item.end).toBe(input.length);
    const indefinite = v.indefinite ?? false;
    expect(item.indefinite ?? false).toBe(indefinite);
    expect(item.minimal).toBe(!indefinite);
    if (item.kind === 'float') {
      const expected = (v.value as { float: number }).float;
      expect(Object.is(item.value, expected)).toBe(true);
      expect(item.width).toBe({ 3: 16, 5: 32, 9: 64 }[input.length]);
    }
    expect(toDiagnostic(item)).toBe(v.ours ?? v.rfc);
    checkTree(item, input);
    // readItemAt and readSequence agree with readSingle.
    const at = readItemAt(input, 0);
    expect(at.ok && plain(at.value)).toEqual(plain(item));
    const seq = readSequence(input);
    expect(seq.error).toBeNull();
    expect(seq.items.map(plain)).toEqual([plain(item)]);
  });

  it('our float diagnostics denote the same numbers as the RFC column', () => {
    for (const v of APPENDIX_A) {
      const item = ok(v.hex);
      if (item.kind !== 'float') continue;
      const ours = toDiagnostic(item).replace(/_[123]$/, '');
      expect(Object.is(Number(ours), Number(v.rfc))).toBe(true);
      expect(Object.is(Number(ours), item.value)).toBe(true);
    }
  });

  it('our text diagnostics denote the same strings as the RFC column (JSON escapes)', () => {
    for (const v of APPENDIX_A) {
      const item = ok(v.hex);
      if (item.kind === 'text' && !item.indefinite) expect(JSON.parse(toDiagnostic(item))).toBe(JSON.parse(v.rfc));
    }
  });

  it('decodes the bignum tags to 2^64 and -2^64 - 1', () => {
    const toBig = (b: Uint8Array) => b.reduce((n, x) => (n << 8n) | BigInt(x), 0n);
    const pos = ok('c249010000000000000000');
    const neg = ok('c349010000000000000000');
    if (pos.kind !== 'tag' || pos.item.kind !== 'bytes' || neg.kind !== 'tag' || neg.item.kind !== 'bytes') throw new Error('shape');
    expect(toBig(pos.item.value)).toBe(18446744073709551616n);
    expect(-1n - toBig(neg.item.value)).toBe(-18446744073709551617n);
    expect(untag(pos)).toBe(pos.item);
  });

  it('keeps integers as numbers up to 2^53 - 1 and as bigint beyond', () => {
    expect(ok('1b001fffffffffffff')).toMatchObject({ kind: 'uint', value: 9007199254740991 });
    expect(ok('1b0020000000000000')).toMatchObject({ kind: 'uint', value: 9007199254740992n });
    expect(ok('3b001ffffffffffffd')).toMatchObject({ kind: 'nint', value: -9007199254740990 });
    expect(ok('3b001ffffffffffffe')).toMatchObject({ kind: 'nint', value: -9007199254740991 });
    expect(ok('3b001fffffffffffff')).toMatchObject({ kind: 'nint', value: -9007199254740992n });
    expect(ok('3a ffffffff'.replace(' ', ''))).toMatchObject({ kind: 'nint', value: -4294967296 });
    expect(ok('db ffffffffffffffff 00'.replace(/ /g, ''))).toMatchObject({ kind: 'tag', tag: 18446744073709551615n });
  });

  it('isNull and untag see through tags', () => {
    expect(isNull(ok('f6'))).toBe(true);
    expect(isNull(ok('f7'))).toBe(true);
    expect(isNull(ok('c1c2f6'))).toBe(true);
    expect(isNull(ok('f4'))).toBe(false);
    expect(isNull(ok('00'))).toBe(false);
    expect(untag(ok('c1c2c301'))).toMatchObject({ kind: 'uint', value: 1, start: 3, end: 4 });
  });
});

// ---------------------------------------------------------------------------------------------
// 2. RFC 8949 Appendix F: not-well-formed input
// ---------------------------------------------------------------------------------------------

type Bad = [hex: string, code: CborError['code'], offset: number];

const APPENDIX_F: Record<string, Bad[]> = {
  'end of input in a head': [
    ['18', 'cbor/truncated', 0],
    ['19', 'cbor/truncated', 0],
    ['1a', 'cbor/truncated', 0],
    ['1b', 'cbor/truncated', 0],
    ['1901', 'cbor/truncated', 0],
    ['1a0102', 'cbor/truncated', 0],
    ['1b01020304050607', 'cbor/truncated', 0],
    ['38', 'cbor/truncated', 0],
    ['58', 'cbor/truncated', 0],
    ['78', 'cbor/truncated', 0],
    ['98', 'cbor/truncated', 0],
    ['9a01ff00', 'cbor/truncated', 0],
    ['b8', 'cbor/truncated', 0],
    ['d8', 'cbor/truncated', 0],
    ['f8', 'cbor/truncated', 0],
    ['f900', 'cbor/truncated', 0],
    ['fa0000', 'cbor/truncated', 0],
    ['fb000000', 'cbor/truncated', 0],
  ],
  // The RFC lists the four huge declared lengths as end-of-input too; we report them as length
  // bombs (cbor/too-large) because they exceed maxDeclaredLength.
  'definite-length strings with short data': [
    ['41', 'cbor/truncated', 0],
    ['61', 'cbor/truncated', 0],
    ['5affffffff00', 'cbor/too-large', 0],
    ['5bffffffffffffffff010203', 'cbor/too-large', 0],
    ['7affffffff00', 'cbor/too-large', 0],
    ['7b7fffffffffffffff010203', 'cbor/too-large', 0],
  ],
  // A short array or map is reported where its first missing item should start.
  'definite-length maps and arrays not closed with enough items': [
    ['81', 'cbor/truncated', 1],
    ['818181818181818181', 'cbor/truncated', 9],
    ['8200', 'cbor/truncated', 2],
    ['a1', 'cbor/truncated', 1],
    ['a20102', 'cbor/truncated', 3],
    ['a100', 'cbor/truncated', 2],
    ['a2000000', 'cbor/truncated', 4],
  ],
  'tag number not followed by tag content': [['c0', 'cbor/truncated', 1]],
  'indefinite-length strings not closed by a break': [
    ['5f4100', 'cbor/truncated', 0],
    ['7f6100', 'cbor/truncated', 0],
  ],
  'indefinite-length maps and arrays not closed by a break': [
    ['9f', 'cbor/truncated', 0],
    ['9f0102', 'cbor/truncated', 0],
    ['bf', 'cbor/truncated', 0],
    ['bf01020102', 'cbor/truncated', 0],
    ['819f', 'cbor/truncated', 1],
    ['9f8000', 'cbor/truncated', 0],
    ['9f9f9f9f9fffffffff', 'cbor/truncated', 0],
    ['9f819f819f9fffffff', 'cbor/truncated', 0],
  ],
  'reserved additional information values 28-30': [
    '1c',
    '1d',
    '1e',
    '3c',
    '3d',
    '3e',
    '5c',
    '5d',
    '5e',
    '7c',
    '7d',
    '7e',
    '9c',
    '9d',
    '9e',
    'bc',
    'bd',
    'be',
    'dc',
    'dd',
    'de',
    'fc',
    'fd',
    'fe',
  ].map((h): Bad => [h, 'cbor/invalid', 0]),
  'reserved two-byte encodings of simple values': [
    ['f800', 'cbor/invalid', 0],
    ['f801', 'cbor/invalid', 0],
    ['f818', 'cbor/invalid', 0],
    ['f81f', 'cbor/invalid', 0],
  ],
  'indefinite-length string chunks not of the correct type': [
    ['5f00ff', 'cbor/invalid', 1],
    ['5f21ff', 'cbor/invalid', 1],
    ['5f6100ff', 'cbor/invalid', 1],
    ['5f80ff', 'cbor/invalid', 1],
    ['5fa0ff', 'cbor/invalid', 1],
    ['5fc000ff', 'cbor/invalid', 1],
    ['5fe0ff', 'cbor/invalid', 1],
    ['7f4100ff', 'cbor/invalid', 1],
  ],
  'indefinite-length string chunks not definite length': [
    ['5f5f4100ffff', 'cbor/invalid', 1],
    ['7f7f6100ffff', 'cbor/invalid', 1],
  ],
  'break occurring on its own outside of an indefinite-length item': [['ff', 'cbor/invalid', 0]],
  'break occurring in a definite-length array or map or a tag': [
    ['81ff', 'cbor/invalid', 1],
    ['8200ff', 'cbor/invalid', 2],
    ['a1ff', 'cbor/invalid', 1],
    ['a1ff00', 'cbor/invalid', 1],
    ['a100ff', 'cbor/invalid', 2],
    ['a20000ff', 'cbor/invalid', 3],
    ['9f81ff', 'cbor/invalid', 2],
    ['9f829f819f9fffffffff', 'cbor/invalid', 9],
    ['c0ff', 'cbor/invalid', 1],
    // Also when the container could not hold its declared items anyway: no more input would help.
    ['8300ff', 'cbor/invalid', 2],
    ['a2ff', 'cbor/invalid', 1],
    ['a30000ff', 'cbor/invalid', 3],
  ],
  'break in an indefinite-length map in a value position': [
    ['bf00ff', 'cbor/invalid', 2],
    ['bf000000ff', 'cbor/invalid', 4],
  ],
  'major type 0, 1, 6 with additional information 31': [
    ['1f', 'cbor/invalid', 0],
    ['3f', 'cbor/invalid', 0],
    ['df', 'cbor/invalid', 0],
  ],
};

describe('RFC 8949 Appendix F not-well-formed examples', () => {
  for (const [group, cases] of Object.entries(APPENDIX_F)) {
    it.each(cases)(`${group}: %s → %s at %i`, (h, code, offset) => {
      const input = hex(h);
      const e = err(input);
      expect(e.code).toBe(code);
      expect(e.offset).toBe(offset);
      expect(e.offset).toBeLessThanOrEqual(input.length);
      expect(typeof e.message).toBe('string');
      expect(e.message.length).toBeGreaterThan(0);
      // The same verdict from the other entry points.
      const at = readItemAt(input, 0);
      expect(at.ok ? null : at.error).toEqual(e);
      const seq = readSequence(input);
      expect(seq.items).toEqual([]);
      expect(seq.error).toEqual(e);
    });
  }

  it('reports an error after a valid prefix at the right offset', () => {
    expect(err('8301021c')).toMatchObject({ code: 'cbor/invalid', offset: 3 });
    expect(err('a16161f8')).toMatchObject({ code: 'cbor/truncated', offset: 3 });
  });
});

// ---------------------------------------------------------------------------------------------
// 2b. UTF-8, length bombs, depth bombs, trailing bytes, sequences
// ---------------------------------------------------------------------------------------------

describe('text strings', () => {
  it.each([
    ['62c328', 1], // invalid continuation
    ['61ff', 1],
    ['61c3', 1], // truncated sequence
    ['62c080', 1], // overlong NUL
    ['63eda080', 1], // UTF-8-encoded surrogate (CESU)
    ['64f4908080', 1], // beyond U+10FFFF
    ['78206161616161616161616161616161616161616161616161616161616161616180', 2], // long (non-fast-path) string
    ['7f61c3ff', 2], // a chunk on its own must be valid
    ['7f61c361bcff', 2], // a character split across chunks is not allowed (RFC 8949 3.2.3)
    ['a161ff00', 2], // as a map key
  ])('invalid UTF-8 %s → cbor/invalid at %i', (h, offset) => {
    expect(err(h)).toMatchObject({ code: 'cbor/invalid', offset });
  });

  it('accepts valid multi-byte text in definite and chunked form', () => {
    expect(ok('7f62c3bc63e6b0b4ff')).toMatchObject({ kind: 'text', value: 'ü水', indefinite: true, minimal: false });
    expect(ok('7fff')).toMatchObject({ kind: 'text', value: '', indefinite: true });
    expect(ok('5fff')).toMatchObject({ kind: 'bytes', value: new Uint8Array(0), indefinite: true, contentStart: -1 });
    const long = 'ü'.repeat(40);
    const enc = new TextEncoder().encode(long);
    const input = new Uint8Array([0x78, enc.length, ...enc]);
    expect(ok(input)).toMatchObject({ kind: 'text', value: long, contentStart: 2, end: input.length });
  });

  it('keeps a leading U+FEFF (byte order mark) in text', () => {
    // TextDecoder strips a leading BOM unless told not to; CBOR text is content, not a file.
    expect(ok('64efbbbf61')).toMatchObject({ kind: 'text', value: '\ufeffa' });
    expect(ok('63efbbbf')).toMatchObject({ kind: 'text', value: '\ufeff' });
    expect(ok('7f63efbbbf6161ff')).toMatchObject({ kind: 'text', value: '\ufeffa' });
    expect(ok('7f616163efbbbfff')).toMatchObject({ kind: 'text', value: 'a\ufeff' });
  });
});

describe('length and depth bombs', () => {
  it('rejects a declared 4 GiB byte string without allocating it', () => {
    expect(err('5affffffff00')).toMatchObject({ code: 'cbor/too-large', offset: 0 });
    expect(err('5b0000000100000000')).toMatchObject({ code: 'cbor/too-large', offset: 0 });
    expect(err('7b0000000100000000')).toMatchObject({ code: 'cbor/too-large', offset: 0 });
  });

  it('rejects arrays and maps declaring 2^32 entries', () => {
    expect(err('9b0000000100000000')).toMatchObject({ code: 'cbor/too-large', offset: 0 });
    expect(err('bb0000000100000000')).toMatchObject({ code: 'cbor/too-large', offset: 0 });
    expect(err('9affffffff')).toMatchObject({ code: 'cbor/too-large', offset: 0 });
    expect(err('9bffffffffffffffff')).toMatchObject({ code: 'cbor/too-large', offset: 0 });
  });

  it('rejects a too-large chunk inside an indefinite string at the chunk', () => {
    expect(err('5f5affffffffff')).toMatchObject({ code: 'cbor/too-large', offset: 1 });
    expect(err('5f41004301')).toMatchObject({ code: 'cbor/truncated', offset: 3 });
  });

  it('reports a small declared length beyond the input as truncated', () => {
    expect(err('450102')).toMatchObject({ code: 'cbor/truncated', offset: 0 });
    expect(err('6a616263')).toMatchObject({ code: 'cbor/truncated', offset: 0 });
    expect(err('830102')).toMatchObject({ code: 'cbor/truncated', offset: 3 });
    expect(err('a3' + '0102' + '03')).toMatchObject({ code: 'cbor/truncated', offset: 4 });
    expect(err('8201' + '5a00010000')).toMatchObject({ code: 'cbor/truncated', offset: 2 });
  });

  it('honours maxDeclaredLength', () => {
    const input = hex('5900ff00');
    expect(readSingle(input)).toMatchObject({ ok: false, error: { code: 'cbor/truncated' } });
    expect(readSingle(input, { maxDeclaredLength: 100 })).toMatchObject({ ok: false, error: { code: 'cbor/too-large', offset: 0 } });
    // Lengths the input does hold are fine whatever the limit.
    expect(readSingle(hex('43010203'), { maxDeclaredLength: 1 })).toMatchObject({ ok: true });
  });

  const nested = (byte: number, n: number) => {
    const b = new Uint8Array(n + 1).fill(byte);
    b[n] = 0x00;
    return b;
  };

  it.each([
    ['81', 0x81],
    ['9f', 0x9f],
    ['a1 (map key position)', 0xa1],
    ['c1 (tags)', 0xc1],
  ])('a depth bomb of 100,000 nested %s is cbor/too-deep, not a stack overflow', (_name, byte) => {
    const input = nested(byte, 100_000);
    let res: ReturnType<typeof readSingle> | undefined;
    expect(() => (res = readSingle(input))).not.toThrow();
    expect(res).toMatchObject({ ok: false, error: { code: 'cbor/too-deep', offset: 128 } });
    const seq = readSequence(input);
    expect(seq.items).toEqual([]);
    expect(seq.error).toMatchObject({ code: 'cbor/too-deep', offset: 128 });
  });

  it('accepts nesting up to maxDepth and rejects one more', () => {
    const fill = (n: number) => {
      const b = new Uint8Array(n + 1).fill(0x81);
      b[n] = 0;
      return b;
    };
    expect(readSingle(fill(128)).ok).toBe(true);
    expect(readSingle(fill(129))).toMatchObject({ ok: false, error: { code: 'cbor/too-deep', offset: 128 } });
    expect(readSingle(fill(3), { maxDepth: 3 }).ok).toBe(true);
    expect(readSingle(fill(4), { maxDepth: 3 })).toMatchObject({ ok: false, error: { code: 'cbor/too-deep', offset: 3 } });
    // Scalars do not count as a level.
    expect(readSingle(hex('00'), { maxDepth: 0 }).ok).toBe(true);
    expect(readSingle(hex('80'), { maxDepth: 0 })).toMatchObject({ ok: false, error: { code: 'cbor/too-deep', offset: 0 } });
  });

  it('turns an engine stack overflow (huge maxDepth) into a verdict, not a throw', () => {
    const input = nested(0x81, 200_000);
    let res: ReturnType<typeof readSingle> | undefined;
    expect(() => (res = readSingle(input, { maxDepth: Infinity }))).not.toThrow();
    expect(res?.ok).toBe(false);
  });
});

describe('trailing bytes and sequences', () => {
  it('readSingle reports trailing bytes at the first extra byte', () => {
    expect(err('0001')).toMatchObject({ code: 'cbor/trailing-bytes', offset: 1 });
    expect(err('8301020300ff')).toMatchObject({ code: 'cbor/trailing-bytes', offset: 4 });
    expect(err('9fff00')).toMatchObject({ code: 'cbor/trailing-bytes', offset: 2 });
    expect(err('ff'.padStart(4, '0'))).toMatchObject({ code: 'cbor/trailing-bytes', offset: 1 });
  });

  it('readItemAt leaves the rest to the caller', () => {
    const input = hex('01820203616100');
    expect(readItemAt(input, 1)).toMatchObject({ ok: true, value: { kind: 'array', start: 1, end: 4 } });
    expect(readItemAt(input, 4)).toMatchObject({ ok: true, value: { kind: 'text', value: 'a', start: 4, end: 6, contentStart: 5 } });
    expect(readItemAt(input, 7)).toMatchObject({ ok: false, error: { code: 'cbor/truncated', offset: 7 } });
  });

  it('readItemAt works on a subarray view (spans are relative to the view)', () => {
    const backing = hex('ffff8201026161ffff');
    const view = backing.subarray(2, 7);
    expect(readItemAt(view, 0)).toMatchObject({ ok: true, value: { kind: 'array', start: 0, end: 3 } });
    expect(readItemAt(view, 3)).toMatchObject({ ok: true, value: { kind: 'text', value: 'a', start: 3, end: 5 } });
    expect(readSingle(view)).toMatchObject({ ok: false, error: { code: 'cbor/trailing-bytes', offset: 3 } });
    // Floats are read through a DataView that must honour the view's byteOffset.
    expect(readSingle(hex('ff00fb3ff199999999999a').subarray(2))).toMatchObject({ ok: true, value: { value: 1.1, width: 64 } });
    expect(readSingle(hex('fffa47c35000').subarray(1))).toMatchObject({ ok: true, value: { value: 100000, width: 32 } });
    expect(readSingle(hex('fff93e00').subarray(1))).toMatchObject({ ok: true, value: { value: 1.5, width: 16 } });
    expect(readSingle(hex('ff190100').subarray(1))).toMatchObject({ ok: true, value: { value: 256 } });
  });

  it('readItemAt rejects an offset that is not a position in the input', () => {
    const input = hex('0102');
    expect(() => readItemAt(input, -1)).toThrow(RangeError);
    expect(() => readItemAt(input, 0.5)).toThrow(RangeError);
    expect(() => readItemAt(input, NaN)).toThrow(RangeError);
    expect(readItemAt(input, 2)).toMatchObject({ ok: false, error: { code: 'cbor/truncated', offset: 2 } });
    expect(readItemAt(input, 5)).toMatchObject({ ok: false, error: { code: 'cbor/truncated' } });
  });

  it('readSequence returns every item with its span', () => {
    const input = hex('01' + '820203' + '6161');
    const { items, error } = readSequence(input);
    expect(error).toBeNull();
    expect(items.map(plain)).toEqual([1, [2, 3], 'a']);
    expect(items.map((i) => [i.start, i.end])).toEqual([
      [0, 1],
      [1, 4],
      [4, 6],
    ]);
    expect(readSequence(new Uint8Array(0))).toEqual({ items: [], error: null });
  });

  it('readSequence stops at a truncated third item but keeps the first two', () => {
    const input = hex('01' + '820203' + '6261');
    const { items, error } = readSequence(input);
    expect(items.map(plain)).toEqual([1, [2, 3]]);
    expect(items.map((i) => [i.start, i.end])).toEqual([
      [0, 1],
      [1, 4],
    ]);
    expect(error).toMatchObject({ code: 'cbor/truncated', offset: 4 });
    // A malformed (not truncated) third item likewise.
    expect(readSequence(hex('0102ff'))).toMatchObject({ items: [{ value: 1 }, { value: 2 }], error: { code: 'cbor/invalid', offset: 2 } });
  });

  it('rejects input that is not a Uint8Array', () => {
    expect(() => readSingle([0] as unknown as Uint8Array)).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Spans and minimal heads
// ---------------------------------------------------------------------------------------------

describe('spans', () => {
  it('slices every key and value of a nested map back to its exact encoding', () => {
    // {"a": 1, "bb": [2, {3: h'0405'}], 24: 1(-500), "c": (_ "x", "y"), -1: [_ 1.5_1, null]}
    const parts = {
      ka: '6161',
      va: '01',
      kbb: '626262',
      vbb: '8202a1034204 05'.replace(/ /g, ''),
      k24: '1818',
      v24: 'c13901f3',
      kc: '6163',
      vc: '7f61786179ff',
      km1: '20',
      vm1: '9ff93e00f6ff',
    };
    const whole = 'a5' + Object.values(parts).join('');
    const input = hex(whole);
    const item = ok(input);
    expect(item.kind).toBe('map');
    if (item.kind !== 'map') return;
    expect([item.start, item.end]).toEqual([0, input.length]);
    const slice = (i: CborItem) => toHex(input.subarray(i.start, i.end));
    expect(item.entries.map((e) => [slice(e.key), slice(e.value)])).toEqual([
      [parts.ka, parts.va],
      [parts.kbb, parts.vbb],
      [parts.k24, parts.v24],
      [parts.kc, parts.vc],
      [parts.km1, parts.vm1],
    ]);
    // One level deeper.
    const bb = item.entries[1].value;
    if (bb.kind !== 'array') throw new Error('shape');
    expect(bb.items.map(slice)).toEqual(['02', 'a103420405']);
    const inner = bb.items[1];
    if (inner.kind !== 'map') throw new Error('shape');
    expect(slice(inner.entries[0].key)).toBe('03');
    expect(slice(inner.entries[0].value)).toBe('420405');
    const bytesItem = inner.entries[0].value;
    if (bytesItem.kind !== 'bytes') throw new Error('shape');
    expect(toHex(input.subarray(bytesItem.contentStart, bytesItem.end))).toBe('0405');
    const tagged = item.entries[2].value;
    if (tagged.kind !== 'tag') throw new Error('shape');
    expect(slice(tagged.item)).toBe('3901f3');
    expect(tagged.item).toMatchObject({ kind: 'nint', value: -500, minimal: true });
    expect(toDiagnostic(item)).toBe('{"a": 1, "bb": [2, {3: h\'0405\'}], 24: 1(-500), "c": (_ "xy"), -1: [_ 1.5_1, null]}');
    checkTree(item, input);
  });

  it.each([
    ['1817', 'uint'],
    ['190017', 'uint'],
    ['1a00000017', 'uint'],
    ['1b0000000000000017', 'uint'],
    ['1900ff', 'uint'],
    ['1a0000ffff', 'uint'],
    ['1b00000000ffffffff', 'uint'],
    ['3817', 'nint'],
    ['5800', 'bytes'],
    ['7800', 'text'],
    ['9800', 'array'],
    ['b800', 'map'],
    ['d81700', 'tag'],
    ['5f4100ff', 'bytes'],
    ['7fff', 'text'],
    ['9fff', 'array'],
    ['bfff', 'map'],
  ])('non-minimal head %s sets minimal=false', (h, kind) => {
    const input = hex(h);
    const item = ok(input);
    expect(item.kind).toBe(kind);
    expect(item.minimal).toBe(false);
    expect(item.end).toBe(input.length);
  });

  it('decodes non-minimal heads to the same value as minimal ones', () => {
    for (const h of ['17', '1817', '190017', '1a00000017', '1b0000000000000017']) expect(ok(h)).toMatchObject({ kind: 'uint', value: 23 });
    expect(ok('d81700')).toMatchObject({ kind: 'tag', tag: 23, item: { value: 0, start: 2 } });
  });

  it.each([
    '00',
    '17',
    '1818',
    '18ff',
    '190100',
    '19ffff',
    '1a00010000',
    '1affffffff',
    '1b0000000100000000',
    '1bffffffffffffffff',
    '37',
    '3818',
    '3bffffffffffffffff',
    '40',
    '5818' + '00'.repeat(24),
    '60',
    '80',
    'a0',
    'c000',
    'd81800',
    'f4',
    'f8ff',
    'f90000',
    'fa47c35000',
    'fb3ff199999999999a',
  ])('minimal head %s sets minimal=true', (h) => {
    const input = hex(h);
    const item = ok(input);
    expect(item.minimal).toBe(true);
    expect(item.end).toBe(input.length);
  });

  it('minimal describes only the item itself, not its children', () => {
    const outer = ok('821817' + '01');
    expect(outer.minimal).toBe(true);
    if (outer.kind !== 'array') throw new Error('shape');
    expect(outer.items.map((i) => i.minimal)).toEqual([false, true]);
  });
});

// ---------------------------------------------------------------------------------------------
// Floats and diagnostics beyond the RFC table
// ---------------------------------------------------------------------------------------------

describe('halfToNumber', () => {
  it('agrees with a float32 construction for all 65,536 half bit patterns', () => {
    const view = new DataView(new ArrayBuffer(4));
    for (let h = 0; h < 0x10000; h++) {
      const sign = (h & 0x8000) << 16;
      const exp = (h >> 10) & 0x1f;
      const frac = h & 0x3ff;
      let expected: number;
      if (exp === 0) expected = (sign ? -1 : 1) * frac * 2 ** -24;
      else {
        view.setUint32(0, sign | (exp === 31 ? 0x7f800000 : (exp - 15 + 127) << 23) | (frac << 13));
        expected = view.getFloat32(0);
      }
      expect(Object.is(halfToNumber(h), expected)).toBe(true);
    }
  });
});

describe('toDiagnostic', () => {
  it('formats integers, bigints, tags and unknown simple values', () => {
    expect(toDiagnostic(ok('c11bffffffffffffffff'))).toBe('1(18446744073709551615)');
    expect(toDiagnostic(ok('dbffffffffffffffff00'))).toBe('18446744073709551615(0)');
    expect(toDiagnostic(ok('f820'))).toBe('simple(32)');
    expect(toDiagnostic(ok('e0'))).toBe('simple(0)');
    expect(toDiagnostic(ok('fa3fc00000'))).toBe('1.5_2');
    expect(toDiagnostic(ok('fb3ff8000000000000'))).toBe('1.5');
    expect(toDiagnostic(ok('fb4415af1d78b58c40'))).toBe('100000000000000000000.0');
    expect(toDiagnostic(ok('fb444b1ae4d6e2ef50'))).toBe('1e+21');
    expect(toDiagnostic(ok('fb3eb0c6f7a0b5ed8d'))).toBe('0.000001');
    expect(toDiagnostic(ok('fb3e7ad7f29abcaf48'))).toBe('1e-7');
    expect(toDiagnostic(ok('5fff'))).toBe("(_ h'')");
    expect(toDiagnostic(ok('bfff'))).toBe('{_ }');
    expect(toDiagnostic(ok('6101'))).toBe('"\\u0001"');
  });

  it('cuts long output with an ellipsis', () => {
    const input = new Uint8Array([0x98, 200, ...new Array(200).fill(0x01)]);
    const text = toDiagnostic(ok(input), 50);
    expect(text.endsWith('…')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(51);
    expect(text.startsWith('[1, 1, 1')).toBe(true);
    const big = new Uint8Array(3 + 1000);
    big.set([0x59, 0x03, 0xe8]);
    expect(toDiagnostic(ok(big), 100).length).toBeLessThanOrEqual(101);
  });
});

// ---------------------------------------------------------------------------------------------
// Item bombs: the items of one top-level item are counted from the heads, before any is built
// ---------------------------------------------------------------------------------------------

/** `head` then `fill` zero bytes (each a uint 0): padding makes an input longer than the cap. */
function withZeros(head: string, zeros: number, tail = ''): Uint8Array {
  const h = hex(head);
  const t = hex(tail);
  const out = new Uint8Array(h.length + zeros + t.length);
  out.set(h);
  out.set(t, h.length + zeros);
  return out;
}

/** Data items as the cap counts them (a map entry two, a tag and its content two); null for chunked strings, whose chunks the tree does not keep. */
function countItems(item: CborItem): number | null {
  switch (item.kind) {
    case 'array': {
      let n = 1;
      for (const x of item.items) {
        const c = countItems(x);
        if (c === null) return null;
        n += c;
      }
      return n;
    }
    case 'map': {
      let n = 1;
      for (const e of item.entries) {
        const k = countItems(e.key);
        const v = countItems(e.value);
        if (k === null || v === null) return null;
        n += k + v;
      }
      return n;
    }
    case 'tag': {
      const c = countItems(item.item);
      return c === null ? null : 1 + c;
    }
    case 'bytes':
    case 'text':
      return item.indefinite ? null : 1;
    default:
      return 1;
  }
}

describe('item bombs (cbor/too-many-items)', () => {
  it('the cap is one named number, 2^16', () => {
    expect(MAX_ITEMS).toBe(65_536);
  });

  it('an array declaring 16,777,216 items, all present (a 16 MB file), is refused at its head', () => {
    const bytes = withZeros('9a01000000', 16_777_216);
    expect(readSingle(bytes)).toMatchObject({ ok: false, error: { code: 'cbor/too-many-items', offset: 0 } });
    expect(readItemAt(bytes, 0)).toMatchObject({ ok: false, error: { code: 'cbor/too-many-items', offset: 0 } });
  });

  it('a map declaring more entries than the cap allows is refused at its head (an entry is two items)', () => {
    // 32,768 entries are 65,537 items with the map itself.
    const bytes = withZeros('b98000', 2 * 32_768);
    expect(err(bytes)).toMatchObject({ code: 'cbor/too-many-items', offset: 0 });
  });

  it('an indefinite array is refused at the item that passes the cap', () => {
    const bytes = withZeros('9f', MAX_ITEMS, 'ff');
    // The array is item 1, so its 65,536th element (at byte 65,536) is item 65,537.
    expect(err(bytes)).toMatchObject({ code: 'cbor/too-many-items', offset: MAX_ITEMS });
  });

  it('an indefinite map is refused at the key or value that passes the cap', () => {
    const bytes = withZeros('bf', MAX_ITEMS, 'ff');
    expect(err(bytes)).toMatchObject({ code: 'cbor/too-many-items', offset: MAX_ITEMS });
  });

  it('an indefinite byte string of empty chunks is refused at the chunk that passes the cap', () => {
    const bytes = new Uint8Array(MAX_ITEMS + 2).fill(0x40);
    bytes[0] = 0x5f;
    bytes[bytes.length - 1] = 0xff;
    expect(err(bytes)).toMatchObject({ code: 'cbor/too-many-items', offset: MAX_ITEMS });
  });

  it('an indefinite text string of empty chunks is refused too', () => {
    const bytes = new Uint8Array(MAX_ITEMS + 2).fill(0x60);
    bytes[0] = 0x7f;
    bytes[bytes.length - 1] = 0xff;
    expect(err(bytes)).toMatchObject({ code: 'cbor/too-many-items', offset: MAX_ITEMS });
  });

  it('nested arrays whose declared counts add up past the cap are refused at the head that passes it', () => {
    // [ [256 items] × 256 ]: 1 + 256 + 256 × 256 = 65,793 items; the count passes 65,536 at the
    // 255th inner array's head (1 + 256 + 255 × 256 = 65,537).
    const inner = '990100' + '00'.repeat(256);
    const bytes = hex('990100' + inner.repeat(256));
    const at = 3 + 254 * (inner.length / 2);
    expect(err(bytes)).toMatchObject({ code: 'cbor/too-many-items', offset: at });
  });

  it('an array declaring more items than the cap and than the bytes left is refused, not read until it runs out', () => {
    // Read item by item, this would build 70,000 items before finding the end: the head decides.
    const bytes = withZeros('9a00100000', 70_000);
    expect(err(bytes)).toMatchObject({ code: 'cbor/too-many-items', offset: 0 });
  });

  it('an item bomb in a tagged item is refused at the tagged head', () => {
    const bytes = withZeros('d8189a00010001', 65_537);
    expect(err(bytes)).toMatchObject({ code: 'cbor/too-many-items', offset: 2 });
  });

  it('an item bomb inside a map value is refused at its head, after the items before it', () => {
    const bytes = withZeros('a1616b9a00010000', 65_536);
    // map 1 + key 1 + value 1 + 65,536 elements = 65,539.
    expect(err(bytes)).toMatchObject({ code: 'cbor/too-many-items', offset: 3 });
  });

  it('exactly the cap is read; one more item is refused', () => {
    for (const max of [1, 2, 3, 10]) {
      // An array of max - 1 zeros is max items; the input is longer than max so the count runs.
      const fits = withZeros(`98${(max - 1).toString(16).padStart(2, '0')}`, max - 1);
      const over = withZeros(`98${max.toString(16).padStart(2, '0')}`, max);
      expect(readSingle(fits, { maxItems: max }).ok, `cap ${max}`).toBe(true);
      expect(readSingle(over, { maxItems: max }), `cap ${max} + 1`).toMatchObject({ ok: false, error: { code: 'cbor/too-many-items', offset: 0 } });
    }
  });

  it('a length bomb past maxDeclaredLength stays cbor/too-large (it cannot be in the input at all)', () => {
    expect(err(withZeros('9b0000000100000000', 70_000))).toMatchObject({ code: 'cbor/too-large', offset: 0 });
    expect(err(withZeros('ba80000000', 70_000))).toMatchObject({ code: 'cbor/too-large', offset: 0 });
  });

  it('malformed heads met before the cap is passed are reported as before', () => {
    // A reserved head, a break outside an indefinite item, a chunk of the wrong type, a depth bomb.
    expect(err(withZeros('9f1c', 70_000, 'ff'))).toMatchObject({ code: 'cbor/invalid', offset: 1 });
    expect(err(withZeros('82ff', 70_000))).toMatchObject({ code: 'cbor/invalid', offset: 1 });
    expect(err(withZeros('5f6100', 70_000, 'ff'))).toMatchObject({ code: 'cbor/invalid', offset: 1 });
    const deep = new Uint8Array(70_000).fill(0x81);
    expect(err(deep).code).toBe('cbor/too-deep');
  });

  it('the cap is per top-level item: a sequence of 100,000 small items is read whole', () => {
    const bytes = new Uint8Array(200_000);
    for (let i = 0; i < bytes.length; i += 2) bytes[i] = 0x81;
    const seq = readSequence(bytes);
    expect(seq.error).toBeNull();
    expect(seq.items).toHaveLength(100_000);
  });

  it('maxItems: Infinity reads any count', () => {
    const r = readSingle(withZeros('9a00010001', 65_537), { maxItems: Infinity });
    expect(r.ok && r.value.kind === 'array' && r.value.items.length).toBe(65_537);
  });

  it('refused exactly when the item holds more items than the cap (property, small caps)', () => {
    fc.assert(
      // Biased towards container, tag, chunk and break heads, so counts pass small caps often.
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(0x00, 0x40, 0x41, 0x5f, 0x60, 0x7f, 0x80, 0x81, 0x82, 0x83, 0x98, 0x9f, 0xa1, 0xa2, 0xbf, 0xc1, 0xd8, 0xf6, 0xff),
            fc.integer({ min: 0, max: 255 }),
          ),
          { maxLength: 48 },
        ),
        fc.integer({ min: 0, max: 12 }),
        (arr, max) => {
          const input = Uint8Array.from(arr);
          const whole = readSingle(input, { maxItems: Infinity });
          const capped = readSingle(input, { maxItems: max });
          if (!whole.ok) {
            if (!capped.ok && capped.error.code !== 'cbor/too-many-items') expect(capped.error).toEqual(whole.error);
            return;
          }
          const n = countItems(whole.value);
          if (n === null) return;
          if (n > max) expect(capped).toMatchObject({ ok: false, error: { code: 'cbor/too-many-items' } });
          else expect(capped).toEqual(whole);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Robustness: random bytes never throw
// ---------------------------------------------------------------------------------------------

const CODES = new Set(['cbor/truncated', 'cbor/invalid', 'cbor/trailing-bytes', 'cbor/too-deep', 'cbor/too-large', 'cbor/too-many-items']);

function checkVerdict(res: unknown, input: Uint8Array): void {
  expect(res).toBeTypeOf('object');
  const r = res as { ok: boolean; value?: CborItem; error?: CborError };
  if (r.ok) {
    expect(Object.keys(r)).toEqual(['ok', 'value']);
    expect(r.value!.start).toBe(0);
    expect(r.value!.end).toBe(input.length);
  } else {
    expect(r.ok).toBe(false);
    expect(Object.keys(r)).toEqual(['ok', 'error']);
    const e = r.error!;
    expect(Object.keys(e).sort()).toEqual(['code', 'message', 'offset']);
    expect(CODES.has(e.code)).toBe(true);
    expect(typeof e.message).toBe('string');
    expect(Number.isInteger(e.offset)).toBe(true);
    expect(e.offset).toBeGreaterThanOrEqual(0);
    expect(e.offset).toBeLessThanOrEqual(input.length);
  }
}

function checkSequence(input: Uint8Array): void {
  const seq = readSequence(input);
  expect(Object.keys(seq).sort()).toEqual(['error', 'items']);
  let pos = 0;
  for (const item of seq.items) {
    expect(item.start).toBe(pos);
    pos = item.end;
  }
  if (seq.error === null) expect(pos).toBe(input.length);
  else {
    expect(CODES.has(seq.error.code)).toBe(true);
    expect(seq.error.code).not.toBe('cbor/trailing-bytes');
    expect(seq.error.offset).toBeGreaterThanOrEqual(pos);
    expect(seq.error.offset).toBeLessThanOrEqual(input.length);
  }
}

describe('random input', () => {
  it('readSingle and readSequence never throw on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (input) => {
        let single: unknown;
        expect(() => (single = readSingle(input))).not.toThrow();
        checkVerdict(single, input);
        expect(() => checkSequence(input)).not.toThrow();
        const s = single as ReturnType<typeof readSingle>;
        if (s.ok) checkTree(s.value, input);
      }),
      { numRuns: 2000 },
    );
  });

  // Uniform bytes are mostly short scalars; bias towards heads, containers and breaks so the
  // property also explores deep and indefinite structures.
  const HEADS = [
    0x00, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1f, 0x20, 0x38, 0x3b, 0x3f, 0x40, 0x41, 0x42, 0x58, 0x5a, 0x5b, 0x5f, 0x60, 0x61, 0x62, 0x78, 0x7f, 0x80, 0x81,
    0x82, 0x83, 0x98, 0x9a, 0x9b, 0x9f, 0xa0, 0xa1, 0xa2, 0xb8, 0xbf, 0xc0, 0xc1, 0xd8, 0xdb, 0xdf, 0xe0, 0xf4, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xff,
    0xc3, 0xbc, 0xe6, 0xef, 0xbb, 0xbf, 0xed, 0xa0,
  ];
  it('readSingle and readSequence never throw on structure-heavy random bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...HEADS), fc.integer({ min: 0, max: 255 })), { maxLength: 64 }), (arr) => {
        const input = Uint8Array.from(arr);
        let single: unknown;
        expect(() => (single = readSingle(input))).not.toThrow();
        checkVerdict(single, input);
        checkSequence(input);
        const s = single as ReturnType<typeof readSingle>;
        if (s.ok) checkTree(s.value, input);
        // Every prefix of a well-formed item is truncated (no other verdict).
        if (s.ok)
          for (let n = 0; n < input.length; n++) expect(readSingle(input.subarray(0, n))).toMatchObject({ ok: false, error: { code: 'cbor/truncated' } });
      }),
      { numRuns: 2000 },
    );
  });

  it('an invalid, too-deep or too-large verdict does not change when more bytes follow', () => {
    // Such errors are decided by the bytes already read; only cbor/truncated may depend on more input.
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...HEADS), fc.integer({ min: 0, max: 255 })), { maxLength: 48 }),
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        (arr, more) => {
          const input = Uint8Array.from(arr);
          const res = readItemAt(input, 0);
          if (res.ok || res.error.code === 'cbor/truncated') return;
          const longer = readItemAt(Uint8Array.from([...input, ...more]), 0);
          expect(longer).toMatchObject({ ok: false, error: { code: res.error.code, offset: res.error.offset } });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('readSingle never throws on random prefixes of the Appendix A vectors', () => {
    for (const v of APPENDIX_A) {
      const input = hex(v.hex);
      for (let n = 0; n < input.length; n++) {
        const res = readSingle(input.subarray(0, n));
        expect(res).toMatchObject({ ok: false, error: { code: 'cbor/truncated' } });
        checkVerdict(res, input.subarray(0, n));
      }
    }
  });
});
