import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  concatBytes,
  crockfordBytes,
  crockfordToBytes,
  crockfordToHex,
  fromBase64,
  fromHex,
  hasControlChar,
  toBase64,
  toCrockford,
  toHex,
  ulidTimeMs,
  firstDifference,
  joinBytes,
  readUintBE,
  readUintLE,
  utf8Range,
} from './index';

describe('bytes', () => {
  it('displays ids in Crockford base32 as ULIDs do (agdx-v1.md check)', () => {
    const id = fromHex('01903c1faa0000000000000000000002')!;
    expect(toCrockford(id)).toBe('01J0Y1ZAG00000000000000002');
    expect(ulidTimeMs(id)).toBe(0x01903c1faa00);
    // In place, inside a larger buffer, and cut short by `end`.
    const within = concatBytes(Uint8Array.of(0xff, 0xff), id);
    expect(ulidTimeMs(within, 2, 18)).toBe(0x01903c1faa00);
    expect(ulidTimeMs(within, 2, 5)).toBe(0x01903c);
    const back = new Uint8Array(16);
    expect(crockfordToBytes('01J0Y1ZAG00000000000000002', back, 0)).toBe(true);
    expect(toHex(back)).toBe('01903c1faa0000000000000000000002');
    expect(crockfordToBytes('not-an-id', back, 0)).toBe(false);
    // The hex of one, in either case.
    expect(crockfordToHex('01J0Y1ZAG00000000000000002')).toBe('01903c1faa0000000000000000000002');
    expect(crockfordToHex('01j0y1zag00000000000000002')).toBe('01903c1faa0000000000000000000002');
    expect(crockfordToHex('8ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toBeNull();
    expect(crockfordToHex('not-an-id')).toBeNull();
  });

  it("crockfordBytes reads a 26-character id in either case, and nothing else (a header's id)", () => {
    const id = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    const text = toCrockford(id);
    expect(toHex(crockfordBytes(text)!)).toBe(toHex(id));
    expect(toHex(crockfordBytes(text.toLowerCase())!)).toBe(toHex(id));
    for (const not of ['', text.slice(1), `${text}0`, `8${text.slice(1)}`, `${text.slice(0, 25)}U`]) expect(crockfordBytes(not)).toBeNull();
  });

  it('writes lower-case hex of any length, in its scratch and past it, and only its own digits after a longer one', () => {
    const reference = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    const every = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(toHex(every)).toBe(reference(every));
    for (const n of [0, 1, 2, 31, 32, 33, 63, 64, 65, 100, 4095, 4096, 4097, 10_000]) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 255);
      expect(toHex(b), `${n} bytes`).toBe(reference(b));
    }
    // The scratch is reused: a short one after a long one has only its own digits.
    expect(toHex(Uint8Array.of(0xab))).toBe('ab');
    expect(toHex(every.subarray(250, 256))).toBe('fafbfcfdfeff');
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

describe('bulk text and id helpers', () => {
  const exact = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const strict = (b: Uint8Array): string | null => {
    try {
      return exact.decode(b);
    } catch {
      return null;
    }
  };

  it('utf8Range reads any bytes as a strict decoder does, interned or not (property)', () => {
    // Short arrays from a small alphabet repeat (cache hits) and collide; some are not UTF-8.
    const alphabet = fc.constantFrom(0x61, 0x62, 0x00, 0x7f, 0xc2, 0x80, 0x9f, 0xe2, 0x82, 0xac, 0xef, 0xbb, 0xbf, 0xf0, 0x9f, 0xff);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.uint8Array({ maxLength: 80 }),
            fc.array(alphabet, { maxLength: 40 }).map((a) => Uint8Array.from(a)),
          ),
          { minLength: 1, maxLength: 20 },
        ),
        (parts) => {
          const all = concatBytes(new Uint8Array([9]), ...parts);
          let at = 1;
          for (const p of parts) {
            expect(utf8Range(all, at, at + p.length)).toBe(strict(p));
            at += p.length;
          }
        },
      ),
      { numRuns: 2000, seed: 16 },
    );
  });

  it('utf8Range keeps a leading BOM, reads at the interning boundary, and gives the same string for the same bytes', () => {
    const enc = new TextEncoder();
    expect(utf8Range(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]), 0, 4)).toBe('\ufeffa');
    for (const n of [0, 1, 31, 32, 33, 63, 64, 65, 200]) {
      const text = 'é'.repeat(n >> 1) + 'x'.repeat(n & 1);
      const bytes = enc.encode(`--${text}--`);
      expect(utf8Range(bytes, 2, bytes.length - 2)).toBe(text);
      const ascii = enc.encode('a'.repeat(n));
      expect(utf8Range(ascii, 0, n)).toBe('a'.repeat(n));
    }
    // Many different short texts through the cache, then each again: never another text's string.
    const texts = Array.from({ length: 5000 }, (_, i) => `agent-${i}`);
    const first = texts.map((t) => utf8Range(enc.encode(t), 0, t.length));
    expect(first).toEqual(texts);
    expect(texts.map((t) => utf8Range(enc.encode(t), 0, t.length))).toEqual(texts);
    expect(utf8Range(Uint8Array.from([0xc3, 0x28]), 0, 2)).toBeNull();
  });

  it('crockfordToBytes reads back exactly what toCrockford writes, and refuses any other text (property)', () => {
    const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.nat(8), (b, at) => {
        const out = new Uint8Array(at + 20).fill(0xee);
        expect(crockfordToBytes(toCrockford(b), out, at)).toBe(true);
        expect(out.subarray(at, at + 16)).toEqual(b);
        // Nothing outside the 16 bytes is written.
        expect([...out.subarray(0, at), ...out.subarray(at + 16)].every((x) => x === 0xee)).toBe(true);
      }),
      { numRuns: 2000, seed: 29 },
    );
    // Any 26 characters, mostly the alphabet's: true exactly when toCrockford gives the text back.
    const char = fc.oneof(
      { arbitrary: fc.constantFrom(...ALPHABET), weight: 40 },
      { arbitrary: fc.constantFrom('a', 'z', 'I', 'L', 'O', 'U', '-', 'é', '\u{1F600}'), weight: 1 },
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(char, { minLength: 26, maxLength: 26 }), (chars) => {
        const text = chars.join('');
        const out = new Uint8Array(16);
        const ok = crockfordToBytes(text, out, 0);
        if (ok) accepted++;
        expect(ok).toBe(text.length === 26 && toCrockford(out) === text);
      }),
      { numRuns: 3000, seed: 7 },
    );
    expect(accepted).toBeGreaterThan(100);
    const id = '01J0Y1ZAG00000000000000002';
    const out = new Uint8Array(16);
    for (const not of [id.toLowerCase(), `8${id.slice(1)}`, id.slice(1), `${id}0`, `${id.slice(0, 25)}I`, ''])
      expect(crockfordToBytes(not, out, 0)).toBe(false);
    expect(crockfordToBytes(`7${'Z'.repeat(25)}`, out, 0)).toBe(true);
    expect(out.every((x) => x === 255)).toBe(true);
  });

  it('toCrockford agrees with a bigint reading of the bytes, at any length (property)', () => {
    const reference = (b: Uint8Array): string => {
      const chars = Math.ceil((b.length * 8) / 5);
      let n = 0n;
      for (const x of b) n = (n << 8n) | BigInt(x);
      let out = '';
      for (let i = 0; i < chars; i++) {
        out = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Number(n & 31n)] + out;
        n >>= 5n;
      }
      return out;
    };
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.uint8Array({ maxLength: 40 })), fc.nat(8), fc.nat(8), (b, before, after) => {
        expect(toCrockford(b)).toBe(reference(b));
        // The same bytes as a range of a larger array read the same, and nothing outside the range.
        const wider = new Uint8Array(before + b.length + after).fill(0xff);
        wider.set(b, before);
        expect(toCrockford(wider, before, before + b.length)).toBe(reference(b));
      }),
      { numRuns: 2000, seed: 16 },
    );
    const long = Uint8Array.from({ length: 12_000 }, (_, i) => (i * 37) & 255);
    expect(toCrockford(long)).toBe(reference(long));
  });

  it('hasControlChar finds C0, DEL and C1 exactly (property)', () => {
    // eslint-disable-next-line no-control-regex
    const control = /[\u0000-\u001f\u007f-\u009f]/;
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom('\u0000', '\u001f', ' ', '~', '\u007f', '\u0080', '\u009f', '\u00a0', 'é', '\ud83d'),
            fc.string({ unit: 'binary', maxLength: 1 }),
          ),
          maxLength: 12,
        }),
        (s) => {
          expect(hasControlChar(s)).toBe(control.test(s));
        },
      ),
      { numRuns: 3000, seed: 16 },
    );
  });
});

describe('readUintBE', () => {
  it('reads any width, short ones by shifts and long ones through hex alike', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.nat({ max: 40 }), fc.nat({ max: 40 }), (bytes, a, b) => {
        const [start, end] = [Math.min(a, b, bytes.length), Math.min(Math.max(a, b), bytes.length)];
        let want = 0n;
        for (let i = start; i < end; i++) want = want * 256n + BigInt(bytes[i]);
        expect(readUintBE(bytes, start, end)).toBe(want);
      }),
    );
  });
});

describe('joinBytes', () => {
  it('joins more parts than a call takes as arguments (a long stream of chunks)', () => {
    const parts = Array.from({ length: 300_000 }, (_, i) => Uint8Array.of(i & 0xff));
    const all = joinBytes(parts);
    expect(all.length).toBe(300_000);
    expect([all[0], all[255], all[256], all[299_999]]).toEqual([0, 255, 0, 299_999 & 0xff]);
  });
});
