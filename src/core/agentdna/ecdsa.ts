// ECDSA over secp256k1 as AgentDNA's verifier (ECPy) sees it: the signature is lower-case hex of a
// DER SEQUENCE { INTEGER r, INTEGER s }, read as leniently as ECPy's decode_sig reads it, with
// everything strict DER would refuse listed as an issue; s is not normalised (high-S is valid);
// the value signed is used as-is (no hashing), its leftmost 256 bits.
import type { WeierstrassPoint } from '@noble/curves/abstract/weierstrass.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { readUintBE } from '../bytes';

/** The order n of secp256k1's group. */
export const CURVE_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export interface HexRead {
  bytes: Uint8Array | null;
  /** Why it is not hex, when bytes is null. */
  reason: string | null;
  /** Accepted by Python's bytes.fromhex but not the lower-case hex the format specifies. */
  issues: string[];
}

const PY_SPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

/** Each ASCII code's hex digit value, -1 for none (a table: this runs over every signature's text, three times per check). */
const HEX_VALUE = Int8Array.from({ length: 128 }, (_, c) =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x61 + 10 : c >= 0x41 && c <= 0x46 ? c - 0x41 + 10 : -1,
);

function hexDigit(c: number): number {
  return c < 128 ? HEX_VALUE[c] : -1;
}

const isUpperHex = (c: number) => c >= 0x41 && c <= 0x46;

/** Python's bytes.fromhex: pairs of hex digits, ASCII whitespace allowed between pairs. */
export function readHexLikePython(text: string): HexRead {
  const out = new Uint8Array(text.length >> 1);
  let length = 0;
  let upper = false;
  let space = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const hi = hexDigit(c);
    if (hi < 0) {
      if (PY_SPACE.has(c)) {
        space = true;
        i++;
        continue;
      }
      return { bytes: null, reason: `not hex: character ${JSON.stringify(text[i])} at position ${i}`, issues: [] };
    }
    if (i + 1 >= text.length) return { bytes: null, reason: `not hex: an odd number of digits (a lone digit at position ${i})`, issues: [] };
    const c2 = text.charCodeAt(i + 1);
    const lo = hexDigit(c2);
    if (lo < 0)
      return { bytes: null, reason: `not hex: character ${JSON.stringify(text[i + 1])} at position ${i + 1} (a hex pair may not be split)`, issues: [] };
    if (isUpperHex(c) || isUpperHex(c2)) upper = true;
    out[length++] = hi * 16 + lo;
    i += 2;
  }
  const issues: string[] = [];
  if (upper) issues.push('the hex has upper-case digits (AgentDNA writes lower case)');
  if (space) issues.push('the hex has whitespace between bytes (Python accepts it; AgentDNA never writes it)');
  return { bytes: length === out.length ? out : out.slice(0, length), reason: null, issues };
}

export type DerRead = { ok: true; r: bigint; s: bigint; issues: string[] } | { ok: false; reason: string; issues: string[] };

interface Tlv {
  tag: number;
  /** Content bytes [start, end) (may be cut short by the end of input: ECPy then silently truncates). */
  start: number;
  end: number;
  /** Offset just after this TLV as ECPy computes it. */
  next: number;
}

class DerFailure {
  constructor(readonly reason: string) {}
}

/**
 * ECPy's `_untlv` over b[pos, limit): tag, length (short form, or long form with 1–4 length bytes),
 * value. Long form checks the bytes are there; short form does not (Python slicing truncates).
 * Returns null where ECPy returns (None, ...); throws DerFailure where ECPy would raise.
 */
function untlv(b: Uint8Array, pos: number, limit: number, what: string, issues: string[]): Tlv | null {
  if (pos >= limit) throw new DerFailure(`${what}: no bytes left where a tag was expected (offset ${pos})`);
  const tag = b[pos];
  if (pos + 1 >= limit) throw new DerFailure(`${what}: the input ends after the tag (offset ${pos + 1})`);
  let len = b[pos + 1];
  let p = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n < 1 || n > 4) {
      return null; // ECPy: indefinite length or more than 4 length bytes is refused
    }
    if (p + n > limit) throw new DerFailure(`${what}: the input ends inside a ${n}-byte length (offset ${p})`);
    len = 0;
    for (let k = 0; k < n; k++) len = len * 256 + b[p + k];
    if (n > 1 && b[p] === 0) issues.push(`${what}: its long-form length has a leading zero byte (not minimal DER)`);
    else if (len < 0x80) issues.push(`${what}: its length ${len} is in long form where DER requires the short form`);
    p += n;
    if (limit - p < len) return null; // ECPy checks the long form against what is left
  }
  const end = Math.min(p + len, limit);
  if (p + len > limit)
    issues.push(`${what}: its length ${len} runs ${p + len - limit} byte(s) past the available bytes (ECPy truncates silently; DER refuses)`);
  return { tag, start: p, end, next: end };
}

