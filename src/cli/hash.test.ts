import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { contentHash, installSha256Text, pureSha256Hex, sha256Hex } from '../core/agentdna/hash';
import { nodeSha256Hex } from './hash';

afterEach(() => installSha256Text(null));

describe("node:crypto's SHA-256 of text", () => {
  it('equals the pure one on any string: ASCII, any unicode, lone surrogates, long texts', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 300 }),
      fc.constantFrom('', '\ud800', 'a\udc00b', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'é'.repeat(1000)),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(nodeSha256Hex(t)).toBe(pureSha256Hex(t));
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('once installed, AgentDNA hashes with it and gets the same content hash', () => {
    const fields = { from: 'bafy', payload: 'café ✓', epoch: 1782668300n };
    const pure = contentHash(fields);
    let calls = 0;
    installSha256Text((t) => {
      calls++;
      return nodeSha256Hex(t);
    });
    expect(contentHash(fields)).toBe(pure);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(calls).toBe(2);
  });

  it('misuse: installing something that is not a function throws TypeError', () => {
    expect(() => installSha256Text('sha256' as never)).toThrow(TypeError);
  });
});
