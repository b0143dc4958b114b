// plainErrorBody judges an error body over its bytes for bulk loading; readBody reads it whole.
// Whatever the byte check calls plain, readBody must read without a finding.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Raw, cbor } from '../../../test/support/dialect-helpers';
import { params } from '../../../test/support/fuzz';
import { readBody } from './bodies';
import { plainErrorBody } from './fast';

/** readBody's findings on `body` as an error record's body (no headers, as bulk loading reads). */
const findingsOf = (body: Uint8Array) => readBody(body, 0, body.length, { kind: 'error', contentType: null }, false).findings;
const plain = (body: Uint8Array) => plainErrorBody(body, 0, body.length);

/** An error body written from entries in their order (a Map keeps it). */
const body = (...entries: [unknown, unknown][]) => cbor(new Map(entries));

describe('plainErrorBody', () => {
  it('calls plain the error bodies laser writes, in any order of their fields', () => {
    const cases = [
      body(['code', 3]),
      body(['code', 0], ['message', 'tool failed'], ['retryable', true]),
      body(['retryable', false], ['code', 255]),
      body(['message', 'x'.repeat(200)], ['code', 24]),
      body(['message', ''], ['code', 23], ['retryable', false]),
    ];
    for (const b of cases) {
      expect(plain(b)).toBe(true);
      expect(findingsOf(b)).toEqual([]);
    }
  });

  it('leaves to readBody what it does not decide: each such body is one readBody reads, with or without findings', () => {
    const undecided = [
      body(['message', 'no code']), // readBody: code is required
      body(['code', 256]), // too large for a code
      Uint8Array.of(0xa2, ...cbor('code'), 0x03, ...cbor('code'), 0x04), // a duplicate field
      body(['code', 3], ['detail', new Map([['k', 'v']])]), // a detail map
      body(['code', 3], ['message', 'caf\u00e9']), // text beyond ASCII
      body(['code', 3], ['other', 1]), // a field readBody ignores
      body(['code', new Raw(Uint8Array.of(0x19, 0x00, 0x05))]), // a wide head
      body(['code', new Raw(Uint8Array.of(0xc1, 0x03))]), // a tag
      body(['code', 3], ['retryable', null]),
      Uint8Array.of(...body(['code', 3]), 0x00), // a byte after the map
      body(['code', 3]).subarray(0, 5), // cut short
      cbor([3]), // not a map
      Uint8Array.of(0xbf, 0x64, 0x63, 0x6f, 0x64, 0x65, 0x03, 0xff), // an indefinite map
      new Uint8Array(0),
    ];
    for (const b of undecided) expect(plain(b), Buffer.from(b).toString('hex')).toBe(false);
    // The ones with findings are among them: readBody finds them.
    expect(findingsOf(undecided[0]).map((f) => f.rule)).toEqual(['agdx/body/cbor']);
    expect(findingsOf(undecided[2]).map((f) => f.rule)).toEqual(['agdx/body/cbor']);
  });

  it('never calls plain a body readBody has a finding on: generated error bodies, and every byte of plain ones changed or cut', () => {
    const key = fc.constantFrom('code', 'message', 'retryable', 'detail', 'cod', 'codes', 'Code');
    const value = fc.oneof(
      fc.integer({ min: 0, max: 300 }),
      fc.constantFrom(-1, 2 ** 32, true, false, null),
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
      fc.constantFrom(
        new Raw(Uint8Array.of(0x18, 0x05)),
        new Raw(Uint8Array.of(0x19, 0x01, 0x00)),
        new Raw(Uint8Array.of(0xc1, 0x05)),
        new Raw(Uint8Array.of(0x7f, 0x61, 0x61, 0xff)),
      ),
    );
    const anyBody = fc.array(fc.tuple(key, value), { maxLength: 4 }).map((entries) => cbor(new Map(entries)));
    // Mostly the fields laser writes, with the right types, in any order (code sometimes missing).
    const laserLike = fc
      .record({ code: fc.integer({ min: 0, max: 255 }), message: fc.string({ maxLength: 40 }), retryable: fc.boolean() }, { requiredKeys: [] })
      .chain((fields) => fc.shuffledSubarray(Object.entries(fields), { minLength: Object.keys(fields).length }))
      .map((entries) => cbor(new Map(entries)));
    const bodies = fc.oneof(laserLike, anyBody);
    let plainOnes = 0;
    fc.assert(
      fc.property(bodies, fc.nat(), fc.nat(255), (b, at, byte) => {
        if (plain(b)) {
          plainOnes++;
          expect(findingsOf(b)).toEqual([]);
          // A plain body with one byte changed, or cut short: still never plain where readBody finds something.
          const changed = b.slice();
          changed[at % b.length] = byte;
          for (const v of [changed, b.subarray(0, at % b.length)]) if (plain(v)) expect(findingsOf(v)).toEqual([]);
        }
      }),
      params('plainErrorBody agrees with readBody', 1, 2000),
    );
    // Many generated bodies were plain: the property was not passed by calling nothing plain.
    expect(plainOnes).toBeGreaterThan(50);
  });
});
