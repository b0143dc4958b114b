// ECDSA, DER and DID derivation against the vectors: the real Rubix test vector, the synthetic
// keys, ECPy's own self-test, DER edge cases and random bytes.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { fromHex, toHex, utf8Encode } from '../bytes';
import { cardIdOf, deriveDid, looksLikeRubixDid, pubKeyPem } from './did';
import { bigintBytes32, CURVE_N, publicKeyOf, readDerLenient, readHexLikePython, recoverCandidates, verifyWithKey } from './ecdsa';
import { signedBytes } from './hash';
import { checkSignatureBytes, checkSignatureText } from './signature';

const VECTORS = new URL('../../../vectors/agentdna/', import.meta.url);
const json = (rel: string) => JSON.parse(readFileSync(new URL(rel, VECTORS), 'utf8'));
const hex = (h: string) => {
  const b = fromHex(h);
  if (!b) throw new Error(`bad hex ${h}`);
  return b;
};

const real = json('real/rubix-sdk-py_fast_signature_verify_vector.json');
const keys = json('synthetic/synthetic_keys.json') as Record<
  string,
  { private_key_hex: string; public_key_uncompressed_hex: string; public_key_pem_go: string; did: string }
>;
const traces = json('synthetic/synthetic_traces.json') as Record<string, Record<string, string | null>>;
const ecpy = json('upstream-fixtures/ecpy_secp256k1_selftest_vector.json');

const PEM_KEY = 'derived_pubKey_pem_as_written_by_rubix_node (Go pem.EncodeToMemory)';
const LEAF_KEY = 'derived_raw_leaf_cid (CIDv1 raw, sha3-256 of pubKey.pem)';
const E_KEY = 'ecdsa_e_hex (leftmost 32 bytes of ascii message)';

describe('the real vector (rubix-sdk-py test_fast_signature_verify)', () => {
  const der = hex(real.signature_der_hex);
  const message: string = real.message_utf8;

  it('a key recovered from (r, s, sha256(message)) derives the test DID, through the same PEM and leaf CID', () => {
    const read = readDerLenient(der);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.issues).toEqual([]);
    const e = sha256(utf8Encode(message));
    expect(toHex(e)).toBe(real["signed_bytes_hex (sha256(message), passed as 'message' to fast_signature_verify)"]);
    const derived = recoverCandidates(read.r, read.s, e).map((c) => deriveDid(c.publicKey)!);
    const match = derived.find((d) => d.did === real.signer_did);
    expect(match).toBeDefined();
    expect(toHex(match!.publicKey)).toBe(real.derived_public_key_uncompressed_hex);
    expect(match!.pem).toBe(real[PEM_KEY]);
    expect(match!.leafCid).toBe(real[LEAF_KEY]);
    expect(match!.did).toBe(real.did_recomputed);
    expect(looksLikeRubixDid(real.signer_did)).toBe(true);
  });

  it('verifies offline for its DID: the truncation rule fails, the sha256 rule holds', () => {
    const check = checkSignatureBytes(real.signer_did, message, der);
    expect(check.status).toBe('valid');
    expect(check.rule).toBe('sha256');
    expect(check.did_match).toBe(true);
    expect(check.key_source).toBe('did');
    expect(check.signed_bytes_hex).toBe(toHex(sha256(utf8Encode(message))));
    const truncated = check.recovered.filter((k) => k.rule === 'truncate');
    expect(truncated.length).toBeGreaterThan(0);
    expect(truncated.some((k) => k.matches)).toBe(false);
    expect(check.recovered.find((k) => k.matches)!.public_key).toBe(real.derived_public_key_uncompressed_hex);
  });

  it('the negative case of the same test is invalid', () => {
    const check = checkSignatureBytes(real.signer_did, real.negative_case.message_utf8, der);
    expect(check.status).toBe('invalid');
    expect(check.did_match).toBe(false);
    expect(real.negative_case.expected_valid).toBe(false);
  });

  it('a key file can bind the key to a DID made another way', () => {
    const other = 'did:example:older-account';
    const without = checkSignatureBytes(other, message, der);
    expect(without.status).toBe('invalid');
    const withKey = checkSignatureBytes(other, message, der, new Map([[other, [hex(real.derived_public_key_uncompressed_hex)]]]));
    expect(withKey.status).toBe('valid');
    expect(withKey.key_source).toBe('key-file');
    // a compressed (33-byte) key works too
    const compressed = secp256k1.Point.fromBytes(hex(real.derived_public_key_uncompressed_hex)).toBytes(true);
    expect(checkSignatureBytes(other, message, der, new Map([[other, [compressed]]])).status).toBe('valid');
  });
});