function checkInteger(b: Uint8Array, t: Tlv, name: string, issues: string[]): void {
  const len = t.end - t.start;
  if (len === 0) {
    issues.push(`${name}: an empty INTEGER (DER requires at least one byte; ECPy reads it as 0)`);
    return;
  }
  if (b[t.start] & 0x80) issues.push(`${name}: its first byte has the sign bit set, so DER reads a negative INTEGER (ECPy reads it unsigned)`);
  if (len > 1 && b[t.start] === 0 && !(b[t.start + 1] & 0x80)) {
    issues.push(`${name}: a leading zero byte that is not needed (non-minimal INTEGER encoding)`);
  }
}

/**
 * Reads a DER ECDSA signature the way ECPy's decode_sig does (Python ECPy ≥ 1.2): it returns r and s
 * whenever ECPy would, and `ok: false` where ECPy returns None or raises. Never throws.
 */
export function readDerLenient(b: Uint8Array): DerRead {
  const issues: string[] = [];
  try {
    const outer = untlv(b, 0, b.length, 'the SEQUENCE', issues);
    if (outer === null)
      return { ok: false, reason: 'the SEQUENCE length is not one ECPy accepts (indefinite, over 4 length bytes, or longer than the input)', issues };
    if (outer.tag !== 0x30) return { ok: false, reason: `the first tag is 0x${outer.tag.toString(16).padStart(2, '0')}, not a SEQUENCE (0x30)`, issues };
    if (outer.next !== b.length) {
      return { ok: false, reason: `${b.length - outer.next} trailing byte(s) after the SEQUENCE (offset ${outer.next})`, issues };
    }
    const r = untlv(b, outer.start, outer.end, 'r', issues);
    if (r === null) return { ok: false, reason: 'r: a length ECPy does not accept (ECPy would raise here)', issues };
    const s = untlv(b, r.next, outer.end, 's', issues);
    if (s === null || s.tag !== 0x02 || r.tag !== 0x02) {
      const bad =
        r.tag !== 0x02
          ? `r has tag 0x${r.tag.toString(16).padStart(2, '0')}`
          : s === null
            ? 's: a length ECPy does not accept'
            : `s has tag 0x${s.tag.toString(16).padStart(2, '0')}`;
      return { ok: false, reason: `${bad}, where an INTEGER (0x02) is required`, issues };
    }
    if (s.next !== outer.end) return { ok: false, reason: `${outer.end - s.next} byte(s) inside the SEQUENCE after s (offset ${s.next})`, issues };
    checkInteger(b, r, 'r', issues);
    checkInteger(b, s, 's', issues);
    return { ok: true, r: readUintBE(b, r.start, r.end), s: readUintBE(b, s.start, s.end), issues };
  } catch (e) {
    if (e instanceof DerFailure) return { ok: false, reason: e.reason, issues };
    return { ok: false, reason: `unreadable: ${(e as Error)?.message ?? String(e)}`, issues };
  }
}

/** r and s both in [1, n-1], as ECPy requires before verifying (and noble before recovering). */
export function scalarsInRange(r: bigint, s: bigint): string | null {
  if (r === 0n) return 'r is zero';
  if (r >= CURVE_N) return 'r is not below the group order n';
  if (s === 0n) return 's is zero';
  if (s >= CURVE_N) return 's is not below the group order n';
  return null;
}

export interface Candidate {
  recovery: number;
  /** 65-byte uncompressed point 04‖X‖Y. */
  publicKey: Uint8Array;
}

/**
 * Every public key for which (r, s) is a valid signature of e (recovery ids 0–3; ids 2 and 3 exist
 * only when r + n is still a field element). e is used as-is: its leftmost 256 bits, mod n.
 */
export function recoverCandidates(r: bigint, s: bigint, e: Uint8Array): Candidate[] {
  if (scalarsInRange(r, s) !== null) return [];
  // Q = r⁻¹(s·R − h·G) for R = (x, ±y), x ∈ {r, r + n}. The two parities share u1·G and u2·R:
  // Q(even) = u1·G + u2·R, Q(odd) = u1·G − u2·R. Same results as noble's recoverPublicKey per id
  // (recovery & 1 = odd y, recovery & 2 = x is r + n), at about a third of the cost.
  const out: Candidate[] = [];
  const h = mod(bits2int(e), CURVE_N);
  const rInv = modInverse(r, CURVE_N);
  const u1 = mod(-h * rInv, CURVE_N);
  const u2 = mod(s * rInv, CURVE_N);
  // Everything here is public (a verification, not a signing): the variable-time multiplication is
  // safe, and several times faster than the constant-time one.
  const u1G = u1 === 0n ? secp256k1.Point.ZERO : secp256k1.Point.BASE.multiplyUnsafe(u1);
  for (const [x, high] of [
    [r, 0],
    [r + CURVE_N, 2],
  ] as const) {
    if (x >= CURVE_P) continue;
    let R: ReturnType<typeof secp256k1.Point.fromBytes>;
    try {
      R = secp256k1.Point.fromBytes(Uint8Array.from([0x02, ...bigintBytes32(x)]));
    } catch {
      continue; // x is not the abscissa of a curve point
    }
    const u2R = R.multiplyUnsafe(u2);
    for (const [q, odd] of [
      [u1G.add(u2R), 0],
      [u1G.subtract(u2R), 1],
    ] as const) {
      if (q.is0()) continue;
      out.push({ recovery: high | odd, publicKey: q.toBytes(false) });
    }
  }
  return out.sort((a, b) => a.recovery - b.recovery);
}

