// libsecp256k1 (WebAssembly) against noble, which stays the reference: every AgentDNA vector read
// both ways gives the same records and workflows, and random signatures (valid, tampered, high-S,
// the other recovery id's key, small r with recovery ids 2 and 3, r off the curve, malformed DER)
// get the same check. Also the known-key path (a DID's proven key with a precomputed table) against
// a recovery, and the cache of proven keys: it never changes a verdict.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { fromHex, toHex, utf8Encode } from '../bytes';
import { inspectInput } from '../inspect';
import { recordViews } from '../records';
import { deriveDid, didOf, didOfPoint } from './did';
import { candidatesWithKnownKey, CURVE_N, CURVE_P, readDerLenient, recoverCandidates, type Candidate } from './ecdsa';
import {
  checkSignatureBytes,
  checkSignatureQuick,
  checkSignatureText,
  completeRecovered,
  isRecoveredPending,
  RECOVERY_PENDING,
  recoveredLater,
  resetSignatureCaches,
  secpImplementation,
  SIGNATURE_CACHE_LIMITS,
  signatureCacheSizes,
  installSecpWasm,
} from './signature';
import { secpWasmForTests } from '../../../test/support/secp';

const wasm = secpWasmForTests();
const hex = (h: string) => fromHex(h)!;
const listed = (cs: Candidate[] | null) => cs?.map((c) => `${c.recovery}:${toHex(c.publicKey)}`) ?? null;

/** Runs `fn` with noble alone, then with libsecp256k1, caches emptied before each. */
function both<T>(fn: () => T): { noble: T; libsecp: T } {
  resetSignatureCaches();
  installSecpWasm(null);
  const noble = fn();
  resetSignatureCaches();
  installSecpWasm(wasm);
  const libsecp = fn();
  installSecpWasm(null);
  return { noble, libsecp };
}

afterAll(() => installSecpWasm(null));

describe('libsecp256k1 (WebAssembly)', () => {
  it('loads from vendor/libsecp256k1-wasm and is used once installed', () => {
    installSecpWasm(wasm);
    expect(secpImplementation()).toBe('libsecp256k1-wasm');
    installSecpWasm(null);
    expect(secpImplementation()).toBe('noble');
  });
});

