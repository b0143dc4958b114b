// The key registry: parse what people paste or drop (hex, base64, JWK / JWKS, PEM
// SubjectPublicKeyInfo, a bare DID, the report.md key file with its key and DID entries), compute key
// ids, and write the key file back. Misuse throws a TypeError; bad data becomes a problem in the
// result, never an exception.
import * as ed from '@noble/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesEqual, fromBase64, fromHex, readUintLE, toHex, utf8Encode, utf8OrNull } from '../bytes';
import { getMember, readJson, type JsonValue } from '../json/lossless';
import { looksLikeRubixDid } from './did-shape';
import { shortDid } from '../short-id';

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

// ---------- the members of an entry, read strictly ----------

/** What an entry says beside its key or DID (report.md "Key files"), read strictly. */
interface EntryMembers {
  agent: string | undefined;
  kind: KeyKind | undefined;
  notBeforeMicros: bigint | null;
  notAfterMicros: bigint | null;
  revoked: boolean;
}

type JsonObjectValue = Extract<JsonValue, { type: 'object' }>;

/** The members every form of entry carries (a key file's, a JWK's, a PEM's or a bare key's sidecar). */
const MEMBERS = ['agent', 'kind', 'not_before_micros', 'not_after_micros', 'revoked'] as const;
const KEY_FILE_MEMBERS = new Set<string>([...MEMBERS, 'public_key', 'did']);
/** A JWK's own members (RFC 7517, 8037) beside ours; `d` is refused on its own (a private key). */
const JWK_MEMBERS = new Set<string>([...MEMBERS, 'kty', 'crv', 'x', 'd', 'kid', 'use', 'alg', 'key_ops', 'ext', 'x5c', 'x5t', 'x5t#S256', 'x5u']);
const SIDECAR_MEMBERS = new Set<string>(MEMBERS);

/** A value as a message quotes it: its JSON text, or the start of it. */
function shown(v: JsonValue, text: Uint8Array): string {
  const t = utf8OrNull(text.subarray(v.start, Math.min(v.end, v.start + 40))) ?? '…';
  return v.end - v.start > 40 ? `${t}…` : t;
}

/** A window bound: an integer of epoch microseconds, or a decimal string of one; 0 or absent is unbounded. */
function boundOf(name: string, v: JsonValue | undefined, text: Uint8Array): bigint | null {
  if (v === undefined) return null;
  let n: bigint | null = null;
  if (v.type === 'number' && v.isInteger) n = v.big ?? (Number.isSafeInteger(v.value) ? BigInt(v.value) : null);
  else if (v.type === 'string' && /^\d{1,30}$/.test(v.value)) n = BigInt(v.value);
  if (n === null || n < 0n) {
    throw new Error(`member "${name}" must be a non-negative integer of epoch microseconds (or a decimal string of one), found ${shown(v, text)}`);
  }
  return n === 0n ? null : n;
}

/**
 * The members of an entry object, every one typed: `allowed` names the members it may have, and
 * any other member, a member given twice or a value of the wrong type is an error naming it.
 */
