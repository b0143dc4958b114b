// Ed25519 verification of AGDX signatures against a key registry, and the trust decision.
// noble's strict branch (zip215: false, RFC 8032): non-canonical encodings of R, A or S and
// small-order public keys are rejected, as ed25519-dalek's verify_strict does.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { bytesEqual, concatBytes } from '../bytes';
import type { SignatureVerdict } from '../model';
import { isKeyEntry, type RegistryEntry } from '../keys/keys';
import { agdxTrustSubject, decideTrust } from '../keys/trust';
import type { InspectedRecord } from '../records';
import { withSignature } from '../verdict';
import { signingInputSegments, type AsReceived } from './canonical';
import type { Envelope } from './envelope';
import type { ObservedHeaders } from './headers';
import { checkSignatureShape } from './signature';

ed.hashes.sha512 = sha512;

export type Ed25519Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean;

/** noble's strict verification; a malformed point or scalar is a false, never an exception. */
export const nobleVerify: Ed25519Verify = (signature, message, publicKey) => {
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
};

export function signingInput(env: Envelope): Uint8Array {
  const s = signingInputSegments(env);
  return concatBytes(s.domain, s.context, s.envelope);
}

export interface VerifyContext {
  /** The reader's registry (DID entries play no part in AGDX). */
  keys: readonly RegistryEntry[];
  observed: ObservedHeaders | null;
  logTimeMicros: bigint | null;
  verify?: Ed25519Verify;
  /** The envelope's signing input, when the caller has built it already (it re-encodes the envelope). */
  message?: Uint8Array;
  /**
   * What the record holds outside the signature (uncoveredPaths): a fact of its bytes, decided when
   * it was read, which no key changes. Re-verifying passes the record's current list on.
   */
  notCovered?: string[];
  /** The envelope as received without its signature, when it holds fields no dialect knows (canonical.ts): tried after the canonical input. */
  asReceived?: AsReceived;
}

/**
 * The full verdict for an envelope: shape, key lookup, Ed25519, trust, context. The signing input is
 * the canonical encoding of the record's fields (in its dialect's order, canonical.ts); for a record
 * holding fields no dialect knows, the envelope as received without its signature is tried too
 * (always asked, so a caller that collects the checks asks the same ones in the same order), and
 * when only that verifies the verdict says so and those fields count as covered.
 */
export function verifyEnvelope(env: Envelope, ctx: VerifyContext): SignatureVerdict {
  const shape = checkSignatureShape(env, ctx.observed, () => null, ctx.notCovered).verdict;
  if (shape.status !== 'unknown_key') return shape;
  const sig = env.signature!;
  const candidates = ctx.keys.filter(isKeyEntry).filter((k) => k.algorithm === 'ed25519' && k.id === shape.key_id);
  if (candidates.length === 0) return shape;
  const message = ctx.message ?? signingInput(env);
  const received = ctx.asReceived ? receivedSigningInput(env, ctx.asReceived) : null;
  const verify = ctx.verify ?? nobleVerify;
  // Several registrations may share one public key (one per agent): verify once per distinct key.
  const distinct = candidates.filter((k, i) => candidates.findIndex((c) => bytesEqual(c.publicKey, k.publicKey)) === i);
  const overCanonical = distinct.filter((k) => verify(sig.bytes, message, k.publicKey));
  const overReceived = received ? distinct.filter((k) => verify(sig.bytes, received, k.publicKey)) : [];
  const verified = overCanonical.length ? overCanonical : overReceived;
  if (verified.length === 0) {
    return {
      ...shape,
      status: 'invalid',
      reason: `the signature does not verify under the registered key ${shape.key_id} over the canonical signing input (${message.length} bytes)${
        received ? `, nor over the envelope as received (${received.length} bytes)` : ''
      }`,
    };
  }
  const asReceived = overCanonical.length === 0 && ctx.asReceived ? ctx.asReceived : null;
  const good = candidates.filter((k) => verified.some((v) => bytesEqual(v.publicKey, k.publicKey)));
  const subject = agdxTrustSubject(env, ctx.logTimeMicros);
  const decisions = good.map((k) => ({ key: k, ...decideTrust(k, subject) }));
  // The same key registered twice for one agent, once revoked: the revocation wins.
  const revokedFor = new Set(good.filter((k) => k.revoked).map((k) => k.agent));
  const best =
    decisions.find((d) => d.trusted && !revokedFor.has(d.key.agent)) ??
    decisions.find((d) => d.key.revoked && d.key.agent === env.source) ??
    decisions.find((d) => d.key.agent === env.source) ??
    decisions[0];
  const context = shape.context_match === false ? '; but the signed context does not match the observed headers (the codec was relabelled)' : '';
  const how = asReceived
    ? ` over the envelope as received, which holds fields no AGDX dialect this inspector knows (${asReceived.covers.join(', ')}): they are signed too`
    : '';
  return {
    ...shape,
    status: 'valid',
    signer: best.key.agent || null,
    trusted: best.trusted && shape.context_match !== false,
    not_covered: asReceived ? shape.not_covered.filter((p) => !asReceived.covers.includes(p)) : shape.not_covered,
    reason: `valid under key ${shape.key_id}${how}: ${best.reason}${context}`,
  };
}

