// Signature edge cases, as unit tests: what our verdict is for the inputs where verifiers disagree.
//
// Ed25519 (AGDX): verification is noble's strict branch (zip215: false, RFC 8032 as
// ed25519-dalek's verify_strict). Its rules, and so ours:
//   - S must be below the group order L (RFC 8032 and ZIP 215 agree): S ≥ L is `invalid`.
//   - R and A must be canonical encodings (y < p): a non-canonical one is `invalid`, even where the
//     permissive ZIP 215 rules (zip215: true) would accept the very same bytes.
//   - A small-order public key is refused: under it the all-zero-S signatures verify for EVERY
//     message with the permissive rules; ours says `invalid`, and the key parser lists such a key
//     as a problem instead of registering it.
// A registered key whose signature fails is `invalid` (never `valid`, never an exception); with no
// registered key of that id it is `unknown_key`; a wrong length is `malformed`.
//
// ECDSA secp256k1 (AgentDNA): r and s must be in [1, n-1] (ECPy returns False otherwise): out of
// range is `invalid` with the reason; a DER with trailing bytes is `malformed` (ECPy refuses it); a
// key file entry that is not a curve point (zero, identity-like) is a problem when parsed, and when it
// reaches the verifier anyway it is ignored: the verdict is `invalid`, never an exception.
import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { checkSignatureBytes, checkSignatureText } from '../agentdna/signature';
import { CURVE_N } from '../agentdna/ecdsa';
import { encodeEnvelope } from '../agdx/canonical';
import type { Envelope } from '../agdx/envelope';
import { nobleVerify, signingInput, verifyEnvelope } from '../agdx/verify';
import { fromHex, toHex } from '../bytes';
import { inspect } from '../inspect';
import { isValid } from '../verdict';
import { keyId, parseKeys, type RegisteredKey } from '../keys/keys';
import { keyFor, SEED7, signEnvelope } from '../../../test/support/agdx-gen';

const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const P = 2n ** 255n - 19n;

const le32 = (n: bigint) => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
};
const fromLe = (b: Uint8Array) => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);

/** The eight points of small order, in their canonical encodings. */
const SMALL_ORDER = [
  '0100000000000000000000000000000000000000000000000000000000000000', // identity
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // order 2
  '0000000000000000000000000000000000000000000000000000000000000000', // order 4
  '0000000000000000000000000000000000000000000000000000000000000080', // order 4
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
].map((h) => fromHex(h)!);
/** The identity encoded with y = p + 1 (not below p): a non-canonical encoding. */
const IDENTITY_NONCANONICAL = le32(P + 1n);

const base: Envelope = {
  kind: 'event',
  record: new Uint8Array(16).fill(1),
  conversation: new Uint8Array(16).fill(2),
  source: 'planner',
  body: Uint8Array.of(0x7b, 0x7d),
};

function rawKey(publicKey: Uint8Array, agent = 'planner'): RegisteredKey {
  return { id: keyId(publicKey), agent, algorithm: 'ed25519', publicKey, kind: 'operator', notBeforeMicros: null, notAfterMicros: null, revoked: false };
}

function withSignature(env: Envelope, publicKey: Uint8Array, bytes: Uint8Array): Envelope {
  return { ...env, signature: { scheme: 1, key_id: fromHex(keyId(publicKey))!, bytes } };
}

const verdict = (env: Envelope, keys: RegisteredKey[]) => verifyEnvelope(env, { keys, observed: null, logTimeMicros: null });