describe('synthetic keys (synthetic_keys.json)', () => {
  for (const [name, k] of Object.entries(keys)) {
    it(`${name}: the private key's public key derives its DID, and its PEM matches public_key_pem_go byte for byte`, () => {
      const pub = publicKeyOf(hex(k.private_key_hex));
      expect(toHex(pub)).toBe(k.public_key_uncompressed_hex);
      expect(pubKeyPem(pub)).toBe(k.public_key_pem_go);
      expect(utf8Encode(pubKeyPem(pub))).toEqual(utf8Encode(k.public_key_pem_go));
      expect(deriveDid(pub)!.did).toBe(k.did);
      // from the compressed form too
      expect(deriveDid(secp256k1.Point.fromBytes(pub).toBytes(true))!.did).toBe(k.did);
    });
  }

  it('every traced signature recovers the traced public key, under the truncation rule', () => {
    for (const [step, t] of Object.entries(traces)) {
      const read = readDerLenient(hex(t.signature_der_hex!));
      expect(read.ok, step).toBe(true);
      if (!read.ok) continue;
      const keysFound = recoverCandidates(read.r, read.s, hex(t[E_KEY]!)).map((c) => toHex(c.publicKey));
      expect(keysFound, step).toContain(t.signer_pubkey_uncompressed_hex);
      expect(verifyWithKey(read.r, read.s, hex(t[E_KEY]!), hex(t.signer_pubkey_uncompressed_hex!)), step).toBe(true);
    }
  });

  it("recoverCandidates gives exactly noble's recoverPublicKey for each recovery id (ids 2 and 3 with a small r; long and short e)", () => {
    const t = traces['root(user)'];
    const read = readDerLenient(hex(t.signature_der_hex!));
    if (!read.ok) throw new Error('parse');
    const reference = (r: bigint, s: bigint, e: Uint8Array) => {
      const sig = new secp256k1.Signature(r, s);
      const out: string[] = [];
      for (let id = 0; id < 4; id++) {
        try {
          out.push(`${id}:${toHex(sig.addRecoveryBit(id).recoverPublicKey(e).toBytes(false))}`);
        } catch {
          // no key for this id
        }
      }
      return out;
    };
    const mine = (r: bigint, s: bigint, e: Uint8Array) => recoverCandidates(r, s, e).map((c) => `${c.recovery}:${toHex(c.publicKey)}`);
    const es = [hex(t[E_KEY]!), new Uint8Array(40).fill(0xab), Uint8Array.of(1, 2, 3), new Uint8Array(32)];
    for (const e of es) expect(mine(read.r, read.s, e)).toEqual(reference(read.r, read.s, e));
    let withHighIds = 0;
    for (let r = 1n; r < 12n; r++) {
      const ref = reference(r, read.s, es[0]);
      if (ref.some((x) => x.startsWith('2:') || x.startsWith('3:'))) withHighIds++;
      expect(mine(r, read.s, es[0])).toEqual(ref);
    }
    expect(withHighIds).toBeGreaterThan(0);
  });

  it('card ids are CIDv0 of sha256 of the string', () => {
    const id = cardIdOf(keys['agentdna-test-user'].did);
    expect(id).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
  });
});

