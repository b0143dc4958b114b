// The key parsers (parseKeys: key files, JWK / JWKS, PEM, hex, base64, raw bytes) under any text or
// bytes: never an exception, always keys or problems; every key has a length its algorithm allows
// and the key id of its bytes; time stays linear in the input (no regular expression blow-up).
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, fromHex, toBase64, toHex } from '../bytes';
import { entryKey, isDidEntry, keyId, parseKeys, pemBlocks, toKeyFile, type KeyParseResult } from '../keys/keys';
import { bounded, hostileString, params, TIMEOUT, utf8 } from '../../../test/support/fuzz';

ed.hashes.sha512 = sha512;
const pub = ed.getPublicKey(new Uint8Array(32).fill(7));
const PEM = `-----BEGIN PUBLIC KEY-----\n${toBase64(new Uint8Array([...fromHex('302a300506032b6570032100')!, ...pub]))}\n-----END PUBLIC KEY-----\n`;

function check(r: KeyParseResult, where: string): void {
  expect(Array.isArray(r.keys) && Array.isArray(r.problems), where).toBe(true);
  for (const p of r.problems) expect(typeof p, where).toBe('string');
  expect(r.statedKinds.length, where).toBe(r.keys.length);
  for (const k of r.keys) {
    expect(['agent', 'operator']).toContain(k.kind);
    expect(typeof k.agent, where).toBe('string');
    // Fail closed: an entry without an agent is a problem, never an entry that backs nothing.
    expect(k.agent.length, where).toBeGreaterThan(0);
    if (isDidEntry(k)) {
      expect(k.did.length > 0 && k.did.length <= 512, where).toBe(true);
      continue;
    }
    expect(k.algorithm === 'ed25519' ? k.publicKey.length === 32 : k.publicKey.length === 33 || k.publicKey.length === 65, where).toBe(true);
    expect(k.id, where).toBe(keyId(k.publicKey));
    expect(['agent', 'operator']).toContain(k.kind);
    expect(typeof k.agent, where).toBe('string');
    expect(typeof k.revoked, where).toBe('boolean');
    for (const b of [k.notBeforeMicros, k.notAfterMicros]) if (b !== null) expect(b > 0n, where).toBe(true);
  }
  // A key file written from the keys reads back as the same keys.
  if (r.keys.length) {
    const back = parseKeys(toKeyFile(r.keys));
    expect(back.keys.map(entryKey)).toEqual(r.keys.map(entryKey));
  }
}

const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.record(
    {
      agent: fc.oneof(hostileString, fc.integer(), fc.constant(null)),
      public_key: fc.oneof(
        fc.constant(toHex(pub)),
        fc.constant(toBase64(pub)),
        fc.constant(`0x${toHex(pub)}`),
        hostileString,
        fc.uint8Array({ maxLength: 70 }).map(toHex),
        fc.uint8Array({ maxLength: 70 }).map((b) => toBase64(b)),
        fc.integer(),
      ),
      kind: fc.oneof(fc.constantFrom('agent', 'operator', '__proto__', 'root'), fc.integer()),
      not_before_micros: fc.oneof(fc.integer(), fc.constantFrom('0', '1', '-1', '1e3', '99999999999999999999999', '', ' 1'), fc.double(), fc.constant(null)),
      not_after_micros: fc.oneof(fc.integer(), fc.constantFrom('0', '18446744073709551615'), fc.constant(null)),
      revoked: fc.oneof(fc.boolean(), fc.constantFrom('true', 1, null)),
      did: fc.oneof(
        fc.constantFrom('bafybmieov5ndpfynaz7snkexetcwarcdhewzfaabn2xmb7q6g2t2cfxfvq', 'did:example:x', '', ' x', 'a\u202eb'),
        hostileString,
        fc.integer(),
        fc.constant(null),
      ),
      kty: fc.constantFrom('OKP', 'EC', 'RSA'),
      crv: fc.constantFrom('Ed25519', 'secp256k1', 'X25519'),
      x: fc.oneof(fc.constant(toBase64(pub, true)), hostileString),
      d: fc.constant(toBase64(pub, true)),
      __proto__: fc.constant({ polluted: true }),
    },
    { requiredKeys: [] },
  ),
);

