import { describe, expect, it } from 'vitest';
import { ByteRun } from './byte-run';

describe('ByteRun', () => {
  it('writes text as TextEncoder encodes it, ASCII or not, growing past its first size', () => {
    const texts = ['plain', '', 'ünï → 😀', 'lone \ud800 surrogate', 'x'.repeat(300), `${'a'.repeat(40)}é${'b'.repeat(40)}`];
    const run = new ByteRun(4);
    for (const t of texts) run.utf8(t);
    expect(run.buf.subarray(0, run.length)).toEqual(new TextEncoder().encode(texts.join('')));
  });

  it('writes a non-negative integer’s decimal digits, ASCII and bytes as they are', () => {
    const run = new ByteRun(1);
    for (const n of [0, 7, 10, 99, 100, 2 ** 53 - 1]) {
      run.digits(n);
      run.ascii(',');
    }
    run.bytes(Uint8Array.of(0x21));
    expect(new TextDecoder().decode(run.buf.subarray(0, run.length))).toBe(`0,7,10,99,100,${2 ** 53 - 1},!`);
  });
});
