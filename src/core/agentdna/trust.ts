// AgentDNA trust, from the registry the caller passes (judged by the importer as it reads, and
// applied again whenever the registry changes, without parsing again). A valid signature only
// *binds* the key to the `from` DID (anyone can make a key and its DID); it is trusted when that
// DID is registered (report.md "Key files"): a DID entry, for a key the DID commits to, or a
// secp256k1 key entry whose agent is the DID, for that very key. The record's verdict comes from
// the tip.
import { toHex } from '../bytes';
import { isDidEntry, type RegisteredDid, type RegisteredKey, type RegistryEntry } from '../keys/keys';
import { decideAmong } from '../keys/trust';
import type { SignatureVerdict } from '../model';
import type { InspectedRecord } from '../records';
import { withSignature } from '../verdict';
import { epochSecondsToMicros } from '../time';
import { uncompressedKey } from './ecdsa';
import type { EnvelopeReport } from './model';
import { shortDid } from '../short-id';

/** The trust of one envelope's signature. */
export interface EnvelopeTrust {
  /** The DID the signature is bound to (its `from`, when the signature is valid), or null. */
  signer: string | null;
  trusted: boolean;
  /** In words: which binding, which entry, why (not). */
  trust_reason: string;
}

/** The registry's AgentDNA identities, by DID. */
export interface DidIndex {
  dids: Map<string, RegisteredDid[]>;
  /** secp256k1 key entries by their agent (a DID), with the key uncompressed as hex. */
  keys: Map<string, { entry: RegisteredKey; hex: string }[]>;
}

export function indexDids(registry: readonly RegistryEntry[]): DidIndex {
  const dids = new Map<string, RegisteredDid[]>();
  const keys = new Map<string, { entry: RegisteredKey; hex: string }[]>();
  for (const e of registry) {
    if (isDidEntry(e)) dids.set(e.did, [...(dids.get(e.did) ?? []), e]);
    else if (e.algorithm === 'secp256k1' && e.agent) {
      const full = uncompressedKey(e.publicKey);
      if (full) keys.set(e.agent, [...(keys.get(e.agent) ?? []), { entry: e, hex: toHex(full) }]);
    }
  }
  return { dids, keys };
}

type EnvelopeFacts = Pick<EnvelopeReport, 'signature' | 'from' | 'epoch' | 'key_source' | 'rule' | 'recovered'>;

/** Whether the registry backs this envelope's signature. */
export function envelopeTrust(e: EnvelopeFacts, index: DidIndex): EnvelopeTrust {
  const { signer, trusted, trust_reason } = decideEnvelope(e, index);
  return { signer, trusted, trust_reason };
}

/** envelopeTrust, with the name the registry gives a trusted signer. */
function decideEnvelope(e: EnvelopeFacts, index: DidIndex): EnvelopeTrust & { name: string | null } {
  if (e.signature !== 'valid' || e.from === null)
    return { signer: null, trusted: false, trust_reason: `not trusted: the signature is ${e.signature}`, name: null };
  const did = e.from;
  const bound = e.recovered.find((k) => k.matches && k.rule === e.rule)?.public_key ?? null;
  const byFile = e.key_source === 'key-file';
  const binding = byFile ? 'key bound to DID by your key file' : 'key bound to DID';
  // A DID entry names no key: it backs the key the DID commits to, never one a key file adds.
  const entries: RegistryEntry[] = [
    ...(byFile ? [] : (index.dids.get(did) ?? [])),
    ...(index.keys.get(did) ?? []).filter((k) => k.hex === bound).map((k) => k.entry),
  ];
  const epoch = epochSecondsToMicros(e.epoch);
  const decision = decideAmong(entries, {
    claimed: did,
    operatorOnly: null,
    time: epoch === null ? null : { micros: epoch, from: "the envelope's epoch" },
    noTime: 'the envelope has no epoch that is a number',
  });
  if (!decision) return { signer: did, trusted: false, trust_reason: `signature valid · ${binding} · DID not in your registry`, name: null };
  if (!decision.trusted) return { signer: did, trusted: false, trust_reason: `signature valid · ${binding} · ${decision.reason}`, name: null };
  const name = decision.entry.agent || shortDid(did);
  return { signer: did, trusted: true, trust_reason: `trusted (${name}): ${binding}; ${decision.reason}`, name };
}

/** At most this many paths are named in a sentence about the chain's parents (the count is always given). */
const NAMED_PATHS = 5;

/**
 * What the chain's other envelopes (the tip's ancestors) add to the tip's trust: a chain is as
 * trusted as its least trusted signer, so each ancestor whose signer the registry does not back is
 * counted, grouped by why, with its path. Null when every one is backed (or there are none).
 */