describe("ECPy's secp256k1 self-test vector", () => {
  const pub = hex('04' + ecpy.public_key_x_hex + ecpy.public_key_y_hex);
  const msg = hex(ecpy["msg_hash_hex (sha256('abc'))"]);
  it('the private key gives the public key', () => {
    expect(toHex(publicKeyOf(hex(ecpy.private_key_hex)))).toBe(toHex(pub));
  });
  it('verify_ok signature verifies (high-S accepted, no prehash)', () => {
    const read = readDerLenient(hex(ecpy.verify_ok_signature_der_hex));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.s > CURVE_N / 2n).toBe(true);
    expect(verifyWithKey(read.r, read.s, msg, pub)).toBe(true);
    expect(recoverCandidates(read.r, read.s, msg).map((c) => toHex(c.publicKey))).toContain(toHex(pub));
  });
  it('the sign_k / RFC 6979 signature verifies and is what noble signs deterministically', () => {
    const expected = ecpy['expected_sign_k_signature_der_hex (also equals sign_rfc6979 with sha256)'];
    const read = readDerLenient(hex(expected));
    expect(read.ok && verifyWithKey(read.r, read.s, msg, pub)).toBe(true);
    const sig = secp256k1.sign(msg, hex(ecpy.private_key_hex), { prehash: false, lowS: false, format: 'der' });
    expect(toHex(sig)).toBe(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// DER edge cases
// ---------------------------------------------------------------------------------------------

/** DER of two INTEGER contents given as raw bytes (no normalisation: tests control every byte). */
function derOf(r: Uint8Array, s: Uint8Array): Uint8Array {
  const body = [0x02, r.length, ...r, 0x02, s.length, ...s];
  return Uint8Array.from([0x30, body.length, ...body]);
}
function intBytes(n: bigint): Uint8Array {
  let h = n.toString(16);
  if (h.length % 2) h = '0' + h;
  const b = hex(h);
  return b[0] & 0x80 ? Uint8Array.from([0, ...b]) : b;
}

describe('DER as ECPy reads it', () => {
  const root = traces['root(user)'];
  const did = root.signer_did!;
  const msg = root.signed_message_ascii_hex!;
  const good = hex(root.signature_der_hex!);
  const parsed = readDerLenient(good);
  if (!parsed.ok) throw new Error('root signature should parse');

  it('the untouched high-S signature is valid with no issues', () => {
    const c = checkSignatureBytes(did, msg, good);
    expect(c.status).toBe('valid');
    expect(c.rule).toBe('truncate');
    expect(c.high_s).toBe(true);
    expect(c.der_issues).toEqual([]);
  });

  it('r or s zero, or not below n, is invalid (never a throw)', () => {
    const cases: Array<[bigint, bigint]> = [
      [0n, parsed.s],
      [parsed.r, 0n],
      [CURVE_N, parsed.s],
      [parsed.r, CURVE_N],
      [CURVE_N + 5n, parsed.s],
      [parsed.r, (1n << 256n) - 1n],
    ];
    for (const [r, s] of cases) {
      const der = derOf(r === 0n ? Uint8Array.of(0) : intBytes(r), s === 0n ? Uint8Array.of(0) : intBytes(s));
      const c = checkSignatureBytes(did, msg, der);
      expect(c.status, `${r} ${s}`).toBe('invalid');
      expect(c.reason).toMatch(/zero|below the group order/);
    }
    expect(recoverCandidates(0n, 1n, new Uint8Array(32))).toEqual([]);
    expect(verifyWithKey(CURVE_N, 1n, new Uint8Array(32), hex(root.signer_pubkey_uncompressed_hex!))).toBe(false);
  });

  it('trailing bytes after the SEQUENCE are malformed (ECPy refuses them)', () => {
    const c = checkSignatureBytes(did, msg, Uint8Array.from([...good, 0x00]));
    expect(c.status).toBe('malformed');
    expect(c.reason).toMatch(/trailing/);
  });

  it('bytes inside the SEQUENCE after s are malformed', () => {
    const body = [0x02, ...lenAndBytes(intBytes(parsed.r)), 0x02, ...lenAndBytes(intBytes(parsed.s)), 0x05, 0x00];
    const c = checkSignatureBytes(did, msg, Uint8Array.from([0x30, body.length, ...body]));
    expect(c.status).toBe('malformed');
  });

  it('a non-minimal length (long form for a short length) is accepted, and flagged', () => {
    const nonMinimal = Uint8Array.from([0x30, 0x81, good[1], ...good.subarray(2)]);
    const c = checkSignatureBytes(did, msg, nonMinimal);
    expect(c.status).toBe('valid');
    expect(c.der_issues.join(' ')).toMatch(/long form/);
  });

  it('a non-minimal INTEGER (an unneeded leading zero) is accepted, and flagged', () => {
    const r = Uint8Array.from([0, 0, ...intBytes(parsed.r)]);
    const c = checkSignatureBytes(did, msg, derOf(r, intBytes(parsed.s)));
    expect(c.status).toBe('valid');
    expect(c.der_issues.join(' ')).toMatch(/leading zero/);
  });

  it('an INTEGER with the sign bit set (no 00 pad) is read unsigned, like ECPy, and flagged', () => {
    const s = intBytes(parsed.s);
    expect(s[0]).toBe(0); // high-S: DER pads it
    const c = checkSignatureBytes(did, msg, derOf(intBytes(parsed.r), s.subarray(1)));
    expect(c.status).toBe('valid');
    expect(c.der_issues.join(' ')).toMatch(/sign bit/);
  });

  it('a short-form length running past the end is truncated like Python slicing, and flagged', () => {
    const longer = Uint8Array.from([0x30, good[1] + 4, ...good.subarray(2)]);
    const c = checkSignatureBytes(did, msg, longer);
    expect(c.status).toBe('valid');
    expect(c.der_issues.join(' ')).toMatch(/past the available bytes/);
  });

  it('indefinite length, wrong tags, empty and cut-short input are malformed', () => {
    for (const bad of [
      Uint8Array.from([0x30, 0x80, ...good.subarray(2)]),
      Uint8Array.from([0x31, ...good.subarray(1)]),
      Uint8Array.from([0x30, good[1], 0x03, ...good.subarray(3)]),
      new Uint8Array(0),
      Uint8Array.of(0x30),
      Uint8Array.of(0x30, 0x00),
      good.subarray(0, 10),
      Uint8Array.of(0x30, 0x84, 0xff, 0xff, 0xff, 0xff),
    ]) {
      const c = checkSignatureBytes(did, msg, bad);
      expect(c.status, toHex(bad)).toBe('malformed');
    }
  });

  it('hex: upper case and whitespace are accepted like bytes.fromhex, and flagged; odd length or a split pair is malformed', () => {
    const upper = checkSignatureText(did, msg, root.signature_der_hex!.toUpperCase());
    expect(upper.status).toBe('valid');
    expect(upper.der_issues.join(' ')).toMatch(/upper-case/);
    const spaced = checkSignatureText(did, msg, root.signature_der_hex!.replace(/(..)/g, '$1 '));
    expect(spaced.status).toBe('valid');
    expect(readHexLikePython('ab c').bytes).toBeNull();
    expect(checkSignatureText(did, msg, root.signature_der_hex!.slice(1)).status).toBe('malformed');
    expect(checkSignatureText(did, msg, 'sig1').status).toBe('malformed');
    expect(checkSignatureText(did, msg, '').status).toBe('unsigned');
    expect(checkSignatureText(did, msg, undefined).status).toBe('unsigned');
    expect(checkSignatureText(did, msg, 42).status).toBe('malformed');
  });

  it('never throws for random bytes or random text as a signature', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 90 }), (bytes) => {
        const c = checkSignatureBytes(did, msg, bytes);
        expect(['valid', 'invalid', 'malformed']).toContain(c.status);
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 160 }), fc.option(fc.string(), { nil: null }), (sig, m) => {
        const c = checkSignatureText(did, m, sig);
        expect(['valid', 'invalid', 'malformed', 'unsigned']).toContain(c.status);
      }),
      { numRuns: 300 },
    );
    // DER-shaped random bytes: a SEQUENCE of two INTEGERs with random contents
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), fc.uint8Array({ minLength: 0, maxLength: 40 }), (r, s) => {
        const c = checkSignatureBytes(did, msg, derOf(r, s));
        expect(['valid', 'invalid', 'malformed']).toContain(c.status);
      }),
      { numRuns: 120 },
    );
  });
});

