// What two records' differences mean for their signatures. AGDX signs domain ‖ signed context ‖
// the canonical envelope without its signature (canonical.ts signingInputSegments): when those
// bytes are equal, one signature verifies both; when they differ, the fields that differ are the
// ones a signature over one does not cover in the other. AgentDNA signs a message made of the
// content hash and the parents' claimed hashes: the same reasoning over the hashed content JSON.
import { signingInputSegments } from '../agdx/canonical';
import type { Envelope } from '../agdx/envelope';
import type { EnvelopeReport } from '../agentdna/model';
import { bytesEqual, toHex, utf8Encode } from '../bytes';
import type { SignatureVerdict } from '../model';
import { signatureWords } from '../verdict';
import { cborLayout, jsonLayout, type FieldSpan } from './bytes';
import type { SignatureMeaning } from './model';

const DIFFERENT = 'Different signing input: a signature over one does not cover the other.';

const quote = (names: readonly string[]) => {
  const q = names.map((n) => `\`${n}\``);
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} and ${q[q.length - 1]}`;
};

/**
 * The top-level members whose bytes differ between two encodings (or that only one has), in the
 * order of both: A's, with B's own members where they fall in B (a canonical order is kept).
 */
function differingMembers(a: Uint8Array, la: readonly FieldSpan[], b: Uint8Array, lb: readonly FieldSpan[]): string[] {
  const bytesOf = (bytes: Uint8Array, f: FieldSpan) => bytes.subarray(f.start, f.end);
  const inA = new Map(la.map((f) => [f.name, f]));
  const inB = new Map(lb.map((f) => [f.name, f]));
  const out: string[] = [];
  let j = 0;
  const bOnlyBefore = (name: string | null) => {
    for (; j < lb.length && lb[j].name !== name; j++) if (!inA.has(lb[j].name)) out.push(lb[j].name);
  };
  for (const f of la) {
    const g = inB.get(f.name);
    if (g && lb.indexOf(g) >= j) {
      bOnlyBefore(f.name);
      j++;
    }
    if (!g || !bytesEqual(bytesOf(a, f), bytesOf(b, g))) out.push(f.name);
  }
  bOnlyBefore(null);
  return out;
}

/**
 * What verifies on one side, from that side's own verdict (never from the shared signing input
 * alone): for an AgentDNA workflow the record's verdict is the chain's, and `tip` says whether the
 * tip's own signature held when the chain did not.
 */
function verifies(v: SignatureVerdict, tip?: Pick<EnvelopeReport, 'signature'>): string {
  const words = signatureWords(v).words;
  switch (v.status) {
    case 'unsigned':
      return 'there is no signature';
    case 'valid':
      return `the signature holds (${words})`;
    case 'invalid':
      return tip?.signature === 'valid' ? "the tip's signature holds, but the chain does not verify (invalid)" : 'the signature does not hold (invalid)';
    case 'malformed':
      return 'the signature does not hold (malformed)';
    default:
      return `the signature cannot be checked (${words})`;
  }
}

/** The headline for identical signing inputs: the same signature verifies both only when both verdicts say it holds. */
function identicalHeadline(what: string, a: SignatureVerdict, b: SignatureVerdict, tips?: [EnvelopeReport, EnvelopeReport]): string {
  if (a.status === 'valid' && b.status === 'valid') return `${what} identical: the same signature verifies both.`;
  const [va, vb] = [verifies(a, tips?.[0]), verifies(b, tips?.[1])];
  return `${what} identical: a signature over one would cover the other. ${va === vb ? `On both ${va}` : `On A ${va}; on B ${vb}`}.`;
}

/** One side's signature in a sentence: who signed it, and what its verdict says. */
function signedWords(side: 'A' | 'B', v: SignatureVerdict, by: string | null, tip?: EnvelopeReport): string {
  if (v.status === 'unsigned') return `${side} carries no signature.`;
  return `${side} is signed${by ? ` by ${by}` : ''}: ${verifies(v, tip)}.`;
}

/** Two AGDX envelopes: their signing inputs segment by segment, and what differs. */
export function agdxSigningMeaning(
  a: { envelope: Envelope; signature: SignatureVerdict },
  b: { envelope: Envelope; signature: SignatureVerdict },
): SignatureMeaning {
  const sa = signingInputSegments(a.envelope);
  const sb = signingInputSegments(b.envelope);
  const segments = { domain: bytesEqual(sa.domain, sb.domain), context: bytesEqual(sa.context, sb.context), envelope: bytesEqual(sa.envelope, sb.envelope) };
  const identical = segments.domain && segments.context && segments.envelope;
  const except = identical ? [] : differingMembers(sa.envelope, cborLayout(sa.envelope), sb.envelope, cborLayout(sb.envelope));
  if (!segments.context) except.push('the signed context');
  const capA = a.envelope.signature;
  const capB = b.envelope.signature;
  const details: string[] = [];
  if (!identical) details.push(`Same signing input except ${quote(except)}.`);
  details.push(
    signedWords('A', a.signature, capA ? `key id ${toHex(capA.key_id)}` : a.signature.signer),
    signedWords('B', b.signature, capB ? `key id ${toHex(capB.key_id)}` : b.signature.signer),
  );
  if (capA && capB && bytesEqual(capA.bytes, capB.bytes)) {
    details.push(
      identical ? 'Both carry the same signature bytes.' : 'Both carry the same signature bytes, over different inputs: it can hold for one of them at most.',
    );
  } else if (capA && capB) {
    details.push(`Their signature bytes differ${bytesEqual(capA.key_id, capB.key_id) ? ' (the same key id)' : ' (different key ids)'}.`);
  } else if (identical && (capA || capB)) {
    details.push(`${capA ? 'A' : 'B'}'s signature would verify ${capA ? 'B' : 'A'} too, which carries none.`);
  }
  return {
    verdict: identical ? 'identical' : 'different',
    headline: identical ? identicalHeadline('Signing inputs', a.signature, b.signature) : DIFFERENT,
    except,
    details,
    segments,
  };
}

