import * as ed from '@noble/ed25519';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concatBytes, fromHex, toHex } from '../bytes';
import { readSingle } from '../cbor/reader';
import { inspect, inspectInput } from '../inspect';
import { flat } from '../../../test/support/import-helpers';
import { isKeyEntry, keyId, parseKeys, type RegisteredKey } from '../keys/keys';
import { encodeEnvelope, signingInputSegments } from './canonical';
import { decodeEnvelope, type Envelope } from './envelope';
import { checkSignatureShape, signatureShapeFindings } from './signature';
import { nobleVerify, signingInput, verifyEnvelope } from './verify';

const root = resolve(__dirname, '../../..');
const vectorPath = (p: string) => resolve(root, 'vectors/agdx', p);
const tsVector = JSON.parse(readFileSync(vectorPath('laser-wire-0.0.1/typescript_signature.json'), 'utf8'));

const id = (n: number) => fromHex(n.toString(16).padStart(32, '0'))!;

function keyFor(seed: Uint8Array, agent: string, extra: Partial<RegisteredKey> = {}): RegisteredKey {
  const pub = ed.getPublicKey(seed);
  return { id: keyId(pub), agent, algorithm: 'ed25519', publicKey: pub, kind: 'agent', notBeforeMicros: null, notAfterMicros: null, revoked: false, ...extra };
}

function sign(
  env: Envelope,
  seed: Uint8Array,
  context?: Envelope['signature'] extends infer S ? (S extends { context?: infer C } ? C : never) : never,
): Envelope {
  const pub = ed.getPublicKey(seed);
  const unsigned: Envelope = { ...env, signature: { scheme: 1, key_id: fromHex(keyId(pub))!, bytes: new Uint8Array(64), ...(context ? { context } : {}) } };
  const bytes = ed.sign(signingInput(unsigned), seed);
  return { ...unsigned, signature: { ...unsigned.signature!, bytes } };
}

const seed7 = new Uint8Array(32).fill(7);
const seed9 = new Uint8Array(32).fill(9);

describe('the shared Ed25519 vector (typescript_signature.json)', () => {
  const env: Envelope = { kind: 'command', record: id(1), conversation: id(2), source: 'planner', correlation: id(3), body: new TextEncoder().encode('{}') };

  it('the seed gives the stated public key and key id', () => {
    const pub = ed.getPublicKey(fromHex(tsVector.secret_seed_hex)!);
    expect(toHex(pub)).toBe(tsVector.public_key_hex);
    expect(keyId(pub)).toBe(tsVector.key_id_hex);
    expect(keyId(pub)).toBe('fe812c12f3ab4ce6');
  });

  it('the signing input is the domain then the canonical envelope without signature', () => {
    const s = signingInputSegments(env);
    expect(new TextDecoder().decode(s.domain)).toBe('agdx.signature.v1');
    expect(s.context.length).toBe(0);
    expect(toHex(concatBytes(s.domain, s.context, s.envelope))).toBe(tsVector.signing_input_hex);
  });

  it('its signature verifies over its signing input, and noble reproduces it', () => {
    const msg = fromHex(tsVector.signing_input_hex)!;
    const pub = fromHex(tsVector.public_key_hex)!;
    expect(nobleVerify(fromHex(tsVector.rust_signature_hex)!, msg, pub)).toBe(true);
    expect(toHex(ed.sign(msg, fromHex(tsVector.secret_seed_hex)!))).toBe(tsVector.rust_signature_hex);
  });

  it('a record carrying that signature is valid and trusted for planner', () => {
    const signed: Envelope = { ...env, signature: { scheme: 1, key_id: fromHex(tsVector.key_id_hex)!, bytes: fromHex(tsVector.rust_signature_hex)! } };
    const keys = parseKeys(JSON.stringify({ keys: [{ agent: 'planner', public_key: tsVector.public_key_hex, kind: 'agent' }] })).keys;
    const r = inspect([{ name: 'signed.cbor', bytes: encodeEnvelope(signed) }], { keys });
    expect(r.records[0].verdict.signature).toMatchObject({
      status: 'valid',
      scheme: 'ed25519',
      key_id: 'fe812c12f3ab4ce6',
      signer: 'planner',
      trusted: true,
      context_match: null,
    });
  });
});

