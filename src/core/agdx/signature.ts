// The signature verdict of an AGDX record (report.md `signature`). Shape checks and context
// matching live here; key lookup and Ed25519 verification plug in through `verify`.
import type { Span } from '../bytes';
import { bytesEqual, crockfordBytes, toCrockford, toHex } from '../bytes';
import type { SignatureVerdict } from '../model';
import type { DecodedEnvelope, Envelope } from './envelope';
import { BROADCAST, type ObservedHeaders } from './headers';
import { headerString, headerUint, type Header } from './iggy';
import { finding } from '../rules';
import { type Finding, NO_FINDINGS } from '../verdict';

export interface SignatureCheck {
  verdict: SignatureVerdict;
  findings: readonly Finding[];
}

// One shared answer for every unsigned record (most of a log): frozen, so nothing can change it.
const UNSIGNED: SignatureCheck = Object.freeze({
  verdict: Object.freeze({
    status: 'unsigned',
    scheme: null,
    key_id: null,
    signer: null,
    trusted: false,
    context_match: null,
    not_covered: Object.freeze([]) as unknown as string[],
    reason: 'the record carries no signature',
  }),
  findings: NO_FINDINGS,
}) as SignatureCheck;

/** Context match: the signed context against the observed agdx.ct / agdx.av; null when either is absent. */
export function contextMatch(env: Envelope, observed: ObservedHeaders | null): boolean | null {
  const ctx = env.signature?.context;
  if (!ctx || !observed) return null;
  if (ctx.content_type !== undefined && observed.ct !== null && ctx.content_type !== observed.ct) return false;
  if (ctx.agent_version !== undefined && observed.av !== null && ctx.agent_version !== observed.av) return false;
  if ((ctx.content_type !== undefined && observed.ct === null) || (ctx.agent_version !== undefined && observed.av === null)) return null;
  return true;
}

/**
 * What a signed record holds that its signature does not cover (report.md `not_covered`), as field
 * paths. The signed message is the domain, the encoded context and the canonical re-encoding of
 * the decoded envelope, and the decoder keeps no unknown key: so every unknown field (of the
 * envelope, usage, the signature capsule or its context) is outside it. The record's log headers
 * are outside it too, except where a signed value fixes theirs: agdx.ct / agdx.av equal to the
 * signed context's, gen_ai.conversation.id naming the signed conversation (as a u128 or as text),
 * agdx.to equal to the signed target (or `*` without one), gen_ai.agent.id the signed source,
 * agdx.parent_conv / agdx.root_conv the signed parent / root (a laser record's partition_key
 * likewise). Empty for an unsigned envelope.
 */
export function uncoveredPaths(decoded: DecodedEnvelope, headers?: readonly Header[], partitionKey?: string): string[] {
  const names = (h: Header, id: Uint8Array): boolean => {
    const text = headerString(h);
    const bytes = text === null ? null : crockfordBytes(text);
    return bytes !== null && bytesEqual(bytes, id);
  };
  const env = decoded.envelope;
  if (!env.signature) return [];
  const out = decoded.unknown.map((u) => u.name);
  const ctx = env.signature.context;
  const fixed = (h: Header): boolean => {
    switch (h.name) {
      case 'agdx.ct':
        return ctx?.content_type !== undefined && headerUint(h) === BigInt(ctx.content_type);
      case 'agdx.av':
        return ctx?.agent_version !== undefined && headerUint(h) === BigInt(ctx.agent_version);
      case 'gen_ai.conversation.id':
        // A little-endian u128 (the envelope's id is big-endian), or the Crockford id as text (0.7).
        return h.kind === 'uint128' ? h.value.length === 16 && bytesEqual(h.value.slice().reverse(), env.conversation) : names(h, env.conversation);
      case 'agdx.to':
        // `*` addresses every agent: what an envelope without a target is.
        return env.target !== undefined ? headerString(h) === env.target : headerString(h) === BROADCAST;
      case 'gen_ai.agent.id':
        return headerString(h) === env.source;
      case 'agdx.parent_conv':
        return env.parent !== undefined && names(h, env.parent);
      case 'agdx.root_conv':
        return env.root !== undefined && names(h, env.root);
      default:
        return false;
    }
  };
  for (const h of headers ?? []) if (!fixed(h)) out.push(`headers.${h.name}`);
  if (partitionKey !== undefined && partitionKey !== toCrockford(env.conversation)) out.push('partition_key');
  return [...new Set(out)];
}