/**
 * Two AgentDNA workflows by their tips: their signed messages, and what differs in what they hash.
 * What verifies on each side is that side's record verdict (`va`, `vb`: the whole chain's), so a
 * workflow whose tip is untouched but whose chain was tampered with never reads as verified.
 */
export function agentDnaSigningMeaning(
  a: { tip: EnvelopeReport; signature: SignatureVerdict },
  b: { tip: EnvelopeReport; signature: SignatureVerdict },
): SignatureMeaning {
  const ta = a.tip;
  const tb = b.tip;
  const side = (name: 'A' | 'B', s: { tip: EnvelopeReport; signature: SignatureVerdict }) =>
    signedWords(name, s.signature, s.signature.signer ?? s.tip.from, s.tip);
  if (ta.message === null || tb.message === null) {
    const which = ta.message === null ? ta : tb;
    return {
      verdict: 'not-comparable',
      headline: `No signed message can be formed for ${which === ta ? 'A' : 'B'}: the signing inputs cannot be compared.`,
      except: [],
      details: [which.message_problem ? `${which === ta ? 'A' : 'B'}: ${which.message_problem}.` : '', side('A', a), side('B', b)].filter(Boolean),
      segments: null,
    };
  }
  const identical = ta.message === tb.message;
  const except: string[] = [];
  if (!identical) {
    const ca = utf8Encode(ta.content_json ?? '');
    const cb = utf8Encode(tb.content_json ?? '');
    except.push(...differingMembers(ca, jsonLayout(ca), cb, jsonLayout(cb)));
    if (ta.parents.join('\n') !== tb.parents.join('\n')) except.push('the parents’ hashes');
  }
  const details: string[] = [];
  if (!identical) details.push(except.length ? `Same signed message except ${quote(except)}.` : 'The signed messages differ.');
  details.push(side('A', a), side('B', b));
  if (ta.signature_hex !== null && ta.signature_hex === tb.signature_hex) {
    details.push(
      identical ? 'Both tips carry the same signature.' : 'Both carry the same signature, over different messages: it can hold for one of them at most.',
    );
  }
  return {
    verdict: identical ? 'identical' : 'different',
    headline: identical
      ? identicalHeadline('Signed messages', a.signature, b.signature, [ta, tb])
      : 'Different signed message: a signature over one does not cover the other.',
    except,
    details,
    segments: null,
  };
}

/** Records with no signing input to compare (a capsule, a control frame, an unreadable input, or one of each scheme). */
export function noSigningMeaning(why: string): SignatureMeaning {
  return { verdict: 'not-comparable', headline: why, except: [], details: [], segments: null };
}