describe('agent_command_signed (placeholder key id and bytes)', () => {
  const bytes = new Uint8Array(readFileSync(vectorPath('laser-wire-0.0.1/agent_command_signed.bin')));
  it('is unknown_key, never valid, whatever keys are registered', () => {
    const registries: RegisteredKey[][] = [
      [],
      [keyFor(seed7, 'source-agent')],
      [keyFor(seed7, 'source-agent'), keyFor(seed9, 'source-agent', { kind: 'operator' })],
    ];
    for (const keys of registries) {
      const r = flat(inspect([{ name: 'x', bytes }], { keys }).records[0]);
      expect(r.signature.status).toBe('unknown_key');
      expect(r.signature.key_id).toBe('0102030405060708');
      expect(r.signature.trusted).toBe(false);
    }
  });
  it('even a key that claims its key id cannot make it valid: the bytes do not verify', () => {
    const env = flat(inspectInput(0, { name: 'x', bytes }).records[0]).envelope!;
    const impostor = { ...keyFor(seed7, 'source-agent'), id: '0102030405060708' };
    expect(verifyEnvelope(env, { keys: [impostor], observed: null, logTimeMicros: null }).status).toBe('invalid');
  });
});

describe('verdicts', () => {
  const base: Envelope = {
    kind: 'event',
    record: fromHex('01903c1faa00' + '00'.repeat(10))!,
    conversation: id(2),
    source: 'planner',
    body: new Uint8Array([1]),
  };
  const run = (env: Envelope, keys: RegisteredKey[], log: bigint | null = null, observed: { av: number | null; ct: number | null } | null = null) =>
    verifyEnvelope(env, { keys, observed, logTimeMicros: log });

  it("valid and trusted; valid but another agent's key: not trusted, with the reason", () => {
    const signed = sign(base, seed7);
    expect(run(signed, [keyFor(seed7, 'planner')])).toMatchObject({ status: 'valid', trusted: true, signer: 'planner' });
    const other = run(signed, [keyFor(seed7, 'booker')]);
    expect(other).toMatchObject({ status: 'valid', trusted: false, signer: 'booker' });
    expect(other.reason).toContain('not for the record\'s source "planner"');
  });

  it('revoked keys and windows', () => {
    const signed = sign(base, seed7);
    expect(run(signed, [keyFor(seed7, 'planner', { revoked: true })]).trusted).toBe(false);
    // The record id's ULID time (0x01903c1faa00 ms, 2024-06-21T…) is the signed time: it decides.
    const ulid = 0x01903c1faa00n * 1000n;
    const windowed = keyFor(seed7, 'planner', { notBeforeMicros: ulid - 1000n, notAfterMicros: ulid + 1000n });
    expect(run(signed, [windowed])).toMatchObject({ status: 'valid', trusted: true });
    expect(run(signed, [windowed]).reason).toBe(
      "valid under key fe812c12f3ab4ce6: registered agent key of planner, inside its window at the record id's ULID time (2024-06-21T18:47:06.496Z)",
    );
    // A log time inside the window too: both said. Outside it: the log time narrows trust.
    expect(run(signed, [windowed], ulid + 500n).reason).toBe(
      "valid under key fe812c12f3ab4ce6: registered agent key of planner, inside its window at the record id's ULID time (2024-06-21T18:47:06.496Z) and at the record's log time (2024-06-21T18:47:06.496Z) (not signed)",
    );
    const late = run(signed, [windowed], ulid + 2_000_000n);
    expect(late).toMatchObject({ status: 'valid', trusted: false });
    expect(late.reason).toBe(
      "valid under key fe812c12f3ab4ce6: the record's log time (2024-06-21T18:47:08.496Z) is after key fe812c12f3ab4ce6 of planner's window closed, though the record id's ULID time (2024-06-21T18:47:06.496Z) is inside it; the record's log time is not signed and can only narrow trust",
    );
    expect(run(signed, [windowed], ulid - 2_000_000n).reason).toContain("the record's log time (2024-06-21T18:47:04.496Z) is before");
    // A log time inside a window the signed time is outside of widens nothing.
    const past = keyFor(seed7, 'planner', { notBeforeMicros: 1000n, notAfterMicros: 2000n });
    expect(run(signed, [past], 1500n)).toMatchObject({ status: 'valid', trusted: false });
    expect(run(signed, [past], 1500n).reason).toContain("the record id's ULID time (2024-06-21T18:47:06.496Z) is after");
    expect(run(signed, [past]).reason).toContain('ULID time');
    // No record id: a windowed key cannot be satisfied, so it is not trusted, with or without a log time.
    const noId = sign({ ...base, record: undefined, kind: 'chunk', channel: id(3), correlation: id(4), sequence: 1 }, seed7);
    const r = run(noId, [windowed]);
    expect(r).toMatchObject({ status: 'valid', trusted: false });
    expect(r.reason).toContain('the record id carries no ULID time, the only time its signature covers: the window cannot be satisfied');
    const logged = run(noId, [windowed], ulid);
    expect(logged).toMatchObject({ status: 'valid', trusted: false });
    expect(logged.reason).toContain("(the record's log time (2024-06-21T18:47:06.496Z) is not signed, so it cannot stand in for one)");
    // An id whose first 48 bits are zero carries no time either (as the folds read it).
    const zeroTime = sign({ ...base, record: new Uint8Array(16).fill(0, 0, 6).fill(1, 6) }, seed7);
    expect(run(zeroTime, [windowed]).trusted).toBe(false);
    // Without a window, no time is needed.
    expect(run(noId, [keyFor(seed7, 'planner')]).trusted).toBe(true);
  });

  it('the same key registered twice for one agent, once revoked: the revocation wins', () => {
    const signed = sign(base, seed7);
    const both = [keyFor(seed7, 'planner'), keyFor(seed7, 'planner', { revoked: true })];
    expect(run(signed, both)).toMatchObject({ status: 'valid', trusted: false });
    expect(run(signed, [...both].reverse()).trusted).toBe(false);
    expect(run(signed, both).reason).toContain('revoked');
  });

  it('quarantine and unquarantine are trusted only under an operator key', () => {
    const q = sign(
      { kind: 'status', record: id(5), conversation: id(2), source: 'registry', operation: 'quarantine', body: new TextEncoder().encode('rogue') },
      seed7,
    );
    expect(run(q, [keyFor(seed7, 'registry')])).toMatchObject({ status: 'valid', trusted: false });
    expect(run(q, [keyFor(seed7, 'registry', { kind: 'operator' })])).toMatchObject({ status: 'valid', trusted: true, signer: 'registry' });
    // An operator key of another agent: the record's source claims someone else, so it is not backed.
    const ops = run(q, [keyFor(seed7, 'ops', { kind: 'operator' })]);
    expect(ops).toMatchObject({ status: 'valid', trusted: false, signer: 'ops' });
    expect(ops.reason).toBe(
      'valid under key fe812c12f3ab4ce6: key fe812c12f3ab4ce6 of ops is registered for "ops", not for the record\'s source "registry": a quarantine is backed only when its source is the operator key\'s own agent',
    );
  });

  it('unsupported scheme passes through; wrong lengths are malformed with agdx/signature/shape', () => {
    const odd: Envelope = { ...base, signature: { scheme: 7, key_id: new Uint8Array(8), bytes: new Uint8Array(64) } };
    expect(run(odd, [keyFor(seed7, 'planner')]).status).toBe('unsupported');
    const short: Envelope = { ...base, signature: { scheme: 1, key_id: new Uint8Array(4), bytes: new Uint8Array(63) } };
    const r = flat(inspect([{ name: 's', bytes: encodeEnvelope(short) }]).records[0]);
    expect(r.signature.status).toBe('malformed');
    expect(r.findings.filter((f) => f.rule === 'agdx/signature/shape').map((f) => f.path)).toEqual(['signature.key_id', 'signature.bytes']);
    expect(r.valid).toBe(false);
  });

  it("the shape findings alone (bulk decoding) are checkSignatureShape's, and each signer's verdict names its own key id", () => {
    const capsule = fc.record({
      scheme: fc.constantFrom(0, 1, 1, 2),
      key_id: fc.uint8Array({ minLength: 6, maxLength: 10 }),
      bytes: fc.uint8Array({ minLength: 62, maxLength: 66 }),
    });
    fc.assert(
      fc.property(fc.option(capsule, { nil: undefined }), (signature) => {
        const env: Envelope = { ...base, signature };
        const check = checkSignatureShape(env, null, () => null);
        expect(signatureShapeFindings(env, () => null)).toEqual(check.findings);
        // The answer records by one key share is the one made for a record alone (one with a field
        // outside the signature: never shared), that field aside.
        if (signature) {
          const alone = checkSignatureShape(env, null, () => null, ['tool']);
          expect(alone).not.toBe(check);
          expect(check).toEqual({ ...alone, verdict: { ...alone.verdict, not_covered: [] } });
        }
        if (signature) {
          expect(check.verdict.key_id).toBe(toHex(signature.key_id));
          if (check.verdict.status === 'unknown_key') expect(check.verdict.reason).toBe(`no registered key has key id ${toHex(signature.key_id)}`);
        }
      }),
      { numRuns: 500, seed: 16 },
    );
    // Alternating signers: each verdict has its own key id, in the report's key order.
    const one = checkSignatureShape(
      { ...base, signature: { scheme: 1, key_id: new Uint8Array(8).fill(1), bytes: new Uint8Array(64) } },
      null,
      () => null,
    ).verdict;
    const two = checkSignatureShape(
      { ...base, signature: { scheme: 1, key_id: new Uint8Array(8).fill(2), bytes: new Uint8Array(64) } },
      null,
      () => null,
    ).verdict;
    expect([one.key_id, two.key_id]).toEqual(['0101010101010101', '0202020202020202']);
    // Records by the same key in a row share one frozen answer; one with uncovered fields has its own.
    const byTwo = { ...base, signature: { scheme: 1, key_id: new Uint8Array(8).fill(2), bytes: new Uint8Array(64).fill(9) } };
    expect(checkSignatureShape(byTwo, null, () => null).verdict).toBe(two);
    expect(Object.isFrozen(two) && Object.isFrozen(two.not_covered)).toBe(true);
    expect(checkSignatureShape(byTwo, null, () => null, ['tool']).verdict).toMatchObject({ ...two, not_covered: ['tool'] });
    expect(Object.keys(one)).toEqual(['key_id', 'signer', 'trusted', 'context_match', 'not_covered', 'status', 'scheme', 'reason']);
  });

  it('context_match compares the signed context with the observed headers', () => {
    const signed = sign(base, seed7, { content_type: 1, agent_version: 1 });
    expect(run(signed, [keyFor(seed7, 'planner')], null, { av: 1, ct: 1 })).toMatchObject({ status: 'valid', trusted: true, context_match: true });
    const relabelled = run(signed, [keyFor(seed7, 'planner')], null, { av: 1, ct: 3 });
    expect(relabelled).toMatchObject({ status: 'valid', trusted: false, context_match: false });
    expect(run(signed, [keyFor(seed7, 'planner')]).context_match).toBeNull();
  });

  it('a non-canonical record is verified against the canonical bytes and flagged', () => {
    const signed = sign(base, seed7);
    const canonical = encodeEnvelope(signed);
    // Re-write the map head with a one-byte count argument (b8 NN): same value, non-minimal head.
    const count = canonical[0] & 0x1f;
    const noncanonical = concatBytes(new Uint8Array([0xb8, count]), canonical.subarray(1));
    const r = flat(inspect([{ name: 'n', bytes: noncanonical }], { keys: [keyFor(seed7, 'planner')] }).records[0]);
    expect(r.signature.status).toBe('valid');
    expect(r.findings.find((f) => f.rule === 'agdx/noncanonical')?.message).toContain('from byte 0');
  });
});