function readMembers(obj: JsonObjectValue, allowed: ReadonlySet<string>, text: Uint8Array): EntryMembers {
  const seen = new Map<string, JsonValue>();
  for (const e of obj.entries) {
    if (seen.has(e.key)) throw new Error(`member "${e.key}" is given twice`);
    if (!allowed.has(e.key)) throw new Error(`member ${JSON.stringify(e.key)} is not one an entry of this kind has (${[...allowed].join(', ')})`);
    seen.set(e.key, e.value);
  }
  const agent = seen.get('agent');
  if (agent !== undefined && agent.type !== 'string') throw new Error(`member "agent" must be a string, found ${shown(agent, text)}`);
  const kind = seen.get('kind');
  if (kind !== undefined && (kind.type !== 'string' || (kind.value !== 'agent' && kind.value !== 'operator')))
    throw new Error(`member "kind" must be "agent" or "operator", found ${shown(kind, text)}`);
  const revoked = seen.get('revoked');
  if (revoked !== undefined && revoked.type !== 'bool')
    throw new Error(`member "revoked" must be true or false (a JSON boolean), found ${shown(revoked, text)}`);
  const members: EntryMembers = {
    agent: agent?.type === 'string' ? agent.value : undefined,
    kind: kind?.type === 'string' ? (kind.value as KeyKind) : undefined,
    notBeforeMicros: boundOf('not_before_micros', seen.get('not_before_micros'), text),
    notAfterMicros: boundOf('not_after_micros', seen.get('not_after_micros'), text),
    revoked: revoked?.type === 'bool' ? revoked.value : false,
  };
  if (members.notBeforeMicros !== null && members.notAfterMicros !== null && members.notAfterMicros < members.notBeforeMicros)
    throw new Error(`the window closes (not_after_micros ${members.notAfterMicros}) before it opens (not_before_micros ${members.notBeforeMicros})`);
  return members;
}

/** What an input that holds no members (PEM, a bare key or DID) is given: the caller's defaults, or a sidecar's members. */
const defaultMembers = (defaults: { agent?: string; kind?: KeyKind }): EntryMembers => ({
  agent: defaults.agent,
  kind: defaults.kind,
  notBeforeMicros: null,
  notAfterMicros: null,
  revoked: false,
});

/** An entry's agent: its own, else the caller's; an entry with none is refused (it could back nothing). */
function agentOf(members: EntryMembers, defaults: { agent?: string }): string {
  const agent = members.agent ?? defaults.agent ?? '';
  if (agent === '')
    throw new Error(
      'no agent: every entry names the agent it belongs to (the AGDX source its key signs for, or the name of an AgentDNA DID); an entry without one is not used',
    );
  return agent;
}

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

function makeKey(publicKey: Uint8Array, members: EntryMembers, defaults: { agent?: string; kind?: KeyKind }): RegisteredKey {
  const algorithm = algorithmFor(publicKey);
  if (!algorithm) throw new Error(`a public key is 32 bytes (Ed25519) or 33/65 bytes (secp256k1), found ${publicKey.length}`);
  const problem = pointProblem(publicKey, algorithm);
  if (problem) throw new Error(`the public key ${toHex(publicKey).slice(0, 16)}… is ${problem}`);
  return {
    id: keyId(publicKey),
    agent: agentOf(members, defaults),
    algorithm,
    publicKey,
    kind: members.kind ?? defaults.kind ?? 'agent',
    notBeforeMicros: members.notBeforeMicros,
    notAfterMicros: members.notAfterMicros,
    revoked: members.revoked,
  };
}

function makeDid(did: unknown, members: EntryMembers, defaults: { agent?: string; kind?: KeyKind }): RegisteredDid {
  if (typeof did !== 'string' || did.length === 0) throw new Error('member "did" must be a non-empty string');
  if (did.length > MAX_DID) throw new Error(`did is ${did.length} characters, more than ${MAX_DID}`);
  if (did.trim() !== did || CONTROL.test(did)) throw new Error('did holds spaces at its ends or control characters');
  return {
    did,
    agent: agentOf(members, defaults),
    kind: members.kind ?? defaults.kind ?? 'agent',
    notBeforeMicros: members.notBeforeMicros,
    notAfterMicros: members.notAfterMicros,
    revoked: members.revoked,
  };
}

