// Keys: parse what people paste or drop (hex, base64, JWK / JWKS, PEM SubjectPublicKeyInfo, the
// report.md key file), compute key ids, and write the key file back. Misuse throws a TypeError;
// bad data becomes a problem in the result, never an exception.
import * as ed from '@noble/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesEqual, fromBase64, fromHex, readUintLE, toHex, utf8OrNull } from '../bytes';

export type KeyKind = 'agent' | 'operator';
export type KeyAlgorithm = 'ed25519' | 'secp256k1';

export interface RegisteredKey {
  /** AGDX key id: the first 8 bytes of SHA-256 of the public key, as hex. */
  id: string;
  /** The agent (AGDX source, or an AgentDNA DID) the key belongs to; empty when not said. */
  agent: string;
  algorithm: KeyAlgorithm;
  publicKey: Uint8Array;
  kind: KeyKind;
  /** Validity window in epoch microseconds; null means unbounded. */
  notBeforeMicros: bigint | null;
  notAfterMicros: bigint | null;
  revoked: boolean;
}

export interface KeyParseResult {
  keys: RegisteredKey[];
  problems: string[];
}

export function keyId(publicKey: Uint8Array): string {
  if (!(publicKey instanceof Uint8Array)) throw new TypeError('publicKey must be a Uint8Array');
  return toHex(sha256(publicKey).subarray(0, 8));
}

// DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING }.
const ED25519_SPKI_PREFIX = fromHex('302a300506032b6570032100')!;

function algorithmFor(bytes: Uint8Array): KeyAlgorithm | null {
  if (bytes.length === 32) return 'ed25519';
  if ((bytes.length === 33 && (bytes[0] === 2 || bytes[0] === 3)) || (bytes.length === 65 && bytes[0] === 4)) return 'secp256k1';
  return null;
}

function bytesFrom(text: string): Uint8Array | null {
  const t = text.trim();
  return /^(0x)?[0-9a-fA-F]+$/.test(t) ? fromHex(t) : fromBase64(t);
}

const micros = (v: unknown): bigint | null => {
  if (v === undefined || v === null || v === 0 || v === '0') return null;
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v) === 0n ? null : BigInt(v);
  if (typeof v === 'bigint' && v > 0n) return v;
  throw new Error(`a window bound must be a non-negative integer of microseconds, found ${JSON.stringify(String(v))}`);
};

/**
 * Why these bytes cannot be a usable public key, or null. Ed25519: a canonical point encoding
 * (y < p) of large order, as strict verification (zip215: false) requires; under a small-order key
 * the permissive rules accept a zero-S signature for any message. secp256k1: a point on the curve.
 */
function pointProblem(publicKey: Uint8Array, algorithm: KeyAlgorithm): string | null {
  try {
    if (algorithm === 'secp256k1') {
      secp256k1.Point.fromBytes(publicKey);
      return null;
    }
    const y = readUintLE(publicKey, 0, 32) & ((1n << 255n) - 1n); // the top bit is x's sign
    if (y >= 2n ** 255n - 19n) return 'not a canonical Ed25519 point encoding (y is not below p)';
    if (ed.Point.fromBytes(publicKey, false).isSmallOrder()) return 'an Ed25519 point of small order: no signature under it means anything, strict verification refuses it';
    return null;
  } catch {
    return `not a point of ${algorithm === 'secp256k1' ? 'secp256k1' : 'Ed25519'}`;
  }
}