describe('every AgentDNA vector, read with noble and with libsecp256k1', () => {
  const dir = resolve(__dirname, '../../../vectors/agentdna');
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : f.endsWith('.json') ? [join(d, f)] : []));
  const vectors = files(dir);

  it('finds the vectors', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(12);
  });

  for (const file of vectors) {
    it(`${file.slice(dir.length + 1)}: the same records and workflows`, () => {
      const bytes = new Uint8Array(readFileSync(file));
      const { noble, libsecp } = both(() => {
        const r = inspectInput(0, { name: file, bytes }, undefined, true);
        return JSON.stringify({ records: r.records.map((rec) => ({ verdict: rec.verdict, views: recordViews(rec) })), workflows: r.workflows });
      });
      expect(libsecp).toBe(noble);
    });
  }

  it('the synthetic workflows really verify (the comparison above is over valid signatures too)', () => {
    const text = readFileSync(join(dir, 'synthetic/synthetic_valid_fanin_dag.serialized.json'));
    installSecpWasm(wasm);
    const r = inspectInput(0, { name: 'fanin', bytes: new Uint8Array(text) });
    installSecpWasm(null);
    expect(r.workflows[0].envelopes.length).toBeGreaterThan(2);
    expect(r.workflows[0].envelopes.every((e) => e.signature === 'valid' && e.did_match)).toBe(true);
  });

  it("the real vector and ECPy's self-test give the same candidates under both rules", () => {
    const real = JSON.parse(readFileSync(join(dir, 'real/rubix-sdk-py_fast_signature_verify_vector.json'), 'utf8'));
    const ecpy = JSON.parse(readFileSync(join(dir, 'upstream-fixtures/ecpy_secp256k1_selftest_vector.json'), 'utf8'));
    const cases: Array<[string, Uint8Array]> = [
      [real.signature_der_hex, sha256(utf8Encode(real.message_utf8))],
      [real.signature_der_hex, utf8Encode(real.message_utf8).slice(0, 32)],
      [ecpy.verify_ok_signature_der_hex, hex(ecpy["msg_hash_hex (sha256('abc'))"])],
    ];
    for (const [der, e] of cases) {
      const read = readDerLenient(hex(der));
      if (!read.ok) throw new Error('vector DER');
      const reference = listed(recoverCandidates(read.r, read.s, e));
      expect(reference!.length).toBe(2);
      expect(listed(wasm!.candidates(read.r, read.s, e))).toEqual(reference);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Random signatures
// ---------------------------------------------------------------------------------------------

const secretKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => {
  const n = BigInt(`0x${toHex(k)}`);
  return n > 0n && n < CURVE_N;
});
/** A signed message as AgentDNA has them: 64 lower-case hex characters. */
const message = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(toHex);
const scalar = fc.bigInt({ min: 1n, max: CURVE_N - 1n });

function intBytes(n: bigint): number[] {
  let h = n.toString(16);
  if (h.length % 2) h = `0${h}`;
  const b = [...hex(h)];
  return b[0] & 0x80 ? [0, ...b] : b;
}
function derOf(r: bigint, s: bigint): Uint8Array {
  const body = [0x02, ...lenAnd(intBytes(r)), 0x02, ...lenAnd(intBytes(s))];
  return Uint8Array.from([0x30, body.length, ...body]);
}
const lenAnd = (b: number[]) => [b.length, ...b];

type Variant =
  | { kind: 'valid' }
  | { kind: 'tampered'; other: string }
  | { kind: 'high-s flipped' }
  | { kind: 'other signer' }
  | { kind: 'small r'; r: bigint }
  | { kind: 'random r'; r: bigint }
  | { kind: 'random s'; s: bigint }
  | { kind: 'mutated DER'; at: number; byte: number }
  | { kind: 'cut DER'; length: number };

const variant: fc.Arbitrary<Variant> = fc.oneof(
  fc.constant({ kind: 'valid' as const }),
  message.map((other) => ({ kind: 'tampered' as const, other })),
  fc.constant({ kind: 'high-s flipped' as const }),
  fc.constant({ kind: 'other signer' as const }),
  // r + n below p: recovery ids 2 and 3 exist (noble decides those)
  fc.bigInt({ min: 1n, max: CURVE_P - CURVE_N - 1n }).map((r) => ({ kind: 'small r' as const, r })),
  scalar.map((r) => ({ kind: 'random r' as const, r })),
  scalar.map((s) => ({ kind: 'random s' as const, s })),
  fc.record({ at: fc.nat({ max: 71 }), byte: fc.nat({ max: 255 }) }).map((m) => ({ kind: 'mutated DER' as const, ...m })),
  fc.nat({ max: 71 }).map((length) => ({ kind: 'cut DER' as const, length })),
);

describe('random signatures: noble and libsecp256k1 give the same check', () => {
  beforeAll(() => resetSignatureCaches());

  it('valid, tampered, high-S, another signer, small r, random r or s, mutated or cut DER', () => {
    fc.assert(
      fc.property(secretKey, message, variant, (sk, msg, v) => {
        const did = didOf(secp256k1.getPublicKey(sk, false))!;
        const signed = secp256k1.Signature.fromBytes(secp256k1.sign(utf8Encode(msg).slice(0, 32), sk, { prehash: false, lowS: false }));
        let { r, s } = signed;
        let signer = did;
        let checked = msg;
        if (v.kind === 'tampered') checked = v.other;
        if (v.kind === 'high-s flipped') s = CURVE_N - s;
        if (v.kind === 'other signer') signer = didOf(secp256k1.getPublicKey(sha256(sk), false))!;
        if (v.kind === 'small r' || v.kind === 'random r') r = v.r;
        if (v.kind === 'random s') s = v.s;
        let der = derOf(r, s);
        if (v.kind === 'mutated DER') der = Uint8Array.from(der, (b, i) => (i === v.at % der.length ? v.byte : b));
        if (v.kind === 'cut DER') der = der.subarray(0, v.length % der.length);
        const { noble, libsecp } = both(() => checkSignatureBytes(signer, checked, der));
        expect(libsecp).toEqual(noble);
        if (v.kind === 'valid' || v.kind === 'high-s flipped') expect(noble.status).toBe('valid');
      }),
      { numRuns: 150 },
    );
  });

  it('the candidates themselves, for random (r, s, e) of any length', () => {
    fc.assert(
      fc.property(fc.oneof(scalar, fc.bigInt({ min: 1n, max: CURVE_P - CURVE_N - 1n })), scalar, fc.uint8Array({ minLength: 0, maxLength: 40 }), (r, s, e) => {
        const reference = listed(recoverCandidates(r, s, e));
        const fast = wasm!.candidates(r, s, e);
        // null: the module leaves this one to noble (short e, ids 2 and 3, r off the curve)
        if (fast !== null) expect(listed(fast)).toEqual(reference);
        if (e.length === 32 && r >= CURVE_P - CURVE_N && reference!.length === 2) expect(fast).not.toBeNull();
      }),
      { numRuns: 200 },
    );
  });
});

describe("libsecp256k1's scalar inverse (glue.c) at its edges", () => {
  // Recovery inverts r, verification s: scalars whose low limbs are zero, powers of two, and the
  // ends of the range take the inverse's rarer steps (a run of 64 zero bits, the longest loop).
  const edges = [
    1n,
    2n,
    3n,
    CURVE_N - 1n,
    CURVE_N - 2n,
    1n << 64n,
    1n << 128n,
    1n << 192n,
    1n << 255n,
    (1n << 64n) - 1n,
    (1n << 200n) + 1n,
    CURVE_N >> 1n,
    (CURVE_N >> 1n) + 1n,
  ];
  const e = sha256(utf8Encode('edges'));
  it('gives the candidates noble gives, for r and s each of them', () => {
    let compared = 0;
    for (const r of edges)
      for (const s of edges) {
        const fast = wasm!.candidates(r, s, e);
        if (fast === null) continue;
        expect(listed(fast), `r ${r}, s ${s}`).toEqual(listed(recoverCandidates(r, s, e)));
        compared++;
      }
    // Most small r are no curve point's x: enough pairs must still be compared.
    expect(compared).toBeGreaterThan(40);
  });
});

describe('the quick check (a plain verification against a proven key, libsecp256k1)', () => {
  const sk = sha256(utf8Encode('a quick agent'));
  const did = didOf(secp256k1.getPublicKey(sk, false))!;
  const sign = (e: Uint8Array, key = sk, lowS = false) => toHex(secp256k1.sign(e, key, { prehash: false, lowS, format: 'der' }));

  it('decides as the full check does (truncation and sha256 rules, high and low S, hex issues), its list completed later', () => {
    installSecpWasm(wasm);
    resetSignatureCaches();
    const first = toHex(sha256(utf8Encode('first')));
    // Nothing is proven yet: no quick answer; the full check proves the key.
    expect(checkSignatureQuick(did, first, sign(utf8Encode(first).slice(0, 32)))).toBeNull();
    expect(checkSignatureText(did, first, sign(utf8Encode(first).slice(0, 32))).status).toBe('valid');
    fc.assert(
      fc.property(message, fc.boolean(), fc.boolean(), fc.boolean(), (msg, sha, lowS, upper) => {
        const e = sha ? sha256(utf8Encode(msg)) : utf8Encode(msg).slice(0, 32);
        let sig = sign(e, sk, lowS);
        if (upper) sig = sig.toUpperCase();
        const quick = checkSignatureQuick(did, msg, sig)!;
        const full = checkSignatureText(did, msg, sig);
        expect(quick).not.toBeNull();
        expect({ ...quick, recovered: null }).toEqual({ ...full, recovered: null });
        expect(quick.recovered).toEqual([
          { rule: full.rule, recovery: RECOVERY_PENDING, public_key: toHex(secp256k1.getPublicKey(sk, false)), did, matches: true },
        ]);
        recoveredLater(quick, did, msg, sig);
        expect(isRecoveredPending(quick.recovered)).toBe(true);
        const completed = completeRecovered(quick.recovered);
        expect({ ...quick, recovered: completed }).toEqual(full);
        expect(isRecoveredPending(completed)).toBe(false);
        // A new list: the quick check's stays as it was (and pending).
        expect(quick.recovered).toHaveLength(1);
        expect(isRecoveredPending(quick.recovered)).toBe(true);
        expect(completeRecovered(completed)).toBe(completed);
      }),
      { numRuns: 40 },
    );
    installSecpWasm(null);
  });

  it('gives no answer where the full check must list what the signature gives: tampered, another key, an unproven DID, bad DER, no libsecp256k1', () => {
    installSecpWasm(wasm);
    resetSignatureCaches();
    const msg = toHex(sha256(utf8Encode('m')));
    const e = utf8Encode(msg).slice(0, 32);
    checkSignatureText(did, msg, sign(e));
    expect(checkSignatureQuick(did, msg, sign(e))).not.toBeNull();
    expect(checkSignatureQuick(did, toHex(sha256(utf8Encode('other'))), sign(e))).toBeNull();
    expect(checkSignatureQuick(did, msg, sign(e, sha256(sk)))).toBeNull();
    expect(checkSignatureQuick(didOf(secp256k1.getPublicKey(sha256(sk), false))!, msg, sign(e, sha256(sk)))).toBeNull();
    expect(checkSignatureQuick(did, msg, 'zz')).toBeNull();
    expect(checkSignatureQuick(did, msg, sign(e).slice(0, 20))).toBeNull();
    installSecpWasm(null);
    expect(checkSignatureQuick(did, msg, sign(e))).toBeNull();
  });
});

describe('didOfPoint (the DID of a recovered key)', () => {
  it('is deriveDid for any key', () => {
    fc.assert(
      fc.property(secretKey, (sk) => {
        const key = secp256k1.getPublicKey(sk, false);
        expect(didOfPoint(key)).toBe(deriveDid(key)!.did);
      }),
      { numRuns: 100 },
    );
  });
  it('refuses anything but a 65-byte uncompressed key (misuse)', () => {
    expect(() => didOfPoint(new Uint8Array(33))).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------------------------------------
// The known-key path and the proven-key cache (noble)
// ---------------------------------------------------------------------------------------------

describe('candidates with a known key (a table for a proven key)', () => {
  it("gives recoverCandidates' list when the key is a candidate, and null when it is not", () => {
    fc.assert(
      fc.property(secretKey, message, fc.boolean(), fc.boolean(), (sk, msg, highS, wrongKey) => {
        const e = utf8Encode(msg).slice(0, 32);
        const sig = secp256k1.Signature.fromBytes(secp256k1.sign(e, sk, { prehash: false, lowS: false }));
        const s = highS ? CURVE_N - sig.s : sig.s;
        const key = wrongKey ? secp256k1.getPublicKey(sha256(sk), false) : secp256k1.getPublicKey(sk, false);
        const table = secp256k1.Point.fromBytes(key).precompute(4, false);
        const reference = recoverCandidates(sig.r, s, e);
        const known = candidatesWithKnownKey(sig.r, s, e, table);
        if (wrongKey) expect(known).toBeNull();
        else expect(listed(known)).toEqual(listed(reference));
        // The other candidate as the known key gives the same list too.
        if (!wrongKey) {
          const other = reference.find((c) => toHex(c.publicKey) !== toHex(key))!;
          expect(listed(candidatesWithKnownKey(sig.r, s, e, secp256k1.Point.fromBytes(other.publicKey)))).toEqual(listed(reference));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('leaves a small r (recovery ids 2 and 3) and out-of-range scalars to a recovery', () => {
    const point = secp256k1.Point.BASE.multiply(7n);
    expect(candidatesWithKnownKey(5n, 9n, new Uint8Array(32), point)).toBeNull();
    expect(candidatesWithKnownKey(0n, 9n, new Uint8Array(32), point)).toBeNull();
    expect(candidatesWithKnownKey(CURVE_N, 9n, new Uint8Array(32), point)).toBeNull();
  });
});

describe('the proven-key cache (noble)', () => {
  const sk = sha256(utf8Encode('a busy agent'));
  const did = didOf(secp256k1.getPublicKey(sk, false))!;
  const signed = (i: number) => {
    const msg = toHex(sha256(utf8Encode(`step ${i}`)));
    return { msg, der: secp256k1.sign(utf8Encode(msg).slice(0, 32), sk, { prehash: false, lowS: false, format: 'der' }) };
  };

  it('a DID that signs often gets a table, and every check equals a fresh one (valid, tampered, another DID)', () => {
    installSecpWasm(null);
    resetSignatureCaches();
    const checks = Array.from({ length: 40 }, (_, i) => {
      const { msg, der } = signed(i);
      return checkSignatureBytes(did, msg, der);
    });
    expect(signatureCacheSizes().tables).toBe(1);
    // With the table in place: a tampered message, a signature of another key for this DID, and a valid one.
    const { msg, der } = signed(100);
    const other = secp256k1.sign(utf8Encode(msg).slice(0, 32), sha256(sk), { prehash: false, lowS: false, format: 'der' });
    const later = [
      [did, msg, der],
      [did, signed(101).msg, der],
      [did, msg, other],
      [didOf(secp256k1.getPublicKey(sha256(sk), false))!, msg, der],
    ] as const;
    const cached = later.map(([d, m, s]) => checkSignatureBytes(d, m, s));
    expect(cached.map((c) => c.status)).toEqual(['valid', 'invalid', 'invalid', 'invalid']);
    const fresh = [...Array.from({ length: 40 }, (_, i) => [did, signed(i).msg, signed(i).der] as const), ...later].map(([d, m, s]) => {
      resetSignatureCaches();
      return checkSignatureBytes(d, m, s);
    });
    expect([...checks, ...cached]).toEqual(fresh);
  });

  it('keeps at most SIGNATURE_CACHE_LIMITS.tables tables (never traded for others: no rebuilding), and forgets everything when reset', () => {
    installSecpWasm(null);
    resetSignatureCaches();
    const { tables, tableAfter } = SIGNATURE_CACHE_LIMITS;
    for (let k = 0; k <= tables; k++) {
      const key = sha256(utf8Encode(`agent ${k}`));
      const d = didOf(secp256k1.getPublicKey(key, false))!;
      for (let i = 0; i <= tableAfter; i++) {
        const msg = toHex(sha256(utf8Encode(`${k} ${i}`)));
        expect(checkSignatureBytes(d, msg, secp256k1.sign(utf8Encode(msg).slice(0, 32), key, { prehash: false, lowS: false, format: 'der' })).status).toBe(
          'valid',
        );
      }
    }
    expect(signatureCacheSizes()).toEqual({ provenKeys: tables + 1, tables });
    resetSignatureCaches();
    expect(signatureCacheSizes()).toEqual({ provenKeys: 0, tables: 0 });
  });
});