/** A JWK (OKP Ed25519, public), with our members beside its own: an agent, a kind, a window, revoked. */
function fromJwk(jwk: JsonObjectValue, text: Uint8Array, defaults: { agent?: string; kind?: KeyKind }): RegisteredKey {
  const kty = getMember(jwk, 'kty');
  const crv = getMember(jwk, 'crv');
  const str = (v: JsonValue | undefined) => (v?.type === 'string' ? v.value : undefined);
  if (str(kty) !== 'OKP' || str(crv) !== 'Ed25519')
    throw new Error(`only OKP Ed25519 JWKs are supported, found kty ${kty ? shown(kty, text) : 'none'} crv ${crv ? shown(crv, text) : 'none'}`);
  if (getMember(jwk, 'd') !== undefined) throw new Error('this JWK holds a private key (d): add public keys only');
  const members = readMembers(jwk, JWK_MEMBERS, text);
  for (const name of ['kid', 'use', 'alg']) {
    const v = getMember(jwk, name);
    if (v !== undefined && v.type !== 'string') throw new Error(`member "${name}" must be a string, found ${shown(v, text)}`);
  }
  const xv = str(getMember(jwk, 'x'));
  const x = xv !== undefined ? fromBase64(xv) : null;
  if (x?.length !== 32) throw new Error('the JWK x member is not 32 bytes of base64url');
  return makeKey(x, members, defaults);
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

function fromPem(pem: string, members: EntryMembers, defaults: { agent?: string; kind?: KeyKind }): RegisteredKey[] {
  const blocks = pemBlocks(pem);
  if (blocks.length === 0) throw new Error('no PEM block found');
  return blocks.map(([type, body]) => {
    if (type !== 'PUBLIC KEY') throw new Error(`a PEM ${type} block: only PUBLIC KEY is accepted`);
    const der = fromBase64(body);
    if (!der) throw new Error('the PEM body is not base64');
    if (der.length === 44 && bytesEqual(der.subarray(0, ED25519_SPKI_PREFIX.length), ED25519_SPKI_PREFIX)) return makeKey(der.slice(12), members, defaults);
    // A Rubix pubKey.pem holds the raw 65-byte secp256k1 point, not SPKI.
    if (der.length === 65 && der[0] === 4) return makeKey(der, members, defaults);
    throw new Error(`the PEM body is ${der.length} bytes: not an Ed25519 SubjectPublicKeyInfo (44 bytes) nor a raw secp256k1 point`);
  });
}

/** How parseKeys reads what an input does not say itself. */
export interface KeyParseOptions {
  /** The agent for entries that name none (the Keys dialog's Agent field). */
  agent?: string;
  kind?: KeyKind;
  /**
   * A sidecar: a JSON object with the members (agent, kind, not_before_micros, not_after_micros,
   * revoked) for an input that cannot carry them (PEM, a bare hex, base64 or binary key, bare
   * DIDs), read as strictly as a key file's entries; the CLI reads `FILE.json` beside `FILE`.
   */
  sidecar?: { name: string; text: string | Uint8Array };
}

/** A sidecar's members, or the problem that makes the input's entries unusable. */
function sidecarMembers(sidecar: NonNullable<KeyParseOptions['sidecar']>): EntryMembers {
  const bytes = typeof sidecar.text === 'string' ? utf8Encode(sidecar.text) : sidecar.text;
  const read = readJson(bytes);
  if (!read.ok) throw new Error(`not valid JSON: ${read.error.message}`);
  if (read.value.type !== 'object') throw new Error('not a JSON object of entry members');
  return readMembers(read.value, SIDECAR_MEMBERS, bytes);
}

/** The entries of a key file, a JWK or a JWKS (JSON text), each read strictly, each failure a problem naming the entry. */
function jsonEntries(
  bytes: Uint8Array,
  defaults: { agent?: string; kind?: KeyKind },
  attempt: (what: string, stated: KeyKind | null, fn: () => RegistryEntry | RegistryEntry[]) => void,
  problems: string[],
): void {
  const read = readJson(bytes);
  if (!read.ok) {
    problems.push(`not valid JSON: ${read.error.message}`);
    return;
  }
  const root = read.value;
  const listed = root.type === 'object' ? getMember(root, 'keys') : undefined;
  if (root.type === 'object' && listed !== undefined && root.entries.filter((e) => e.key === 'keys').length > 1) {
    problems.push('member "keys" is given twice');
    return;
  }
  const list: JsonValue[] = root.type === 'array' ? root.items : listed?.type === 'array' ? listed.items : [root];
  list.forEach((entry, i) => {
    const agent = entry.type === 'object' ? getMember(entry, 'agent') : undefined;
    const where = `key ${i}${agent?.type === 'string' ? ` (agent ${JSON.stringify(agent.value.slice(0, 40))})` : ''}`;
    if (entry.type !== 'object') {
      problems.push(`${where}: not an object`);
      return;
    }
    const kind = getMember(entry, 'kind');
    const stated = kind?.type === 'string' && (kind.value === 'agent' || kind.value === 'operator') ? kind.value : null;
    if (getMember(entry, 'kty') !== undefined) {
      attempt(`${where} (JWK)`, stated, () => fromJwk(entry, bytes, defaults));
      return;
    }
    const publicKey = getMember(entry, 'public_key');
    const did = getMember(entry, 'did');
    if (publicKey !== undefined) {
      attempt(where, stated, () => {
        const members = readMembers(entry, KEY_FILE_MEMBERS, bytes);
        if (did !== undefined) throw new Error('an entry holds either public_key or did, not both');
        if (publicKey.type !== 'string') throw new Error(`member "public_key" must be a string of hex or base64, found ${shown(publicKey, bytes)}`);
        const key = bytesFrom(publicKey.value);
        if (!key) throw new Error('public_key is neither hex nor base64');
        return makeKey(key, members, defaults);
      });
    } else if (did !== undefined) {
      attempt(`${where} (DID)`, stated, () => makeDid(did.type === 'string' ? did.value : null, readMembers(entry, KEY_FILE_MEMBERS, bytes), defaults));
    } else problems.push(`${where}: neither a key file entry (public_key or did) nor a JWK (kty)`);
  });
}

/**
 * Parses keys from text or bytes: a key file (key and DID entries), a JWK or JWKS, PEM, a bare
 * hex/base64 public key or a bare DID. Every member of every entry is typed strictly (report.md
 * "Key files"): an entry with a member of the wrong type, an unknown or repeated member, or no
 * agent is a problem naming it, and is not used; the others are.
 */
export function parseKeys(input: string | Uint8Array, defaults: KeyParseOptions = {}): KeyParseResult {
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
  const t = text?.trim() ?? null;
  if (t !== null && (t.startsWith('{') || t.startsWith('['))) {
    if (defaults.sidecar) problems.push(`sidecar ${defaults.sidecar.name}: a key file names its entries' members itself; its sidecar is not read`);
    else jsonEntries(utf8Encode(t), defaults, attempt, problems);
    return done();
  }
  // An input that carries no members: they come from the sidecar, when there is one.
  let members = defaultMembers(defaults);
  if (defaults.sidecar) {
    try {
      members = sidecarMembers(defaults.sidecar);
    } catch (e) {
      problems.push(`sidecar ${defaults.sidecar.name}: ${(e as Error).message}; the keys it describes are not used`);
      return done();
    }
  }
  const stated = defaults.sidecar ? (members.kind ?? null) : null;
  if (t === null) {
    if (!algorithmFor(input as Uint8Array)) problems.push('binary key input that is not a raw 32-, 33- or 65-byte public key');
    else attempt('binary key input', stated, () => makeKey((input as Uint8Array).slice(), members, defaults));
    return done();
  }
  if (t.includes('-----BEGIN')) {
    attempt('PEM', stated, () => fromPem(t, members, defaults));
    return done();
  }
  // Split on newlines and commas, then trim: the regex /\s*[\n,]\s*/ backtracks quadratically on
  // a long run of spaces with no separator in it (200 KB took 16 s).
  for (const line of t
    .split(/[\n,]/)
    .map((l) => l.trim())
    .filter(Boolean)) {
    attempt(`"${line.slice(0, 20)}${line.length > 20 ? '…' : ''}"`, stated, () => {
      if (looksLikeDid(line)) return makeDid(line, members, defaults);
      const bytes = bytesFrom(line);
      if (!bytes) throw new Error('neither hex nor base64 nor a DID');
      return makeKey(bytes, members, defaults);
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
