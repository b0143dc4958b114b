// The key registry: parse what people paste or drop (hex, base64, JWK / JWKS, PEM
// SubjectPublicKeyInfo, a bare DID, the report.md key file with its key and DID entries), compute key
// ids, and write the key file back. Misuse throws a TypeError; bad data becomes a problem in the
// result, never an exception.
import * as ed from '@noble/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesEqual, fromBase64, fromHex, readUintLE, toHex, utf8OrNull } from '../bytes';
import { looksLikeRubixDid } from '../agentdna/did-shape';

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

/**
 * An AgentDNA identity registered by its DID (report.md "Key files"): no public key, the DID commits
 * to one, and a key recovered from a signature must derive it.
 */
export interface RegisteredDid {
  did: string;
  /** The name the person gave this identity; empty when not said. */
  agent: string;
  kind: KeyKind;
  notBeforeMicros: bigint | null;
  notAfterMicros: bigint | null;
  revoked: boolean;
}

/** One entry of the reader's registry: a public key, or an AgentDNA DID. */
export type RegistryEntry = RegisteredKey | RegisteredDid;

export function isDidEntry(e: RegistryEntry): e is RegisteredDid {
  return typeof (e as RegisteredDid).did === 'string';
}

export function isKeyEntry(e: RegistryEntry): e is RegisteredKey {
  return !isDidEntry(e);
}

/**
 * What makes two entries the same entry: a key registered for one agent (a key may be registered
 * for several agents, one entry each), or a DID.
 */
export function entryKey(e: RegistryEntry): string {
  return isDidEntry(e) ? `did:${e.did}` : `key:${e.id}:${e.agent}`;
}

/** An entry as people name it: "key fe812c12f3ab4ce6 of planner", "DID bafybmi…q (worker)". */
export function entryLabel(e: RegistryEntry): string {
  if (isDidEntry(e)) return `DID ${shortDid(e.did)}${e.agent ? ` (${e.agent})` : ''}`;
  return `key ${e.id}${e.agent ? ` of ${e.agent}` : ''}`;
}

/** A DID for one-line messages: its start and end. */
export function shortDid(did: string): string {
  return did.length > 24 ? `${did.slice(0, 12)}…${did.slice(-6)}` : did;
}

export interface KeyParseResult {
  /** Key and DID entries, in the order given. */
  keys: RegistryEntry[];
  /**
   * For each entry of `keys`, the kind the input itself stated (a key file's `kind`), or null when it
   * stated none and the default (or `agent`) was used. The Keys dialog needs to tell the two apart.
   */
  statedKinds: (KeyKind | null)[];
  problems: string[];
}

/** Longest DID accepted in a key file (a Rubix DID is 59 characters). */
const MAX_DID = 512;
// C0, DEL, C1 and the bidi controls: never part of an identity people read.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Text that is a DID when pasted on its own: a Rubix DID, or a `did:` URI. */
export function looksLikeDid(text: string): boolean {
  return looksLikeRubixDid(text) || /^did:[a-z0-9]+:\S+$/.test(text);
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
    if (ed.Point.fromBytes(publicKey, false).isSmallOrder())
      return 'an Ed25519 point of small order: no signature under it means anything, strict verification refuses it';
    return null;
  } catch {
    return `not a point of ${algorithm === 'secp256k1' ? 'secp256k1' : 'Ed25519'}`;
  }
}

