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
import { cborLayout, jsonLayout, type FieldSpan } from './bytes';
import { signatureWords, type SignatureMeaning } from './model';

const IDENTICAL = 'Signing inputs identical: the same signature verifies both.';
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

function signedWords(side: 'A' | 'B', v: SignatureVerdict, keyId: string | null): string {
  if (v.status === 'unsigned') return `${side} carries no signature.`;
  const by = keyId ? ` by key id ${keyId}` : v.signer ? ` by ${v.signer}` : '';
  return `${side} is signed${by} (signature ${signatureWords(v.status, v.trusted)}).`;
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
  details.push(signedWords('A', a.signature, capA ? toHex(capA.key_id) : null), signedWords('B', b.signature, capB ? toHex(capB.key_id) : null));
  if (capA && capB && bytesEqual(capA.bytes, capB.bytes)) {
    details.push(
      identical ? 'Both carry the same signature bytes.' : 'Both carry the same signature bytes, over different inputs: it can hold for one of them at most.',
    );
  } else if (capA && capB) {
    details.push(`Their signature bytes differ${bytesEqual(capA.key_id, capB.key_id) ? ' (the same key id)' : ' (different key ids)'}.`);
  } else if (identical && (capA || capB)) {
    details.push(`${capA ? 'A' : 'B'}'s signature would verify ${capA ? 'B' : 'A'} too, which carries none.`);
  }
  return { verdict: identical ? 'identical' : 'different', headline: identical ? IDENTICAL : DIFFERENT, except, details, segments };
}

/** Two AgentDNA envelopes (the tips of two workflows): their signed messages, and what differs in what they hash. */
export function agentDnaSigningMeaning(a: EnvelopeReport, b: EnvelopeReport): SignatureMeaning {
  const side = (name: 'A' | 'B', e: EnvelopeReport) =>
    e.signature === 'valid'
      ? `${name} is signed by ${e.signer ?? e.from ?? '?'} (signature valid${e.trusted ? ', trusted' : ', not trusted'}).`
      : `${name}'s signature is ${e.signature}${e.signature_reason ? `: ${e.signature_reason}` : ''}.`;
  if (a.message === null || b.message === null) {
    const which = a.message === null ? a : b;
    return {
      verdict: 'not-comparable',
      headline: `No signed message can be formed for ${which === a ? 'A' : 'B'}: the signing inputs cannot be compared.`,
      except: [],
      details: [which.message_problem ? `${which === a ? 'A' : 'B'}: ${which.message_problem}.` : '', side('A', a), side('B', b)].filter(Boolean),
      segments: null,
    };
  }
  const identical = a.message === b.message;
  const except: string[] = [];
  if (!identical) {
    const ca = utf8Encode(a.content_json ?? '');
    const cb = utf8Encode(b.content_json ?? '');
    except.push(...differingMembers(ca, jsonLayout(ca), cb, jsonLayout(cb)));
    if (a.parents.join('\n') !== b.parents.join('\n')) except.push('the parents’ hashes');
  }
  const details: string[] = [];
  if (!identical) details.push(except.length ? `Same signed message except ${quote(except)}.` : 'The signed messages differ.');
  details.push(side('A', a), side('B', b));
  if (a.signature_hex !== null && a.signature_hex === b.signature_hex) {
    details.push(identical ? 'Both carry the same signature.' : 'Both carry the same signature, over different messages: it can hold for one of them at most.');
  }
  return {
    verdict: identical ? 'identical' : 'different',
    headline: identical
      ? 'Signed messages identical: the same signature verifies both.'
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
