import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex, utf8Encode } from './index';
import { sha256HexOfAscii } from './sha256-text';

const noble = (s: string) => toHex(sha256(utf8Encode(s)));

describe('sha256HexOfAscii', () => {
  it('matches the FIPS 180-2 examples', () => {
    expect(sha256HexOfAscii('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256HexOfAscii('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256HexOfAscii('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('equals @noble/hashes at every length around the block and padding edges', () => {
    for (let len = 0; len <= 200; len++) {
      const s = Array.from({ length: len }, (_, i) => String.fromCharCode(32 + ((i * 7 + len) % 95))).join('');
      expect(sha256HexOfAscii(s), `length ${len}`).toBe(noble(s));
    }
  });

  it('equals @noble/hashes on random ASCII text, including control characters and DEL', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 600 }), (s) => {
        expect(sha256HexOfAscii(s)).toBe(noble(s));
      }),
      { seed: 8, numRuns: 300 },
    );
  });

  it('returns null for anything outside ASCII, wherever it sits', () => {
    expect(sha256HexOfAscii('é')).toBeNull();
    expect(sha256HexOfAscii('a'.repeat(64) + '\u0080')).toBeNull();
    expect(sha256HexOfAscii('\ud83d\ude00' + 'a'.repeat(100))).toBeNull();
    expect(sha256HexOfAscii('a'.repeat(63) + '\uffff')).toBeNull();
  });

  it('is a TypeError when misused', () => {
    expect(() => sha256HexOfAscii(42 as unknown as string)).toThrow(TypeError);
  });
});