describe('parseKeys', () => {
  it('any text: keys or problems, never an exception', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 100 }), hostileString), (text) => {
        check(
          bounded('parseKeys', () => parseKeys(text)),
          'text',
        );
      }),
      params('keys-text', 1),
    );
  });

  it('any bytes: keys or problems, never an exception', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 100 }),
          fc.constantFrom(32, 33, 65).chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        ),
        (bytes) => {
          check(
            bounded('parseKeys', () => parseKeys(bytes)),
            'bytes',
          );
        },
      ),
      params('keys-bytes', 1),
    );
  });

  it('key files, JWKs and JWKS with any members (including __proto__): keys or problems; no prototype is touched', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.array(jsonish, { maxLength: 4 }),
        fc.constantFrom('file', 'array', 'single'),
        fc.option(hostileString, { nil: undefined }),
        (entries, shape, agent) => {
          const text = shape === 'file' ? JSON.stringify({ keys: entries }) : shape === 'array' ? JSON.stringify(entries) : JSON.stringify(entries[0] ?? {});
          check(
            bounded('parseKeys', () => parseKeys(text, { agent })),
            shape,
          );
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      params('keys-json', 1),
    );
  });

  it('fail closed: a key file entry becomes a key only when every member it has is of its type, and the key is what they say', { timeout: TIMEOUT }, () => {
    const member = fc.oneof(
      fc.boolean(),
      fc.integer({ min: -2, max: 3 }),
      fc.double({ min: -10, max: 10 }),
      fc.constantFrom('true', '0', '7', '1e3', '', 'agent', 'operator', null),
      fc.constant([1]),
    );
    fc.assert(
      fc.property(
        fc.record(
          { agent: fc.oneof(fc.constantFrom('planner', ''), member), kind: member, not_before_micros: member, not_after_micros: member, revoked: member },
          { requiredKeys: [] },
        ),
        (members) => {
          const r = parseKeys(JSON.stringify({ keys: [{ public_key: toHex(pub), ...members }] }));
          const bound = (v: unknown) =>
            v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= 0) || (typeof v === 'string' && /^\d+$/.test(v));
          const micros = (v: unknown) => (v === undefined || BigInt(v as number | string) === 0n ? null : BigInt(v as number | string));
          const typed =
            typeof members.agent === 'string' &&
            members.agent !== '' &&
            (members.kind === undefined || members.kind === 'agent' || members.kind === 'operator') &&
            (members.revoked === undefined || typeof members.revoked === 'boolean') &&
            bound(members.not_before_micros) &&
            bound(members.not_after_micros) &&
            !(
              micros(members.not_before_micros) !== null &&
              micros(members.not_after_micros) !== null &&
              micros(members.not_after_micros)! < micros(members.not_before_micros)!
            );
          expect(r.keys.length + r.problems.length).toBe(1);
          if (!typed) {
            expect(r.keys).toEqual([]);
            return;
          }
          expect(r.keys[0]).toMatchObject({
            agent: members.agent,
            kind: members.kind ?? 'agent',
            revoked: members.revoked === true,
            notBeforeMicros: micros(members.not_before_micros),
            notAfterMicros: micros(members.not_after_micros),
          });
        },
      ),
      params('keys-typed', 1),
    );
  });

  it('PEM text with damaged blocks, other block types and noise around: keys or problems', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constant(PEM),
            fc.constantFrom(
              '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
              '-----BEGIN PUBLIC KEY-----\n!!\n-----END PUBLIC KEY-----',
              '-----BEGIN PUBLIC KEY-----\n',
              '-----END PUBLIC KEY-----',
            ),
            hostileString,
          ),
          { maxLength: 5 },
        ),
        (parts) => {
          const text = parts.join('\n');
          check(
            bounded('parseKeys', () => parseKeys(text)),
            'pem',
          );
        },
      ),
      params('keys-pem', 0.5),
    );
  });

  it('pemBlocks finds exactly the blocks the obvious (quadratic) regex finds', { timeout: TIMEOUT }, () => {
    const piece = fc.constantFrom(
      '-----BEGIN PUBLIC KEY-----',
      '-----END PUBLIC KEY-----',
      '-----BEGIN A-----',
      '-----END A-----',
      '-----',
      'BEGIN ',
      'END ',
      'A',
      ' ',
      'PUBLIC KEY',
      '\n',
      'xyz',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const t = parts.join('');
        const ref = [...t.matchAll(/-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/g)].map(([, type, body]) => [type, body]);
        expect(pemBlocks(t)).toEqual(ref);
      }),
      params('keys-pem-blocks', 1),
    );
  });

  it('stays linear on long repetitive text (no regular expression backtracking blow-up)', { timeout: TIMEOUT }, () => {
    const n = 200_000;
    const cases: [string, string][] = [
      ['spaces between two tokens', `a${' '.repeat(n)}b`],
      ['tabs and spaces with no separator', `x${' \t'.repeat(n / 2)}y`],
      ['many BEGIN lines and no END', '-----BEGIN PUBLIC KEY-----\n'.repeat(n / 27)],
      ['many BEGIN lines of growing types', Array.from({ length: 4000 }, (_, i) => `-----BEGIN ${'A'.repeat(1 + (i % 40))}-----`).join('')],
      ['a long run of = inside base64', `AAAA${'='.repeat(n)}AAAA`],
      ['a long run of = at the end', `${'A'.repeat(40)}${'='.repeat(n)}`],
    ];
    for (const [what, text] of cases) {
      const r = bounded(what, () => parseKeys(text));
      check(r, what);
      bounded(`${what} (bytes)`, () => parseKeys(utf8(text)));
    }
  });
});

describe('bytes helpers under hostile text', () => {
  it('fromBase64 and fromHex never throw and stay linear', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (s) => {
        const b = fromBase64(s);
        if (b) expect(b.length).toBeLessThanOrEqual(s.length);
        const h = fromHex(s);
        if (h) expect(h.length).toBeLessThanOrEqual(s.length);
      }),
      params('bytes-text', 1),
    );
    for (const text of ['='.repeat(300_000) + 'A', 'A'.repeat(8) + '='.repeat(300_000) + 'A=', ' '.repeat(300_000) + 'A']) {
      bounded('fromBase64', () => fromBase64(text));
      bounded('fromHex', () => fromHex(text));
    }
  });

  it('fromBase64 reads what toBase64 writes (standard and url-safe, padding optional)', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), fc.boolean(), (bytes, url, strip) => {
        let text = toBase64(bytes, url);
        if (strip) text = text.replace(/=/g, '');
        expect(fromBase64(text)).toEqual(bytes);
      }),
      params('bytes-base64', 0.5),
    );
  });
});