describe('Ed25519: non-canonical signatures and small-order keys are never valid', () => {
  const signed = signEnvelope(base, SEED7);
  const key = keyFor(SEED7, 'planner');
  const sig = signed.signature!.bytes;
  const R = sig.subarray(0, 32);
  const S = fromLe(sig.subarray(32));

  it('the untouched signature is valid (the baseline)', () => {
    expect(verdict(signed, [key]).status).toBe('valid');
  });

  it('S + L (the same scalar, not reduced) is invalid, under both rule sets', () => {
    const bytes = new Uint8Array([...R, ...le32(S + L)]);
    const env = { ...signed, signature: { ...signed.signature!, bytes } };
    expect(ed.verify(bytes, signingInput(env), key.publicKey, { zip215: true })).toBe(false);
    const v = verdict(env, [key]);
    expect(v.status).toBe('invalid');
    expect(v.trusted).toBe(false);
  });

  it('S = L, S = 2^256 - 1: invalid; never an exception', () => {
    for (const s of [L, 2n ** 256n - 1n]) {
      const env = { ...signed, signature: { ...signed.signature!, bytes: new Uint8Array([...R, ...le32(s)]) } };
      expect(verdict(env, [key]).status).toBe('invalid');
    }
  });

  it('small-order keys: the zero-S signature that ZIP 215 accepts for any message is invalid here', () => {
    for (const A of SMALL_ORDER) {
      for (const r of [SMALL_ORDER[0], A]) {
        const bytes = new Uint8Array([...r, ...new Uint8Array(32)]);
        const env = withSignature(base, A, bytes);
        // Permissive (cofactored) verification accepts it, whatever the message: the forgery.
        expect(ed.verify(bytes, signingInput(env), A, { zip215: true }), toHex(A)).toBe(true);
        expect(nobleVerify(bytes, signingInput(env), A)).toBe(false);
        const v = verdict(env, [rawKey(A)]);
        expect(v.status, toHex(A)).toBe('invalid');
        expect(v.trusted).toBe(false);
      }
    }
  });

  it('a non-canonical R (the identity as y = p + 1) with a small-order key: ZIP 215 accepts, ours is invalid', () => {
    const A = SMALL_ORDER[0];
    const bytes = new Uint8Array([...IDENTITY_NONCANONICAL, ...new Uint8Array(32)]);
    const env = withSignature(base, A, bytes);
    expect(ed.verify(bytes, signingInput(env), A, { zip215: true })).toBe(true);
    expect(verdict(env, [rawKey(A)]).status).toBe('invalid');
  });

  it('a non-canonical public key encoding (identity as y = p + 1) is invalid too', () => {
    const A = IDENTITY_NONCANONICAL;
    const bytes = new Uint8Array([...SMALL_ORDER[0], ...new Uint8Array(32)]);
    const env = withSignature(base, A, bytes);
    expect(ed.verify(bytes, signingInput(env), A, { zip215: true })).toBe(true);
    expect(verdict(env, [rawKey(A)]).status).toBe('invalid');
  });

  it('through the pipeline: the record is decoded and valid as an envelope, its signature invalid and untrusted', () => {
    const A = SMALL_ORDER[4];
    const env = withSignature(base, A, new Uint8Array(64));
    const r = inspect([{ name: 'small-order.bin', bytes: encodeEnvelope(env) }], { keys: [rawKey(A)] }).records[0].verdict;
    expect(r.decoded).toBe(true);
    expect(r.signature.status).toBe('invalid');
    expect(r.signature.trusted).toBe(false);
  });

  it('the key parser lists small-order and non-canonical Ed25519 keys as problems, not keys', () => {
    for (const A of [...SMALL_ORDER, IDENTITY_NONCANONICAL]) {
      const r = parseKeys(JSON.stringify({ keys: [{ agent: 'planner', public_key: toHex(A) }] }));
      expect(r.keys, toHex(A)).toEqual([]);
      expect(r.problems.join(' '), toHex(A)).toMatch(/small order|not a canonical|not a point/);
    }
    // A real key still parses.
    expect(parseKeys(toHex(key.publicKey), { agent: 'planner' }).keys).toHaveLength(1);
  });

  it('wrong lengths are malformed; an unregistered key id is unknown_key', () => {
    const short = { ...signed, signature: { ...signed.signature!, bytes: sig.subarray(0, 63) } };
    expect(verdict(short, [key]).status).toBe('malformed');
    expect(verdict(signed, []).status).toBe('unknown_key');
  });
});

// ---------------------------------------------------------------------------------------------

const SYN_DID = 'bafybmigztsri3zoyctqywt4p67wsa3jf4sdi64st2oqdojotqo56j4aqnq';
const message = '5e6c188d81c650d88310b0d8d549c320bf8e200c4feee89b405f59e9bc1f1978';