function lenAndBytes(b: Uint8Array): number[] {
  return [b.length, ...b];
}

describe('the fast forms of the per-signature steps give what the plain ones give', () => {
  it("signedBytes' truncation rule is the first 32 bytes of the whole message's UTF-8, surrogates (paired or lone) at any place", () => {
    const units = fc.oneof(fc.constantFrom('a', 'é', '✓', '\u{1F600}', '\ud800', '\udc00', '0'), fc.string({ maxLength: 2 }));
    fc.assert(
      fc.property(fc.array(units, { maxLength: 40 }), (parts) => {
        const m = parts.join('');
        expect(signedBytes(m, 'truncate')).toEqual(utf8Encode(m).slice(0, 32));
      }),
      { numRuns: 500 },
    );
    // Hex messages (the copy without an encoder), and ASCII runs with a wider unit near the 32nd byte.
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 0, maxLength: 70 }),
        fc.array(units, { maxLength: 4 }),
        (ascii, tail) => {
          const m = ascii + tail.join('');
          expect(signedBytes(m, 'truncate')).toEqual(utf8Encode(m).slice(0, 32));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('bigintBytes32 is the low 256 bits, big-endian, for any integer (negative and wider ones too)', () => {
    const plain = (n: bigint) => {
      const out = new Array<number>(32);
      for (let i = 31; i >= 0; i--) {
        out[i] = Number(n & 0xffn);
        n >>= 8n;
      }
      return out;
    };
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 300n), max: 1n << 300n }), (n) => {
        expect(bigintBytes32(n)).toEqual(plain(n));
      }),
      { numRuns: 500 },
    );
  });

  it('readHexLikePython gives exactly the bytes of its pairs, for hex with whitespace and cases mixed', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.boolean(), (bytes, spaced) => {
        const text = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(spaced ? ' ' : '');
        const read = readHexLikePython(text);
        expect(read.bytes).toEqual(bytes);
        expect(read.bytes!.buffer.byteLength).toBe(bytes.length);
      }),
      { numRuns: 300 },
    );
  });

  it('readHexLikePython reads any text as bytes.fromhex does: pairs, whitespace between them, the rest refused; its issues as the text has them', () => {
    const WHITESPACE = ' \t\n\v\f\r';
    const fromHex = (text: string): Uint8Array | null => {
      const out: number[] = [];
      for (let i = 0; i < text.length; ) {
        if (WHITESPACE.includes(text[i])) {
          i++;
          continue;
        }
        if (!/^[0-9a-fA-F]{2}$/.test(text.slice(i, i + 2))) return null;
        out.push(Number.parseInt(text.slice(i, i + 2), 16));
        i += 2;
      }
      return Uint8Array.from(out);
    };
    const unit = fc.constantFrom(...'0123456789abcdefABCDEF \t\n\r\v\fgxZ\u00e9\u0660');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 24 }), (text) => {
        const read = readHexLikePython(text);
        const want = fromHex(text);
        expect(read.bytes).toEqual(want);
        expect(read.reason === null).toBe(want !== null);
        if (want !== null) {
          expect(read.issues.some((i) => /upper-case/.test(i))).toBe(/[A-F]/.test(text));
          expect(read.issues.some((i) => /whitespace/.test(i))).toBe(/[ \t\n\v\f\r]/.test(text));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