function makeKey(publicKey: Uint8Array, fields: { agent?: unknown; kind?: unknown; not_before_micros?: unknown; not_after_micros?: unknown; revoked?: unknown }): RegisteredKey {
  const algorithm = algorithmFor(publicKey);
  if (!algorithm) throw new Error(`a public key is 32 bytes (Ed25519) or 33/65 bytes (secp256k1), found ${publicKey.length}`);
  const problem = pointProblem(publicKey, algorithm);
  if (problem) throw new Error(`the public key ${toHex(publicKey).slice(0, 16)}… is ${problem}`);
  if (fields.agent !== undefined && typeof fields.agent !== 'string') throw new Error('agent must be a string');
  if (fields.kind !== undefined && fields.kind !== 'agent' && fields.kind !== 'operator') throw new Error(`kind must be "agent" or "operator", found ${JSON.stringify(fields.kind)}`);
  return {
    id: keyId(publicKey),
    agent: (fields.agent as string | undefined) ?? '',
    algorithm,
    publicKey,
    kind: (fields.kind as KeyKind | undefined) ?? 'agent',
    notBeforeMicros: micros(fields.not_before_micros),
    notAfterMicros: micros(fields.not_after_micros),
    revoked: fields.revoked === true,
  };
}

function fromJwk(jwk: Record<string, unknown>, defaults: { agent?: string; kind?: KeyKind }): RegisteredKey {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') throw new Error(`only OKP Ed25519 JWKs are supported, found kty ${JSON.stringify(jwk.kty)} crv ${JSON.stringify(jwk.crv)}`);
  if ('d' in jwk) throw new Error('this JWK holds a private key (d): add public keys only');
  const x = typeof jwk.x === 'string' ? fromBase64(jwk.x) : null;
  if (!x || x.length !== 32) throw new Error('the JWK x member is not 32 bytes of base64url');
  return makeKey(x, { agent: jwk.agent ?? defaults.agent, kind: jwk.kind ?? defaults.kind, revoked: jwk.revoked });
}

/**
 * The complete PEM blocks of a text, as [type, body]: each BEGIN with the first END of the same
 * type after it. Linear: the obvious regex (a lazy body and a back-reference to the type) scans to
 * the end of the text for every BEGIN without its END, which is quadratic on hostile key files.
 */
export function pemBlocks(text: string): [string, string][] {
  const ends = new Map<string, number[]>();
  const end = /-----END ([A-Z ]+)-----/g;
  for (let m = end.exec(text); m !== null; m = end.exec(text)) {
    const list = ends.get(m[1]) ?? [];
    list.push(m.index);
    ends.set(m[1], list);
    end.lastIndex = m.index + 1; // markers may overlap ("-----END A-----END B-----")
  }
  const next = new Map<string, number>(); // per type: index into its END list to search from
  const out: [string, string][] = [];
  const begin = /-----BEGIN ([A-Z ]+)-----/g;
  for (let m = begin.exec(text); m !== null; m = begin.exec(text)) {
    const type = m[1];
    const bodyStart = m.index + m[0].length;
    const list = ends.get(type) ?? [];
    let i = next.get(type) ?? 0;
    while (i < list.length && list[i] < bodyStart) i++;
    next.set(type, i);
    if (i === list.length) {
      begin.lastIndex = m.index + 1; // no END: look for the next BEGIN, as the regex would
      continue;
    }
    out.push([type, text.slice(bodyStart, list[i])]);
    begin.lastIndex = list[i] + `-----END ${type}-----`.length;
  }
  return out;
}

function fromPem(pem: string, defaults: { agent?: string; kind?: KeyKind }): RegisteredKey[] {
  const blocks = pemBlocks(pem);
  if (blocks.length === 0) throw new Error('no PEM block found');
  return blocks.map(([type, body]) => {
    if (type !== 'PUBLIC KEY') throw new Error(`a PEM ${type} block: only PUBLIC KEY is accepted`);
    const der = fromBase64(body);
    if (!der) throw new Error('the PEM body is not base64');
    if (der.length === 44 && bytesEqual(der.subarray(0, ED25519_SPKI_PREFIX.length), ED25519_SPKI_PREFIX)) return makeKey(der.slice(12), defaults);
    // A Rubix pubKey.pem holds the raw 65-byte secp256k1 point, not SPKI.
    if (der.length === 65 && der[0] === 4) return makeKey(der, defaults);
    throw new Error(`the PEM body is ${der.length} bytes: not an Ed25519 SubjectPublicKeyInfo (44 bytes) nor a raw secp256k1 point`);
  });
}