/** The signed message over the envelope as received: the domain, the encoded context, the received envelope. */
function receivedSigningInput(env: Envelope, asReceived: AsReceived): Uint8Array {
  const s = signingInputSegments(env);
  return concatBytes(s.domain, s.context, asReceived.envelope);
}

/** Every AGDX record verified against the given keys (after the registry changed, say): new verdicts, the other records as they were. */
export function applyKeys(records: readonly InspectedRecord[], keys: readonly RegistryEntry[], verify?: Ed25519Verify): InspectedRecord[] {
  return records.map((r) => {
    if (keyless(r)) return r;
    const env = r.data.envelope;
    if (!env) return r;
    return withVerdictSignature(
      r,
      verifyEnvelope(env, {
        keys,
        observed: r.data.observed,
        logTimeMicros: r.verdict.logTimeMicros,
        verify,
        notCovered: r.data.asReceived?.notCovered ?? r.verdict.signature.not_covered,
        asReceived: r.data.asReceived,
      }),
    );
  });
}

/**
 * Whether no key can change the record's signature verdict: it has no signature (verifyEnvelope
 * answers with its shape alone, as it was read). Its envelope is then not read: a bulk-read
 * record's is read again from the input each time it is asked for, and most of a log is unsigned.
 */
const keyless = (r: InspectedRecord): boolean => r.verdict.signature.status === 'unsigned';

/** The record with a new signature part in its verdict (the same record when it did not change). */
function withVerdictSignature(r: InspectedRecord, signature: SignatureVerdict): InspectedRecord {
  const verdict = withSignature(r.verdict, signature);
  return verdict === r.verdict ? r : { verdict, data: r.data };
}

/** One Ed25519 check: whether `signature` holds over `message` under `publicKey`. */
export interface VerifyJob {
  signature: Uint8Array;
  message: Uint8Array;
  publicKey: Uint8Array;
}

/** Verifies many signatures elsewhere (a pool of workers), answering in order. */
export type VerifyMany = (jobs: VerifyJob[]) => Promise<boolean[]>;

/**
 * The same as applyKeys, with the Ed25519 checks handed to `verifyMany` (other threads) in one go:
 * the jobs are collected first, then the verdicts are decided with their answers.
 */
export async function applyKeysWith(records: readonly InspectedRecord[], keys: readonly RegistryEntry[], verifyMany: VerifyMany): Promise<InspectedRecord[]> {
  const jobs: VerifyJob[] = [];
  // Each signed record's envelope and signing input, read in the first pass and handed to the second.
  const signed = new Map<InspectedRecord, { envelope: Envelope; message?: Uint8Array }>();
  let current: { envelope: Envelope; message?: Uint8Array } | null = null;
  const collect: Ed25519Verify = (signature, message, publicKey) => {
    jobs.push({ signature, message, publicKey });
    // The first message asked is the canonical input (the as-received one, when there is one, comes after).
    current!.message ??= message;
    return false;
  };
  // First pass: which checks each record needs (verifyEnvelope asks once per distinct key).
  for (const r of records) {
    if (keyless(r)) continue;
    const env = r.data.envelope;
    if (!env?.signature) continue;
    current = { envelope: env };
    signed.set(r, current);
    verifyEnvelope(env, {
      keys,
      observed: r.data.observed,
      logTimeMicros: r.verdict.logTimeMicros,
      verify: collect,
      asReceived: r.data.asReceived,
    });
  }
  const answers = jobs.length ? await verifyMany(jobs) : [];
  let next = 0;
  const answer: Ed25519Verify = () => answers[next++] ?? false;
  // Second pass asks the same questions in the same order, and gets the answers.
  return records.map((r) => {
    // Only a signed envelope's verdict can change (an unsigned one is keyless; one with no envelope has none to check).
    const read = signed.get(r);
    if (!read) return r;
    const signature = verifyEnvelope(read.envelope, {
      keys,
      observed: r.data.observed,
      logTimeMicros: r.verdict.logTimeMicros,
      verify: answer,
      message: read.message,
      notCovered: r.data.asReceived?.notCovered ?? r.verdict.signature.not_covered,
      asReceived: r.data.asReceived,
    });
    return withVerdictSignature(r, signature);
  });
}