function der(r: bigint, s: bigint): string {
  const int = (n: bigint) => {
    let h = n.toString(16);
    if (h.length % 2) h = '0' + h;
    if (parseInt(h.slice(0, 2), 16) & 0x80) h = '00' + h;
    return `02${(h.length / 2).toString(16).padStart(2, '0')}${h}`;
  };
  const body = int(r) + int(s);
  return `30${(body.length / 2).toString(16).padStart(2, '0')}${body}`;
}

describe('ECDSA secp256k1: out-of-range scalars, bad keys and bad DER give verdicts', () => {
  it('r or s of 0, n, n + 1 or 2^256 - 1 is invalid, with the reason; never an exception', () => {
    const ok = 1n;
    for (const [r, s] of [
      [0n, ok],
      [ok, 0n],
      [CURVE_N, ok],
      [ok, CURVE_N],
      [CURVE_N + 1n, ok],
      [ok, 2n ** 256n - 1n],
      [0n, 0n],
    ]) {
      const c = checkSignatureText(SYN_DID, message, der(r, s));
      expect(c.status, `r=${r} s=${s}`).toBe('invalid');
      expect(c.reason).toMatch(/zero|not below the group order/);
      expect(c.recovered).toEqual([]);
    }
  });

  it('r = n - 1 and s = n - 1 (in range) verify to no key of the signer: invalid', () => {
    const c = checkSignatureText(SYN_DID, message, der(CURVE_N - 1n, CURVE_N - 1n));
    expect(c.status).toBe('invalid');
  });

  it('a DER with trailing bytes (after the SEQUENCE, or inside it after s) is malformed', () => {
    const good = der(5n, 7n);
    expect(checkSignatureText(SYN_DID, message, good + '00').status).toBe('malformed');
    const inner = `30${(parseInt(good.slice(2, 4), 16) + 1).toString(16).padStart(2, '0')}${good.slice(4)}00`;
    expect(checkSignatureText(SYN_DID, message, inner).status).toBe('malformed');
  });

  it('zero and identity-like keys in a key file: problems when parsed; ignored by the verifier (invalid, no throw)', () => {
    const zeros = [
      Uint8Array.of(2, ...new Uint8Array(32)),
      Uint8Array.of(3, ...new Uint8Array(32)),
      Uint8Array.of(4, ...new Uint8Array(64)),
      Uint8Array.of(4, ...new Uint8Array(64).fill(0xff)),
    ];
    for (const k of zeros) {
      const parsed = parseKeys(JSON.stringify({ keys: [{ agent: SYN_DID, public_key: toHex(k) }] }));
      expect(parsed.keys, toHex(k)).toEqual([]);
      expect(parsed.problems.join(' ')).toMatch(/not a point/);
      // A registry that holds one anyway (an older export, say): the verifier skips it.
      const c = checkSignatureBytes(SYN_DID, message, fromHex(der(5n, 7n))!, new Map([[SYN_DID, [k]]]));
      expect(['invalid', 'malformed']).toContain(c.status);
      expect(c.status).not.toBe('valid');
    }
  });

  it('through the pipeline: a workflow with an out-of-range signature is not valid, with agentdna/signature', () => {
    const doc = { type: 'intent_workflow', envelope: { from: SYN_DID, payload: 'x', epoch: 1, hash: 'h', signature: der(0n, 1n), parent_envelope: null } };
    const r = inspect([{ name: 'wf.json', bytes: new TextEncoder().encode(JSON.stringify(doc)) }], {
      keys: [
        {
          id: 'zero',
          agent: SYN_DID,
          algorithm: 'secp256k1',
          publicKey: Uint8Array.of(2, ...new Uint8Array(32)),
          kind: 'agent',
          notBeforeMicros: null,
          notAfterMicros: null,
          revoked: false,
        },
      ],
    });
    expect(r.records[0].verdict.decoded).toBe(true);
    expect(isValid(r.records[0].verdict)).toBe(false);
    expect(r.records[0].verdict.findings.map((f) => f.rule)).toContain('agentdna/signature');
    expect(r.workflows[0].envelopes[0].signature).toBe('invalid');
  });
});