/**
 * The candidates for (r, s, e) when a key Q is already known to be the signer's (its DID was
 * derived from it): the same list recoverCandidates gives, from a plain ECDSA verification against
 * Q and one multiple of G, with no recovery. Worth it when Q carries a precomputed table
 * (`Q.precompute(W)`): R = (e/s)·G + (r/s)·Q is then two table multiplications where a recovery
 * multiplies the unknown point R. The verification's R gives Q's recovery id (its y parity), and
 * the other candidate is 2·u1·G − Q (the two share u1·G and u2·R). Null when Q is not a candidate
 * (the caller then recovers, to list what the signature does give) or when ids 2 and 3 could exist
 * (r + n is still a field element: only a crafted r is that small).
 */
export function candidatesWithKnownKey(r: bigint, s: bigint, e: Uint8Array, known: WeierstrassPoint<bigint>): Candidate[] | null {
  if (scalarsInRange(r, s) !== null || r + CURVE_N < CURVE_P || known.is0()) return null;
  const h = mod(bits2int(e), CURVE_N);
  const sInv = modInverse(s, CURVE_N);
  const a = mod(h * sInv, CURVE_N);
  const b = mod(r * sInv, CURVE_N);
  const R = secp256k1.Point.BASE.multiplyUnsafe(a).add(known.multiplyUnsafe(b));
  if (R.is0()) return null;
  const { x, y } = R.toAffine();
  if (x !== r) return null;
  const knownId = Number(y & 1n);
  const other = secp256k1.Point.BASE.multiplyUnsafe(twiceU1(r, e)).subtract(known);
  const out: Candidate[] = [{ recovery: knownId, publicKey: known.toBytes(false) }];
  if (!other.is0()) out.push({ recovery: 1 - knownId, publicKey: other.toBytes(false) });
  return out.sort((p, q) => p.recovery - q.recovery);
}

/**
 * 2·u1 for u1 = −e/r (mod n): a signature's two recovery candidates Q0 and Q1 share u1·G, so
 * Q1 = 2·u1·G − Q0, one multiple of G and an addition where a second recovery would multiply R.
 */
export function twiceU1(r: bigint, e: Uint8Array): bigint {
  return mod(-2n * mod(bits2int(e), CURVE_N) * modInverse(r, CURVE_N), CURVE_N);
}

/** The field prime p of secp256k1. */
export const CURVE_P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;

export function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

export function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [mod(a, m), m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return mod(oldS, m);
}

/** ECDSA's bits2int: the leftmost 256 bits of e as an integer (shorter inputs as they are). */
export function bits2int(e: Uint8Array): bigint {
  const n = readUintBE(e);
  const extra = e.length * 8 - 256;
  return extra > 0 ? n >> BigInt(extra) : n;
}

export function bigintBytes32(n: bigint): number[] {
  // Through one hex string: 32 BigInt shifts and masks cost more than the check they feed.
  const h = BigInt.asUintN(256, n).toString(16).padStart(64, '0');
  const out = new Array<number>(32);
  for (let i = 0; i < 32; i++) out[i] = (hexDigit(h.charCodeAt(2 * i)) << 4) | hexDigit(h.charCodeAt(2 * i + 1));
  return out;
}

/** Verifies (r, s) over e with a known key (33 or 65 bytes); high-S accepted, no prehash. Never throws. */
export function verifyWithKey(r: bigint, s: bigint, e: Uint8Array, publicKey: Uint8Array): boolean {
  if (scalarsInRange(r, s) !== null) return false;
  try {
    const compact = new secp256k1.Signature(r, s).toBytes('compact');
    return secp256k1.verify(compact, e, publicKey, { prehash: false, lowS: false, format: 'compact' });
  } catch {
    return false;
  }
}

/** A 33- or 65-byte SEC1 key as the 65-byte uncompressed point, or null when it is not a curve point. */
export function uncompressedKey(publicKey: Uint8Array): Uint8Array | null {
  if (publicKey.length !== 33 && publicKey.length !== 65) return null;
  try {
    return secp256k1.Point.fromBytes(publicKey).toBytes(false);
  } catch {
    return null;
  }
}

/** The 65-byte uncompressed public key of a 32-byte private key (for tests and tools). */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(privateKey, false);
}

export function bigintHex(n: bigint): string {
  return n.toString(16).padStart(64, '0');
}
