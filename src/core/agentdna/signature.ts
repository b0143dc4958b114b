// Offline signature verification of an AgentDNA message for a Rubix DID: parse the DER as ECPy
// does, recover the candidate public keys from (r, s, e), derive each one's DID and compare with the
// signer's. e = the first 32 bytes of ASCII(msg) (the truncation rule); when that fails,
// e = sha256(ASCII(msg)) (the rule rubix-py 1.2 may use). Never throws.
import { toHex } from '../bytes';
import { didOfPoint, looksLikeRubixDid } from './did';
import type { WeierstrassPoint } from '@noble/curves/abstract/weierstrass.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  bigintHex,
  candidatesWithKnownKey,
  readDerLenient,
  readHexLikePython,
  recoverCandidates,
  scalarsInRange,
  uncompressedKey,
  type Candidate,
} from './ecdsa';
import { signedBytes } from './hash';
import type { SecpWasm } from './secp-wasm';

export type SigStatus = 'valid' | 'invalid' | 'malformed' | 'unsigned';
export type SigRule = 'truncate' | 'sha256';
export const RULES: readonly SigRule[] = ['truncate', 'sha256'];

export interface RecoveredKey {
  rule: SigRule;
  recovery: number;
  /** 65-byte uncompressed point, hex. */
  public_key: string;
  did: string;
  /** This key's DID is the signer's, or the key was offered for the signer in a key file. */
  matches: boolean;
}

export interface SignatureCheck {
  status: SigStatus;
  /** The rule that held; null unless valid. */
  rule: SigRule | null;
  did_match: boolean;
  /** How the key was tied to the signer: derived DID, or a key file for a DID made another way. */
  key_source: 'did' | 'key-file' | null;
  /** The 32 bytes signed under the rule that held (the truncation rule's when none held), hex. */
  signed_bytes_hex: string | null;
  r: string | null;
  s: string | null;
  high_s: boolean | null;
  recovered: RecoveredKey[];
  /** Accepted by ECPy but not strict DER / lower-case hex. */
  der_issues: string[];
  reason: string;
}

/** Keys offered for DIDs made another way: DID → 33- or 65-byte secp256k1 keys. */
export type ExtraKeys = Map<string, Uint8Array[]>;

const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

function base(status: SigStatus, reason: string, derIssues: string[] = []): SignatureCheck {
  return {
    status,
    rule: null,
    did_match: false,
    key_source: null,
    signed_bytes_hex: null,
    r: null,
    s: null,
    high_s: null,
    recovered: [],
    der_issues: derIssues,
    reason,
  };
}

/** libsecp256k1 in WebAssembly, once the host has loaded it (installSecpWasm); noble until then. */
let secpWasm: SecpWasm | null = null;

/**
 * Recovers keys with libsecp256k1 (WebAssembly) from now on, or with noble alone (null). Either
 * gives the same candidates (a property test holds them equal); libsecp256k1 is several times faster.
 */
export function installSecpWasm(wasm: SecpWasm | null): void {
  secpWasm = wasm;
}

export function secpImplementation(): 'libsecp256k1-wasm' | 'noble' {
  return secpWasm ? 'libsecp256k1-wasm' : 'noble';
}

/**
 * What each DID has proven: the key whose derivation gave that DID (never anything an input merely
 * claims). A later candidate equal to that key needs no derivation. With noble, a DID that signs
 * often also gets a precomputed table for its key, and its later signatures are checked against
 * that point (candidatesWithKnownKey, about twice as fast as a recovery) — still verified, each
 * one: a signature that does not verify under the proven key is recovered as before. Bounded:
 * cleared when full; tables for the first busy DIDs.
 */