describe('properties', () => {
  const text = fc.string({ minLength: 1, maxLength: 24 }).filter((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s));
  const idArb = fc.uint8Array({ minLength: 16, maxLength: 16 });
  const envelopeArb: fc.Arbitrary<Envelope> = fc
    .record(
      {
        kind: fc.constantFrom('command' as const, 'response' as const, 'event' as const, 'error' as const),
        record: idArb,
        conversation: idArb,
        source: text,
        correlation: idArb,
        body: fc.uint8Array({ minLength: 1, maxLength: 40 }),
        tool: fc.option(text, { nil: undefined }),
        metadata: fc
          .option(
            fc.dictionary(
              text,
              fc.oneof(
                fc.string({ maxLength: 10 }).map((v) => ({ type: 'text' as const, value: v })),
                fc.double({ noNaN: true }).map((v) => ({ type: 'float' as const, value: v })),
                fc.integer().map((v) => ({ type: 'int' as const, value: v })),
              ),
              { maxKeys: 4 },
            ),
            { nil: undefined },
          )
          .map((d) => (d ? new Map(Object.entries(d).sort(([a], [b]) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1))) : undefined)),
      },
      { requiredKeys: ['kind', 'record', 'conversation', 'source', 'correlation', 'body'] },
    )
    .map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as unknown as Envelope);

  it('random envelopes signed with noble verify, round trip canonically, and any one-byte change breaks them', () => {
    fc.assert(
      fc.property(envelopeArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (env, at, delta) => {
        const signed = sign(env, seed7);
        const bytes = encodeEnvelope(signed);
        const key = keyFor(seed7, signed.source);
        const item = readSingle(bytes);
        expect(item.ok && decodeEnvelope(item.value).ok).toBe(true);
        expect(verifyEnvelope(signed, { keys: [key], observed: null, logTimeMicros: null })).toMatchObject({ status: 'valid', trusted: true });
        // One byte of the signed message changed: the signature no longer holds.
        const msg = signingInput(signed);
        const tampered = msg.slice();
        tampered[at % msg.length] ^= delta;
        expect(nobleVerify(signed.signature!.bytes, tampered, key.publicKey)).toBe(false);
        // One byte of the record changed: never valid unless it still decodes to the same signed message.
        const changed = bytes.slice();
        changed[at % bytes.length] ^= delta;
        const r = flat(inspect([{ name: 'c', bytes: changed }], { keys: [key] }).records[0]);
        if (r.signature.status === 'valid') expect(toHex(signingInput(r.envelope!))).toBe(toHex(msg));
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('a changed header context is a mismatch, never trusted', () => {
    fc.assert(
      fc.property(envelopeArb, fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), (env, signedCt, seenCt) => {
        const signed = sign(env, seed7, { content_type: signedCt, agent_version: 1 });
        const v = verifyEnvelope(signed, { keys: [keyFor(seed7, env.source)], observed: { av: 1, ct: seenCt }, logTimeMicros: null });
        expect(v.status).toBe('valid');
        expect(v.context_match).toBe(signedCt === seenCt);
        expect(v.trusted).toBe(signedCt === seenCt);
      }),
      { numRuns: 100, seed: 7 },
    );
  });
});

describe('key parsing', () => {
  const pub = tsVector.public_key_hex as string;
  const pubBytes = fromHex(pub)!;
  it('hex, base64, key file, JWK, JWKS and PEM give the same key id', () => {
    const b64 = Buffer.from(pubBytes).toString('base64');
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(pubBytes).toString('base64url'), agent: 'planner' };
    const pem = `-----BEGIN PUBLIC KEY-----\n${Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), pubBytes]).toString('base64')}\n-----END PUBLIC KEY-----\n`;
    for (const input of [
      pub,
      b64,
      JSON.stringify({ keys: [{ agent: 'planner', public_key: b64 }] }),
      JSON.stringify(jwk),
      JSON.stringify({ keys: [jwk] }),
      pem,
    ]) {
      const r = parseKeys(input, { agent: 'planner' });
      expect(r.problems).toEqual([]);
      expect(r.keys.map((k) => [isKeyEntry(k) && k.id, k.agent, isKeyEntry(k) && k.algorithm])).toEqual([['fe812c12f3ab4ce6', 'planner', 'ed25519']]);
    }
  });
  it('the key file keeps kind, window and revoked', () => {
    const r = parseKeys(
      JSON.stringify({ keys: [{ agent: 'ops', public_key: pub, kind: 'operator', not_before_micros: 5, not_after_micros: 0, revoked: true }] }),
    );
    expect(r.keys[0]).toMatchObject({ kind: 'operator', notBeforeMicros: 5n, notAfterMicros: null, revoked: true });
  });
  it('bad keys are problems, not exceptions', () => {
    expect(parseKeys('zz').problems.length).toBe(1);
    expect(parseKeys('{"keys":[{"kty":"RSA"}]}').problems[0]).toContain('OKP Ed25519');
    expect(parseKeys('{"kty":"OKP","crv":"Ed25519","x":"AAAA","d":"x"}').problems[0]).toContain('private key');
    expect(parseKeys(JSON.stringify({ keys: [{ agent: 'a', public_key: '00' }] })).problems[0]).toContain('32 bytes');
    expect(parseKeys(JSON.stringify({ keys: [{ agent: 'a', public_key: pub, kind: 'boss' }] })).problems[0]).toContain(
      'member "kind" must be "agent" or "operator"',
    );
    expect(parseKeys('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----').problems[0]).toContain('only PUBLIC KEY');
    expect(parseKeys('{').problems[0]).toContain('not valid JSON');
    expect(() => parseKeys(42 as unknown as string)).toThrow(TypeError);
  });
});
