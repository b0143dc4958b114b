// plainErrorBody judges an error body over its bytes for bulk loading; readBody reads it whole.
// Whatever the byte check calls plain, readBody must read without a finding; and where
// bodyCanHaveFindings says a context can have none, readBody finds none there.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Raw, cbor } from '../../../test/support/dialect-helpers';
import { params } from '../../../test/support/fuzz';
import { bodyCanHaveFindings, readBody } from './bodies';
import { DIALECTS, KINDS } from './dialects';
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

describe('bodyCanHaveFindings', () => {
  // Every operation a dialect gives a body shape, the capsule operations, and some no dialect knows.
  const operations = [
    undefined,
    ...new Set(DIALECTS.flatMap((d) => Object.keys(d.bodies).map((at) => at.slice(at.indexOf('/') + 1)))),
    'card',
    'quarantine',
    'unquarantine',
    'chat',
    'task',
    '',
  ];
  const contentTypes = [null, ...Array.from({ length: 13 }, (_, i) => i), 255];
  const contexts = KINDS.flatMap((kind) =>
    operations.flatMap((operation) => contentTypes.flatMap((contentType) => DIALECTS.map((dialect) => ({ kind, operation, contentType, dialect })))),
  );
  const skipped = contexts.filter((c) => !bodyCanHaveFindings(c.kind, c.operation, c.contentType, c.dialect));
  const read = contexts.filter((c) => bodyCanHaveFindings(c.kind, c.operation, c.contentType, c.dialect));

  it('leaves to readBody every context it can find something in', () => {
    // Both kinds of context are many: the property below is not passed by reading every body.
    expect(skipped.length).toBeGreaterThan(500);
    expect(read.length).toBeGreaterThan(100);
    // A bare envelope's command, response, event and chunk bodies (no agdx.ct) are the ones skipped.
    for (const kind of ['command', 'response', 'event', 'chunk']) expect(bodyCanHaveFindings(kind, undefined, null), kind).toBe(false);
    // Where it says a body can have findings, some body has: readBody is not asked for nothing.
    const notJson = new TextEncoder().encode('{not json');
    expect(readBody(notJson, 0, notJson.length, { kind: 'event', contentType: 1 }, false).findings.length).toBeGreaterThan(0);
    expect(findingsOf(cbor([3])).length).toBeGreaterThan(0);
  });

  it('is false only where readBody finds nothing, whatever the body', () => {
    const anyBytes = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.jsonValue().map((v) => new TextEncoder().encode(JSON.stringify(v))),
      // (The test's encoder writes whole numbers as integers: those past 64 bits are left out.)
      fc.jsonValue().map((v) => cbor(JSON.parse(JSON.stringify(v, (_, x) => (typeof x === 'number' && Math.abs(x) > 2 ** 53 ? 0 : x))))),
      fc.constantFrom(cbor(new Map([['code', 3]])), cbor('caf\u00e9'), Uint8Array.of(0xff, 0xfe), new Uint8Array(0)),
    );
    fc.assert(
      fc.property(fc.constantFrom(...skipped), anyBytes, (ctx, bytes) => {
        expect(readBody(bytes, 0, bytes.length, ctx, false).findings).toEqual([]);
      }),
      params('bodyCanHaveFindings agrees with readBody', 1, 2000),
    );
  });
});