interface ProvenKey {
  hex: string;
  key: Uint8Array;
  signatures: number;
}
const provenKeys = new Map<string, ProvenKey>();
/** Signatures a DID must have proven before its key gets a table (the table costs ~30 recoveries' savings). */
const TABLE_AFTER = 32;
const TABLE_WINDOW = 8;
/** At most this many DIDs remembered, and this many tables (each ~1 MB). */
export const SIGNATURE_CACHE_LIMITS = { provenKeys: 4096, tables: 16, tableAfter: TABLE_AFTER } as const;
const tables = new Map<string, { hex: string; point: WeierstrassPoint<bigint> }>();

function noteProven(did: string, hex: string, key: Uint8Array): void {
  let p = provenKeys.get(did);
  if (p === undefined || p.hex !== hex) {
    if (provenKeys.size >= SIGNATURE_CACHE_LIMITS.provenKeys) {
      provenKeys.clear();
      tables.clear();
    }
    p = { hex, key, signatures: 0 };
    provenKeys.set(did, p);
  }
  p.signatures++;
}

function provenTable(did: string): WeierstrassPoint<bigint> | null {
  const p = provenKeys.get(did);
  if (p === undefined || p.signatures < TABLE_AFTER) return null;
  const t = tables.get(did);
  if (t !== undefined && t.hex === p.hex) return t.point;
  // A table costs as much as ~70 of its uses save: tables are kept, never traded for others (more
  // busy DIDs than tables would rebuild them endlessly); the DIDs beyond the limit are recovered.
  if (tables.size >= SIGNATURE_CACHE_LIMITS.tables) return null;
  const point = secp256k1.Point.fromBytes(p.key).precompute(TABLE_WINDOW, false);
  tables.set(did, { hex: p.hex, point });
  return point;
}

/** The DID a candidate key derives: known when it is the key the signer's DID proved, else derived. */
function didOfKey(keyHex: string, publicKey: Uint8Array, signer: string | null): string {
  if (signer !== null && provenKeys.get(signer)?.hex === keyHex) return signer;
  return didOfPoint(publicKey); // a recovered key: a curve point, 65 bytes
}

/** How much is cached (tests). */
export function signatureCacheSizes(): { provenKeys: number; tables: number } {
  return { provenKeys: provenKeys.size, tables: tables.size };
}

/** Forgets every cached fact (tests; none of them can change a verdict). */
export function resetSignatureCaches(): void {
  provenKeys.clear();
  tables.clear();
}

/** The candidates for (r, s, e), by the fastest way at hand; always recoverCandidates' list. */
function candidatesFor(r: bigint, s: bigint, e: Uint8Array, signer: string | null): Candidate[] {
  if (secpWasm) {
    const c = secpWasm.candidates(r, s, e);
    if (c) return c;
  } else if (signer !== null) {
    const table = provenTable(signer);
    const c = table && candidatesWithKnownKey(r, s, e, table);
    if (c) return c;
  }
  return recoverCandidates(r, s, e);
}

/**
 * Checks a signature given as AgentDNA stores it (hex text). `message` null means the signed
 * message could not be formed (reason in `messageProblem`).
 */
export function checkSignatureText(
  signer: string | null,
  message: string | null,
  signature: unknown,
  extraKeys?: ExtraKeys,
  messageProblem = 'the signed message cannot be formed',
): SignatureCheck {
  if (signature === undefined || signature === null || signature === '') {
    return base('unsigned', signature === '' ? 'the signature is empty' : 'no signature');
  }
  if (typeof signature !== 'string') return base('malformed', 'the signature is not a string of hex');
  const hex = readHexLikePython(signature);
  if (hex.bytes === null) return base('malformed', `the signature is ${hex.reason}`);
  return checkSignatureBytes(signer, message, hex.bytes, extraKeys, messageProblem, hex.issues);
}

