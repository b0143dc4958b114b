import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJson, type JsonResult } from '../json/lossless';
import { Source } from './importer';

const enc = new TextEncoder();

/** Source.json as it was defined before it stopped decoding the input whole: the text first, then the reading. */
function jsonAfterText(bytes: Uint8Array): JsonResult | null {
  if (bytes.length > 0 && bytes[0] >= 0xa0 && bytes[0] <= 0xbf) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  if (!/^[\s\x20-\uffff]*$/.test(text)) return null;
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[') ? readJson(bytes) : null;
}

const jsonOf = (bytes: Uint8Array) => new Source({ input: 0, view: bytes, viewOrigin: 'input' }).json;

describe('Source.json', () => {
  const cases: (string | Uint8Array)[] = [
    '{"a":"é ✓","b":[1,2]}',
    '  \n\t[1,"x"]',
    '\uFEFF{"a":1}',
    '\u00a0\u3000\u2028 {"a":1}',
    '\v{"a":1}',
    '\u0085{"a":1}',
    '{"a":"\u0001"}',
    '{"a":1}\u0001',
    '{"a":1} x',
    '[1,',
    'é[1]',
    '"text"',
    '',
    '   ',
    new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0x7d]),
    new Uint8Array([0x5b, 0x31, 0x5d, 0x20, 0xc3]),
    new Uint8Array([0xa1, 0x61, 0x61, 0x01]),
    new Uint8Array([0xc2, 0xa0, 0xc2, 0x5b, 0x5d]),
  ];
  it('is what decoding the input as text first gave, on each case: the reading, an error, or null', () => {
    for (const c of cases) {
      const bytes = typeof c === 'string' ? enc.encode(c) : c;
      expect(jsonOf(bytes), JSON.stringify(typeof c === 'string' ? c : [...c])).toEqual(jsonAfterText(bytes));
    }
  });
  it('is what decoding the input as text first gave, on JSON documents with bytes changed (1,000 runs)', () => {
    const doc = enc.encode('\uFEFF {"from":"did:x:é","payload":"{\\"a\\": \\"✓\\"}","n":[1,-2.5e3,true,null]}\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(doc.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }), (changes) => {
        const bytes = doc.slice();
        for (const [at, byte] of changes) bytes[at] = byte;
        expect(jsonOf(bytes)).toEqual(jsonAfterText(bytes));
      }),
      { numRuns: 1000, seed: 29 },
    );
  });
});
