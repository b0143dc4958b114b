// Why a valid signature is not trusted, in a few words for a badge ("not trusted: key of booker").
// The verdict says it in a sentence (`reason`, made by verify.ts and agentdna/trust.ts from the
// trust decision in trust.ts); this picks the decision's part out of that sentence. The tests build
// real verdicts for every decision, so a change to the wording there fails here.
import type { SignatureVerdict } from '../model';

/** What the note is read from (an AgentDNA envelope's own verdict fits too: its status and trust_reason). */
export type TrustNoteInput = Pick<SignatureVerdict, 'status' | 'trusted' | 'signer' | 'reason'> & Partial<Pick<SignatureVerdict, 'context_match'>>;

// Strings a record controls reach the sentence only JSON-quoted (the record's source); they are
// blanked before matching, so a source that reads "is revoked in your registry" cannot pick the note.
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** At most `n` code points of an agent's name (a registry may hold long ones): a badge stays short. */
const clip = (s: string, n: number) =>
  Array.from(s).length <= n
    ? s
    : `${Array.from(s)
        .slice(0, n - 1)
        .join('')}…`;

/**
 * The few words a badge shows after "not trusted: " for a signature that is valid and not trusted;
 * null when the signature is trusted or not valid (its own badge says what it is).
 */
export function trustNote(v: TrustNoteInput): string | null {
  if (v === null || typeof v !== 'object' || typeof v.reason !== 'string') throw new TypeError('trustNote: a signature verdict is required');
  if (v.status !== 'valid' || v.trusted) return null;
  const plain = v.reason.replace(QUOTED, '""');
  // AgentDNA: "signature valid · key bound to DID · <decision> — tip valid: …" (the chain after the dash).
  // AGDX: "valid under key <id>: <decision>[; but the signed context does not match …]".
  const decision = plain
    .split(' — ')[0]
    .replace(/^valid under key [0-9a-f]+: /, '')
    .replace(/^signature valid · [^·]* · /, '');
  const context = /; but the signed context does not match/.test(decision);
  const head = decision.replace(/; but the signed context does not match.*$/, '');
  // Whose entry the decision is about: the registry label it names first ("key 0102… of booker", "DID bafy…").
  const what = /\b(DID|key) /.exec(head)?.[1] ?? 'key';
  // AgentDNA, a trusted tip over parents whose signers are not: "… 1 of 4 parents signed by a DID not in your registry (…)".
  if (/^not trusted: tip trusted /.test(head)) {
    const counts = [...head.matchAll(/(\d+) of (\d+) parents? /g)];
    const k = counts.reduce((sum, m) => sum + Number(m[1]), 0);
    return `${k} of ${counts[0]?.[2] ?? '?'} parents not trusted`;
  }
  if (/DID not in your registry/.test(head)) return 'DID not in your registry';
  if (/ is revoked in your registry/.test(head)) return `${what} revoked`;
  if (/must be signed by an operator key/.test(head)) return 'needs an operator key';
  if (/ is not the signer's DID/.test(head)) return "not the signer's DID";
  if (/ is registered for "", not for the record's source/.test(head)) return `key of ${v.signer ? clip(v.signer, 24) : 'another agent'}`;
  if (/ is not registered for any agent/.test(head)) return 'key of no agent';
  if (/the window cannot be satisfied/.test(head)) return `no time for the ${what}'s window`;
  if (/ is not signed and can only narrow trust/.test(head)) return `log time outside the ${what}'s window`;
  if (/'s window opens/.test(head)) return `before the ${what}'s window`;
  if (/'s window closed/.test(head)) return `after the ${what}'s window`;
  if (context) return 'signed context differs';
  return 'not backed by your registry';
}