/** Checks DER signature bytes over `message` (ASCII text) for `signer` (a DID). */
export function checkSignatureBytes(
  signer: string | null,
  message: string | null,
  der: Uint8Array,
  extraKeys?: ExtraKeys,
  messageProblem = 'the signed message cannot be formed',
  hexIssues: string[] = [],
): SignatureCheck {
  const read = readDerLenient(der);
  const issues = [...hexIssues, ...read.issues];
  if (!read.ok) return base('malformed', `the DER does not parse as ECPy reads it: ${read.reason}`, issues);
  const out = base('invalid', '', issues);
  out.r = bigintHex(read.r);
  out.s = bigintHex(read.s);
  const range = scalarsInRange(read.r, read.s);
  if (range !== null) {
    out.reason = `${range}: no key verifies it (ECPy returns False)`;
    return out;
  }
  out.high_s = read.s > HALF_N;
  if (message === null) {
    out.reason = `${messageProblem}, so the signature cannot be checked`;
    return out;
  }
  const offered = signer !== null ? (extraKeys?.get(signer) ?? []).map(uncompressedKey).filter((k): k is Uint8Array => k !== null) : [];
  const offeredHex = new Set(offered.map(toHex));
  for (const rule of RULES) {
    const e = signedBytes(message, rule);
    if (rule === 'truncate') out.signed_bytes_hex = toHex(e);
    for (const c of candidatesFor(read.r, read.s, e, signer)) {
      const keyHex = toHex(c.publicKey);
      const did = didOfKey(keyHex, c.publicKey, signer);
      const byDid = signer !== null && did === signer;
      if (byDid) noteProven(signer, keyHex, c.publicKey);
      const byFile = !byDid && offeredHex.has(keyHex);
      out.recovered.push({ rule, recovery: c.recovery, public_key: keyHex, did, matches: byDid || byFile });
      if ((byDid || byFile) && out.status !== 'valid') {
        out.status = 'valid';
        out.rule = rule;
        out.did_match = true;
        out.key_source = byDid ? 'did' : 'key-file';
        out.signed_bytes_hex = toHex(e);
      }
    }
    if (out.status === 'valid') break;
  }
  if (out.status === 'valid') {
    out.reason = validReason(out, signer);
  } else if (signer === null) {
    out.reason = 'the envelope names no signer (from is absent or not a string), so no recovered key can be bound to one';
  } else {
    const didNote = looksLikeRubixDid(signer)
      ? `none of the ${out.recovered.length} keys recovered under either rule derives ${signer}`
      : `the signer "${signer}" is not a Rubix DID (bafybmi…, 59 characters) and no key file offers a key for it`;
    out.reason = `${didNote}. A DID made another way (older account types) needs its key in a key file.`;
  }
  return out;
}

function validReason(out: SignatureCheck, signer: string | null): string {
  const ruleText = out.rule === 'truncate' ? 'e = the first 32 bytes of the ASCII message' : 'e = sha256 of the ASCII message (the truncation rule failed)';
  const how =
    out.key_source === 'did'
      ? `a key recovered from the signature derives the signer's DID ${signer}`
      : `a key recovered from the signature is the key the key file gives for ${signer}`;
  return `${how}; ${ruleText}${out.high_s ? '; s is high (accepted: AgentDNA does not normalise s)' : ''}`;
}

/** A recovery id not yet known: the quick check's bound key before its list is completed. */
export const RECOVERY_PENDING = -1;

/**
 * The check for a signer whose DID has proven its key here before (a recovered key derived it):
 * a plain ECDSA verification against that key (libsecp256k1), rule by rule in the full check's
 * order, instead of a recovery and a DID derivation per candidate. When the key verifies, it is a
 * candidate and derives the signer's DID, so every field of checkSignatureText's answer follows
 * (no key file may offer keys for the signer: the caller passes none), except the list of all
 * candidates: `recovered` then holds the bound key alone with recovery RECOVERY_PENDING, and
 * completeRecovered lists them all (when a record is opened or reported). Null whenever this
 * cannot decide: an unproven signer, no libsecp256k1, a signature that does not parse or does not
 * verify under the key (the full check then lists what it does give), a short message.
 */
