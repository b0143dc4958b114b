import { describe, expect, it } from 'vitest';
import { crockfordToHex, fromBase64, fromHex, toBase64, toCrockford, toHex, ulidTimeMs, firstDifference, readUintLE } from './index';

describe('bytes', () => {
  it('displays ids in Crockford base32 as ULIDs do (agdx-v1.md check)', () => {
    const id = fromHex('01903c1faa0000000000000000000002')!;
    expect(toCrockford(id)).toBe('01J0Y1ZAG00000000000000002');
    expect(ulidTimeMs(id)).toBe(0x01903c1faa00);
    expect(crockfordToHex('01J0Y1ZAG00000000000000002')).toBe('01903c1faa0000000000000000000002');
    expect(crockfordToHex('not-an-id')).toBeNull();
  });

  it('round-trips hex and base64 (standard and url-safe)', () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    expect(fromHex(toHex(bytes))).toEqual(bytes);
    for (let n = 0; n < bytes.length; n++) {
      const part = bytes.subarray(0, n);
      expect(fromBase64(toBase64(part))).toEqual(part);
      expect(fromBase64(toBase64(part, true))).toEqual(part);
    }
    expect(fromBase64('AQAAAA==')).toEqual(new Uint8Array([1, 0, 0, 0]));
  });

  it('rejects what is not hex or base64', () => {
    expect(fromHex('abc')).toBeNull();
    expect(fromHex('zz')).toBeNull();
    expect(fromBase64('a')).toBeNull();
    expect(fromBase64('ab$c')).toBeNull();
  });

  it('finds the first difference, counting a length difference at the shorter end', () => {
    expect(firstDifference(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(-1);
    expect(firstDifference(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(1);
    expect(firstDifference(new Uint8Array([1]), new Uint8Array([1, 3]))).toBe(1);
  });

  it('reads little-endian integers (the Iggy conversation header)', () => {
    expect(readUintLE(fromHex('0200000000000000000000aa1f3c9001')!)).toBe(0x01903c1faa0000000000000000000002n);
  });
});
