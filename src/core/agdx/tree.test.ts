import { describe, expect, it } from 'vitest';
import { utf8OrNull } from '../bytes';
import { printableText } from './tree';

/** What the hint showed when it decoded each byte string: strict UTF-8, then printable ASCII only. */
function decodedThenChecked(bytes: Uint8Array): string | null {
  const text = utf8OrNull(bytes);
  return text !== null && text.length > 0 && /^[\x20-\x7e]*$/.test(text) ? text : null;
}

describe('printableText', () => {
  const cases: Array<[string, number[]]> = [
    ['empty', []],
    ['ascii', [...'plan.v1'].map((c) => c.charCodeAt(0))],
    ['space and tilde', [0x20, 0x7e]],
    ['control byte', [0x41, 0x0a]],
    ['DEL', [0x7f]],
    ['two-byte UTF-8', [0xc3, 0xa9]],
    ['invalid UTF-8', [0xff, 0x41]],
    ['byte-order mark then ascii', [0xef, 0xbb, 0xbf, 0x41, 0x42]],
    ['byte-order mark alone', [0xef, 0xbb, 0xbf]],
    ['two byte-order marks', [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x41]],
    ['truncated byte-order mark', [0xef, 0xbb, 0x41]],
  ];
  it.each(cases)('%s reads as the decoder read it', (_name, bytes) => {
    const b = Uint8Array.from(bytes);
    expect(printableText(b)).toBe(decodedThenChecked(b));
  });

  it('agrees with decoding on random short byte strings', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    for (let n = 0; n < 5000; n++) {
      const len = next() % 6;
      // Mostly printable, sometimes anything: both sides of the check get exercised.
      const b = Uint8Array.from({ length: len }, () => (next() < 200 ? 0x20 + (next() % 95) : next()));
      expect(printableText(b)).toBe(decodedThenChecked(b));
    }
  });
});