function untrustedParents(parents: readonly (EnvelopeFacts & Pick<EnvelopeReport, 'path'>)[], index: DidIndex): string | null {
  const groups = new Map<string, string[]>();
  for (const p of parents) {
    const t = envelopeTrust(p, index);
    if (t.trusted) continue;
    // "signature valid · key bound to DID · <decision>": the decision says why.
    const why = t.trust_reason.replace(/^signature valid · [^·]* · /, '');
    const paths = groups.get(why);
    if (paths) paths.push(p.path);
    else groups.set(why, [p.path]);
  }
  if (groups.size === 0) return null;
  const n = parents.length;
  return [...groups]
    .map(([why, paths]) => {
      const named = paths.slice(0, NAMED_PATHS).join(', ') + (paths.length > NAMED_PATHS ? ` and ${paths.length - NAMED_PATHS} more` : '');
      const signed = why === 'DID not in your registry' ? 'signed by a DID not in your registry' : `not trusted: ${why}`;
      return `${paths.length} of ${n} parent${n === 1 ? '' : 's'} ${signed} (${named})`;
    })
    .join('; ');
}

/**
 * The record's verdict: the tip's status, made invalid by any envelope of the chain that is not
 * validly signed; trusted only when the whole chain verifies and the registry backs the signer of
 * every envelope of it, the tip's and each parent's: a chain is as trusted as its least trusted
 * signer. The reason says which parents are not. `envelopes[0]` is the tip (they are listed
 * breadth-first from it).
 */
export function workflowSignature(
  envelopes: readonly (EnvelopeFacts & Pick<EnvelopeReport, 'path' | 'signature_reason'>)[],
  index: DidIndex,
  /**
   * What the signatures do not cover (it depends on the document only, not on the registry), or
   * how to list it: asked only of a signed workflow (an unsigned one lists nothing, and the walk
   * over every occurrence is half a million paths in a wide one).
   */
  notCovered: readonly string[] | (() => readonly string[]) = [],
): SignatureVerdict {
  const tip = envelopes[0];
  if (!tip)
    return { status: 'unsigned', scheme: null, key_id: null, signer: null, trusted: false, context_match: null, not_covered: [], reason: 'no envelope' };
  const others = envelopes.slice(1).filter((v) => v.signature !== 'valid');
  let status: SignatureVerdict['status'] = tip.signature;
  let chain = `tip ${tip.signature}: ${tip.signature_reason}`;
  if (others.length > 0) {
    if (tip.signature === 'valid') status = 'invalid';
    chain += `; not valid elsewhere in the chain: ${others.map((v) => `${v.path} ${v.signature}`).join(', ')}`;
  } else if (envelopes.length > 1 && tip.signature === 'valid') {
    chain += `; all ${envelopes.length} envelopes of the chain are validly signed`;
  }
  const trust = decideEnvelope(tip, index);
  // Only a trusted tip needs its parents' words: an untrusted one already says why the record is not.
  const parents = status === 'valid' && trust.trusted ? untrustedParents(envelopes.slice(1), index) : null;
  const trusted = status === 'valid' && trust.trusted && parents === null;
  let reason = chain;
  if (status === 'valid') {
    const n = envelopes.length - 1;
    if (parents !== null) {
      reason = `not trusted: tip trusted (${trust.name}); ${parents} — ${chain}`;
    } else if (trust.trusted && n > 0) {
      reason = `${trust.trust_reason}; the signers of all ${n} parent${n === 1 ? '' : 's'} are trusted too — ${chain}`;
    } else reason = `${trust.trust_reason} — ${chain}`;
  } else if (tip.signature === 'valid') reason = `not trusted: the chain does not verify — ${chain}`;
  return {
    status,
    scheme: 'ecdsa-secp256k1',
    key_id: null,
    signer: trust.signer,
    trusted,
    context_match: null,
    not_covered: status === 'unsigned' ? [] : [...(typeof notCovered === 'function' ? notCovered() : notCovered)],
    reason,
  };
}

/**
 * The registry applied to AgentDNA workflows and their records (`workflow.record` indexes
 * `records`): each envelope's signer and trust, and the record's verdict. Replaces what an earlier
 * registry said, in new workflows and new verdicts (the others are handed back as they were).
 */
export function applyAgentDnaTrust<W extends { record: number; envelopes: EnvelopeReport[] }>(
  records: readonly InspectedRecord[],
  workflows: readonly W[],
  registry: readonly RegistryEntry[],
): { records: InspectedRecord[]; workflows: W[] } {
  const index = indexDids(registry);
  const out = [...records];
  const trusted = workflows.map((w) => {
    const envelopes = w.envelopes.map((e) => ({ ...e, ...envelopeTrust(e, index) }));
    const r = out[w.record];
    if (r) {
      const verdict = withSignature(r.verdict, workflowSignature(envelopes, index, r.verdict.signature.not_covered));
      if (verdict !== r.verdict) out[w.record] = { verdict, data: r.data };
    }
    return { ...w, envelopes };
  });
  return { records: out, workflows: trusted };
}