/**
 * The findings of the signature's shape alone (an Ed25519 key id of 8 bytes, a signature of 64),
 * without the verdict: what bulk decoding needs, once per record. checkSignatureShape's findings
 * are these.
 */
export function signatureShapeFindings(env: Envelope, spanOf: (path: string) => Span | null): readonly Finding[] {
  const sig = env.signature;
  if (sig?.scheme !== 1 || (sig.key_id.length === 8 && sig.bytes.length === 64)) return NO_FINDINGS;
  const problems: Finding[] = [];
  if (sig.key_id.length !== 8) {
    problems.push(finding('agdx/signature/shape', 'signature.key_id', `an Ed25519 key id is 8 bytes, found ${sig.key_id.length}`, spanOf('signature.key_id')));
  }
  if (sig.bytes.length !== 64) {
    problems.push(finding('agdx/signature/shape', 'signature.bytes', `an Ed25519 signature is 64 bytes, found ${sig.bytes.length}`, spanOf('signature.bytes')));
  }
  return problems;
}

/**
 * Everything about the signature that needs no key: unsigned, unsupported scheme, malformed
 * lengths. For a well-shaped Ed25519 signature with no registry to look the key up in, the
 * verdict is unknown_key: a signature is never reported valid without a key that checks it.
 */
export function checkSignatureShape(
  env: Envelope,
  observed: ObservedHeaders | null,
  spanOf: (path: string) => Span | null,
  notCovered?: string[],
): SignatureCheck {
  const sig = env.signature;
  if (!sig) {
    return UNSIGNED;
  }
  const keyId = keyIdHex(sig.key_id);
  const contextMatched = contextMatch(env, observed);
  // Written out (no spread of a shared base), in the verdict's usual key order: this runs once per
  // signed record of a large log.
  if (sig.scheme !== 1) {
    const reason = `signature scheme ${sig.scheme} is not one this inspector knows (1 = Ed25519); passed through unchecked`;
    return {
      verdict: {
        key_id: keyId,
        signer: null,
        trusted: false,
        context_match: contextMatched,
        not_covered: notCovered ?? [],
        status: 'unsupported',
        scheme: null,
        reason,
      },
      findings: NO_FINDINGS,
    };
  }
  const problems = signatureShapeFindings(env, spanOf);
  if (problems.length) {
    const reason = problems.map((p) => p.message).join('; ');
    return {
      verdict: {
        key_id: keyId,
        signer: null,
        trusted: false,
        context_match: contextMatched,
        not_covered: notCovered ?? [],
        status: 'malformed',
        scheme: 'ed25519',
        reason,
      },
      findings: problems,
    };
  }
  // Nothing uncovered and no context matched (the bulk reader's records: most of a log's): the
  // records by one key share one answer.
  if (!notCovered?.length && contextMatched === null) return sharedUnknownKey();
  return {
    verdict: {
      key_id: keyId,
      signer: null,
      trusted: false,
      context_match: contextMatched,
      not_covered: notCovered ?? [],
      status: 'unknown_key',
      scheme: 'ed25519',
      reason: unknownKeyReason,
    },
    findings: NO_FINDINGS,
  };
}

// The hex of the last key id met and the unknown_key reason naming it: a log has few signers, so
// most signed records reuse both rather than make them again.
let lastKeyId: Uint8Array | null = null;
let lastKeyIdHex = '';
let unknownKeyReason = '';
/** The unknown_key answer for the last key id with nothing uncovered and no context matched: one for its records. */
let unknownKeyCheck: SignatureCheck | null = null;

/** A well-shaped Ed25519 signature by the last key id met, with no context matched and nothing uncovered: the answer its records share, frozen. */
function sharedUnknownKey(): SignatureCheck {
  unknownKeyCheck ??= Object.freeze({
    verdict: Object.freeze({
      key_id: lastKeyIdHex,
      signer: null,
      trusted: false,
      context_match: null,
      not_covered: Object.freeze([]) as unknown as string[],
      status: 'unknown_key',
      scheme: 'ed25519',
      reason: unknownKeyReason,
    }),
    findings: NO_FINDINGS,
  }) as SignatureCheck;
  return unknownKeyCheck;
}

function keyIdHex(keyId: Uint8Array): string {
  if (lastKeyId === null || !bytesEqual(lastKeyId, keyId)) {
    lastKeyId = keyId.slice(); // a copy: no view of an input is kept here
    lastKeyIdHex = toHex(keyId);
    unknownKeyReason = `no registered key has key id ${lastKeyIdHex}`;
    unknownKeyCheck = null;
  }
  return lastKeyIdHex;
}