export function checkSignatureQuick(signer: string | null, message: string, signature: string): SignatureCheck | null {
  const proven = signer !== null ? provenKeys.get(signer) : undefined;
  if (!secpWasm || proven === undefined) return null;
  const hex = readHexLikePython(signature);
  if (hex.bytes === null) return null;
  const read = readDerLenient(hex.bytes);
  if (!read.ok || scalarsInRange(read.r, read.s) !== null) return null;
  for (const rule of RULES) {
    const e = signedBytes(message, rule);
    const verified = secpWasm.verify(read.r, read.s, e, proven.key);
    if (verified === null) return null;
    if (!verified) continue;
    const out = base('valid', '', [...hex.issues, ...read.issues]);
    Object.assign(out, {
      rule,
      did_match: true,
      key_source: 'did',
      signed_bytes_hex: toHex(e),
      r: bigintHex(read.r),
      s: bigintHex(read.s),
      high_s: read.s > HALF_N,
    });
    out.recovered = [{ rule, recovery: RECOVERY_PENDING, public_key: proven.hex, did: signer!, matches: true }];
    out.reason = validReason(out, signer);
    proven.signatures++;
    return out;
  }
  return null;
}

/**
 * Lists awaiting completion (a quick check's `recovered`) carry what completes them, under a
 * symbol of this module's: copies (a spread, a structured clone, JSON) do not, so a marked list is
 * recognised by identity, as an envelope's report shares it. A marked list stays as it is:
 * completion makes a new list (completeRecovered), and whoever holds the verdict or the workflow
 * replaces it with a new one. Not a WeakMap beside the lists: V8 marks a WeakMap's entries as
 * ephemerons, and with tens of thousands of them a full collection of a load paused for 100s of ms.
 */
const PENDING = Symbol('inputs that complete this list');
type PendingInputs = { signer: string | null; message: string; signature: string };
type MarkedList = readonly RecoveredKey[] & { [PENDING]?: PendingInputs };

/** Marks a quick check's list as completed later from these inputs. */
export function recoveredLater(check: SignatureCheck, signer: string | null, message: string, signature: string): void {
  // Not enumerable: the list compares equal to its copies (a test's deep equality reads symbols).
  if (check.recovered.some((k) => k.recovery === RECOVERY_PENDING))
    Object.defineProperty(check.recovered, PENDING, { value: { signer, message, signature }, writable: true });
}

export function isRecoveredPending(list: readonly RecoveredKey[]): boolean {
  return (list as MarkedList)[PENDING] !== undefined;
}

/** What completes a pending list, or null when it is complete. */
export function pendingInputs(list: readonly RecoveredKey[]): PendingInputs | null {
  return (list as MarkedList)[PENDING] ?? null;
}

/**
 * A quick check's list completed with the full check's candidates (`full`, computed elsewhere from
 * pendingInputs, or here): a new list, or `list` itself when it is complete. The verdict is not
 * touched: it was the full check's already.
 */
export function completeRecovered(list: RecoveredKey[], full?: SignatureCheck): RecoveredKey[] {
  const inputs = pendingInputs(list);
  if (!inputs) return list;
  return [...(full ?? checkSignatureText(inputs.signer, inputs.message, inputs.signature)).recovered];
}

/**
 * A workflow with its envelopes' lists of candidate keys complete: a new workflow (with new
 * envelopes where a list was pending), or `workflow` itself when none was. With `answers` (full
 * checks computed elsewhere, by pending list), only the lists they answer are completed; without,
 * every pending list is completed here.
 */
export function completeWorkflow<W extends { envelopes: readonly { recovered: RecoveredKey[] }[] }>(
  workflow: W,
  answers?: ReadonlyMap<readonly RecoveredKey[], SignatureCheck>,
): W {
  let changed = false;
  const envelopes = workflow.envelopes.map((e) => {
    if (!isRecoveredPending(e.recovered)) return e;
    const full = answers?.get(e.recovered);
    if (answers && !full) return e;
    changed = true;
    return { ...e, recovered: completeRecovered(e.recovered, full) };
  });
  return changed ? { ...workflow, envelopes } : workflow;
}