function makeKey(
  publicKey: Uint8Array,
  fields: { agent?: unknown; kind?: unknown; not_before_micros?: unknown; not_after_micros?: unknown; revoked?: unknown },
): RegisteredKey {
  const algorithm = algorithmFor(publicKey);
  if (!algorithm) throw new Error(`a public key is 32 bytes (Ed25519) or 33/65 bytes (secp256k1), found ${publicKey.length}`);
  const problem = pointProblem(publicKey, algorithm);
  if (problem) throw new Error(`the public key ${toHex(publicKey).slice(0, 16)}… is ${problem}`);
  if (fields.agent !== undefined && typeof fields.agent !== 'string') throw new Error('agent must be a string');
  if (fields.kind !== undefined && fields.kind !== 'agent' && fields.kind !== 'operator')
    throw new Error(`kind must be "agent" or "operator", found ${JSON.stringify(fields.kind)}`);
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

function makeDid(
  did: unknown,
  fields: { agent?: unknown; kind?: unknown; not_before_micros?: unknown; not_after_micros?: unknown; revoked?: unknown },
): RegisteredDid {
  if (typeof did !== 'string' || did.length === 0) throw new Error('did must be a non-empty string');
  if (did.length > MAX_DID) throw new Error(`did is ${did.length} characters, more than ${MAX_DID}`);
  if (did.trim() !== did || CONTROL.test(did)) throw new Error('did holds spaces at its ends or control characters');
  if (fields.agent !== undefined && typeof fields.agent !== 'string') throw new Error('agent must be a string');
  if (fields.kind !== undefined && fields.kind !== 'agent' && fields.kind !== 'operator')
    throw new Error(`kind must be "agent" or "operator", found ${JSON.stringify(fields.kind)}`);
  return {
    did,
    agent: (fields.agent as string | undefined) ?? '',
    kind: (fields.kind as KeyKind | undefined) ?? 'agent',
    notBeforeMicros: micros(fields.not_before_micros),
    notAfterMicros: micros(fields.not_after_micros),
    revoked: fields.revoked === true,
  };
}

function fromJwk(jwk: Record<string, unknown>, defaults: { agent?: string; kind?: KeyKind }): RegisteredKey {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519')
    throw new Error(`only OKP Ed25519 JWKs are supported, found kty ${JSON.stringify(jwk.kty)} crv ${JSON.stringify(jwk.crv)}`);
  if ('d' in jwk) throw new Error('this JWK holds a private key (d): add public keys only');
  const x = typeof jwk.x === 'string' ? fromBase64(jwk.x) : null;
  if (x?.length !== 32) throw new Error('the JWK x member is not 32 bytes of base64url');
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
 * Parses keys from text or bytes: a key file (key and DID entries), a JWK or JWKS, PEM, a bare
 * hex/base64 public key or a bare DID (which then need `defaults.agent` to be trusted for anyone).
 */
export function parseKeys(input: string | Uint8Array, defaults: { agent?: string; kind?: KeyKind } = {}): KeyParseResult {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) throw new TypeError('keys must be given as text or bytes');
  const text = typeof input === 'string' ? input : utf8OrNull(input);
  const keys: RegistryEntry[] = [];
  const statedKinds: (KeyKind | null)[] = [];
  const problems: string[] = [];
  const done = (): KeyParseResult => ({ keys, statedKinds, problems });
  const attempt = (what: string, stated: KeyKind | null, fn: () => RegistryEntry | RegistryEntry[]) => {
    try {
      const r = fn();
      for (const entry of Array.isArray(r) ? r : [r]) {
        keys.push(entry);
        statedKinds.push(stated);
      }
    } catch (e) {
      problems.push(`${what}: ${(e as Error).message}`);
    }
  };
  if (text === null) {
    if (!algorithmFor(input as Uint8Array)) problems.push('binary key input that is not a raw 32-, 33- or 65-byte public key');
    else attempt('binary key input', null, () => makeKey((input as Uint8Array).slice(), defaults));
    return done();
  }
  const t = text.trim();
  if (t.includes('-----BEGIN')) {
    attempt('PEM', null, () => fromPem(t, defaults));
    return done();
  }
  if (t.startsWith('{') || t.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(t);
    } catch (e) {
      problems.push(`not valid JSON: ${(e as Error).message}`);
      return done();
    }
    const list: unknown[] = Array.isArray(json)
      ? json
      : json && typeof json === 'object' && Array.isArray((json as { keys?: unknown }).keys)
        ? (json as { keys: unknown[] }).keys
        : [json];
    list.forEach((entry, i) => {
      const where = `key ${i}`;
      if (!entry || typeof entry !== 'object') {
        problems.push(`${where}: not an object`);
        return;
      }
      const e = entry as Record<string, unknown>;
      const stated = e.kind === 'agent' || e.kind === 'operator' ? e.kind : null;
      const fields = { ...e, agent: e.agent ?? defaults.agent, kind: e.kind ?? defaults.kind };
      if ('kty' in e) attempt(`${where} (JWK)`, stated, () => fromJwk(e, defaults));
      else if (typeof e.public_key === 'string') {
        attempt(where, stated, () => {
          if (e.did !== undefined) throw new Error('an entry holds either public_key or did, not both');
          const bytes = bytesFrom(e.public_key as string);
          if (!bytes) throw new Error('public_key is neither hex nor base64');
          return makeKey(bytes, fields);
        });
      } else if ('did' in e) attempt(`${where} (DID)`, stated, () => makeDid(e.did, fields));
      else problems.push(`${where}: neither a key file entry (public_key or did) nor a JWK (kty)`);
    });
    return done();
  }
  // Split on newlines and commas, then trim: the regex /\s*[\n,]\s*/ backtracks quadratically on
  // a long run of spaces with no separator in it (200 KB took 16 s).
  for (const line of t
    .split(/[\n,]/)
    .map((l) => l.trim())
    .filter(Boolean)) {
    attempt(`"${line.slice(0, 20)}${line.length > 20 ? '…' : ''}"`, null, () => {
      if (looksLikeDid(line)) return makeDid(line, defaults);
      const bytes = bytesFrom(line);
      if (!bytes) throw new Error('neither hex nor base64 nor a DID');
      return makeKey(bytes, defaults);
    });
  }
  if (keys.length === 0 && problems.length === 0) problems.push('no key found');
  return done();
}

/** The report.md key file for a registry: key entries with public_key, DID entries with did. */
export function toKeyFile(entries: readonly RegistryEntry[]): string {
  const bound = (v: bigint | null) => (v === null ? 0 : v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString());
  return JSON.stringify(
    {
      keys: entries.map((k) => ({
        agent: k.agent,
        ...(isDidEntry(k) ? { did: k.did } : { public_key: toHex(k.publicKey) }),
        kind: k.kind,
        not_before_micros: bound(k.notBeforeMicros),
        not_after_micros: bound(k.notAfterMicros),
        revoked: k.revoked,
      })),
    },
    null,
    2,
  );
}