/**
 * Parses keys from text or bytes: a key file, a JWK or JWKS, PEM, or a bare hex/base64 public key
 * (which then needs `defaults.agent` to be trusted for anyone).
 */
export function parseKeys(input: string | Uint8Array, defaults: { agent?: string; kind?: KeyKind } = {}): KeyParseResult {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) throw new TypeError('keys must be given as text or bytes');
  const text = typeof input === 'string' ? input : utf8OrNull(input);
  if (text === null) {
    if (!algorithmFor(input as Uint8Array)) return { keys: [], problems: ['binary key input that is not a raw 32-, 33- or 65-byte public key'] };
    try {
      return { keys: [makeKey((input as Uint8Array).slice(), defaults)], problems: [] };
    } catch (e) {
      return { keys: [], problems: [`binary key input: ${(e as Error).message}`] };
    }
  }
  const problems: string[] = [];
  const keys: RegisteredKey[] = [];
  const attempt = (what: string, fn: () => RegisteredKey | RegisteredKey[]) => {
    try {
      const r = fn();
      keys.push(...(Array.isArray(r) ? r : [r]));
    } catch (e) {
      problems.push(`${what}: ${(e as Error).message}`);
    }
  };
  const t = text.trim();
  if (t.includes('-----BEGIN')) {
    attempt('PEM', () => fromPem(t, defaults));
    return { keys, problems };
  }
  if (t.startsWith('{') || t.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(t);
    } catch (e) {
      return { keys, problems: [`not valid JSON: ${(e as Error).message}`] };
    }
    const list: unknown[] = Array.isArray(json) ? json : json && typeof json === 'object' && Array.isArray((json as { keys?: unknown }).keys) ? (json as { keys: unknown[] }).keys : [json];
    list.forEach((entry, i) => {
      const where = `key ${i}`;
      if (!entry || typeof entry !== 'object') {
        problems.push(`${where}: not an object`);
        return;
      }
      const e = entry as Record<string, unknown>;
      if ('kty' in e) attempt(`${where} (JWK)`, () => fromJwk(e, defaults));
      else if (typeof e.public_key === 'string') {
        attempt(where, () => {
          const bytes = bytesFrom(e.public_key as string);
          if (!bytes) throw new Error('public_key is neither hex nor base64');
          return makeKey(bytes, { ...e, agent: e.agent ?? defaults.agent, kind: e.kind ?? defaults.kind });
        });
      } else problems.push(`${where}: neither a key file entry (public_key) nor a JWK (kty)`);
    });
    return { keys, problems };
  }
  // Split on newlines and commas, then trim: the regex /\s*[\n,]\s*/ backtracks quadratically on
  // a long run of spaces with no separator in it (200 KB took 16 s).
  for (const line of t.split(/[\n,]/).map((l) => l.trim()).filter(Boolean)) {
    attempt(`"${line.slice(0, 20)}${line.length > 20 ? '…' : ''}"`, () => {
      const bytes = bytesFrom(line);
      if (!bytes) throw new Error('neither hex nor base64');
      return makeKey(bytes, defaults);
    });
  }
  if (keys.length === 0 && problems.length === 0) problems.push('no key found');
  return { keys, problems };
}

/** The report.md key file for a list of keys. */
export function toKeyFile(keys: RegisteredKey[]): string {
  return JSON.stringify(
    {
      keys: keys.map((k) => ({
        agent: k.agent,
        public_key: toHex(k.publicKey),
        kind: k.kind,
        not_before_micros: k.notBeforeMicros === null ? 0 : Number(k.notBeforeMicros),
        not_after_micros: k.notAfterMicros === null ? 0 : Number(k.notAfterMicros),
        revoked: k.revoked,
      })),
    },
    null,
    2,
  );
}
