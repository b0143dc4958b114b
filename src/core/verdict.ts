// A record's verdict: what report@1 says of one record, made once when the record is read and
// never changed (a key change makes a new verdict with a new signature part). The log-level
// findings (the graph's, the folds') are not in it: they come from the log as a whole and sit in
// their own map by record (analysis/log.ts). Validity is worked out from both, never stored.
import { sameItems } from './same-items';
import { isDidEntry, type RegistryEntry } from './keys/keys';
import type { RecordFormat, SignatureStatus, SignatureVerdict, Span } from './model';
import type { DecodeErrorCode, FindingRuleId, Severity } from './rules';
import { plural } from './plural';

export type { Severity };

/** What a check concluded about one field of one record (report@1 `findings[]`). */
export interface Finding {
  /** A rule id of the catalogue (rules.ts; stable: the message is for people and may change). */
  rule: FindingRuleId;
  severity: Severity;
  /** The field the finding is about (dotted path), or null for the record as a whole. */
  path: string | null;
  message: string;
  span: Span | null;
}

/** Why a record could not be decoded (report@1 `error`). */
export interface DecodeError {
  code: DecodeErrorCode;
  message: string;
  offset: number | null;
  /**
   * The bytes the error is about, when more than the byte at its offset: for agdx/missing-field,
   * the head of the map that lacks the field. In the page (the hex view), not in the report.
   */
  span?: Span;
}

export interface RecordVerdict {
  readonly input: number;
  /** Position of the record inside its input, from 0. */
  readonly index: number;
  readonly format: RecordFormat;
  /** Bytes of the record inside the input (null for a message of a JSON export: see inputSpan). */
  readonly span: Span | null;
  /** For a JSON export, the message's bytes in the JSON text. */
  readonly inputSpan: Span | null;
  readonly decoded: boolean;
  readonly error: DecodeError | null;
  readonly kind: string | null;
  readonly id: string | null;
  readonly conversation: string | null;
  readonly source: string | null;
  readonly target: string | null;
  /** The record's own findings (the log's are in LogFindings). */
  readonly findings: readonly Finding[];
  readonly signature: SignatureVerdict;
  /** Iggy's append time of the message (epoch µs), when known. */
  readonly logTimeMicros: bigint | null;
  /** The record this one was found inside (a dead letter's payload), as an index in the same input. */
  readonly parent: number | null;
  /** One line saying what the record is, for lists and the CLI. */
  readonly summary: string;
  /** The AGDX dialect the record's fields and headers show (`0.0.1`, `0.7`), or null (not AGDX, or not decoded). */
  readonly dialect: string | null;
  /** What decided the dialect: field paths and `headers.<name>` (empty for 0.0.1). */
  readonly dialectEvidence: readonly string[];
  /** The reference's display type (laser-sdk's dispatch table: `session.started`, `tool.call`, …), or null where it has no row. */
  readonly displayType: string | null;
}

/**
 * Findings about records that come from the log as a whole, by record index: `get` gives undefined
 * for a record without any, and iterating gives the records with some, in record order. Some are
 * made when asked (analysis/log.ts), so a record's list may be a new array each call.
 */
export interface LogFindings extends Iterable<readonly [number, readonly Finding[]]> {
  /**
   * A record's log findings. With `spans` false, those made when asked may have no span (what
   * counting them or reading their rules needs, without finding each field in the record's bytes).
   */
  get(record: number, spans?: boolean): readonly Finding[] | undefined;
}

/** No findings: one shared, frozen list (most records have none, and a large log asks about each). */
export const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

/** report.md: valid is true when the record decoded and no finding (its own, or the log's about it) has severity error. */
export function isValid(verdict: Pick<RecordVerdict, 'decoded' | 'findings'>, logFindings: readonly Finding[] = NO_FINDINGS): boolean {
  return verdict.decoded && !verdict.findings.some(isError) && !logFindings.some(isError);
}

const isError = (f: Finding) => f.severity === 'error';

/** Every finding about a record: its own, then the log's. */
export function allFindings(verdict: Pick<RecordVerdict, 'findings'>, logFindings: readonly Finding[] = NO_FINDINGS): readonly Finding[] {
  return logFindings.length === 0 ? verdict.findings : [...verdict.findings, ...logFindings];
}

/**
 * The same verdict with another signature part (after the keys changed): a new verdict, or this one
 * when nothing changed. A verdict may make some fields when asked (import/fast-record.ts: getters
 * of its class), which a spread would leave out: the copy keeps its prototype.
 */
export function withSignature(verdict: RecordVerdict, signature: SignatureVerdict): RecordVerdict {
  if (sameSignature(verdict.signature, signature)) return verdict;
  return Object.assign(Object.create(Object.getPrototypeOf(verdict) as object) as RecordVerdict, verdict, { signature });
}

/** Every field of a verdict as a plain object's own (those a verdict makes when asked included): what comparing two verdicts field by field needs. */
export function verdictFields(v: RecordVerdict): RecordVerdict {
  return {
    input: v.input,
    index: v.index,
    format: v.format,
    span: v.span,
    inputSpan: v.inputSpan,
    decoded: v.decoded,
    error: v.error,
    kind: v.kind,
    id: v.id,
    conversation: v.conversation,
    source: v.source,
    target: v.target,
    findings: v.findings,
    signature: v.signature,
    logTimeMicros: v.logTimeMicros,
    parent: v.parent,
    summary: v.summary,
    dialect: v.dialect,
    dialectEvidence: v.dialectEvidence,
    displayType: v.displayType,
  };
}

/** Whether two signature verdicts say the same (every field; the same object, or equal ones). */
export function sameSignature(a: SignatureVerdict, b: SignatureVerdict): boolean {
  return (
    a === b ||
    (a.status === b.status &&
      a.scheme === b.scheme &&
      a.key_id === b.key_id &&
      a.signer === b.signer &&
      a.trusted === b.trusted &&
      a.context_match === b.context_match &&
      a.reason === b.reason &&
      sameItems(a.not_covered, b.not_covered))
  );
}

/**
 * Whether an input is unreadable (a PNG, an empty file): nothing in it was a record, so its one
 * record is of format `unknown`, not decoded. Such an input is counted as an input, not a record,
 * by the page and the command line alike (report.md "Command line, as implemented").
 */
export function isUnreadableInput(records: number, first: Pick<RecordVerdict, 'format' | 'decoded'> | undefined): boolean {
  return records === 1 && first !== undefined && first.format === 'unknown' && !first.decoded;
}

// ---------------------------------------------------------------------------------------------
// The verdict in words: every view (the record list's badges, the detail's signature panel, the
// comparison, the graph's nodes, the timeline, the exports and the command line) words a record's
// verdict from here, so no two of them can tell different stories about one record.
// ---------------------------------------------------------------------------------------------

/** How a verdict reads at a glance. Only `good` is green; `untrusted` is a valid signature nobody backs. */
export type VerdictTone = 'good' | 'untrusted' | 'bad' | 'warn' | 'none';

/** What the words of a signature need: its status and trust, and why it is not trusted (trust-note.ts), when known. */
export interface SignatureFacts {
  status: SignatureStatus;
  trusted: boolean;
  /** The few words of why a valid signature is not trusted ("key of booker"); null when not known. */
  note?: string | null;
}

export interface SignatureWords {
  tone: VerdictTone;
  /** The badge: "Signature valid, trusted", "Signature valid, not trusted: key of booker", "Signature invalid". */
  label: string;
  /** Inside a sentence: "valid, trusted", "valid, not trusted", "invalid", "unknown key". */
  words: string;
  /** Shorter, for a graph node's pill: "sig trusted", "not trusted: key of booker", "sig BAD". */
  short: string;
  /** The signature panel's first sentence. */
  sentence: string;
  /** Whether the signature holds: true valid, false invalid or malformed, null when it cannot be said. */
  holds: boolean | null;
}

const STATUS_WORDS: Record<SignatureStatus, Omit<SignatureWords, 'label' | 'words' | 'short'> & { label: string; short: string }> = {
  unsigned: { tone: 'none', label: 'Unsigned', short: 'unsigned', sentence: 'Not signed.', holds: null },
  valid: { tone: 'untrusted', label: 'Signature valid', short: 'sig valid', sentence: 'The signature holds.', holds: true },
  invalid: { tone: 'bad', label: 'Signature invalid', short: 'sig BAD', sentence: 'The signature does NOT hold.', holds: false },
  unknown_key: {
    tone: 'warn',
    label: 'Unknown key',
    short: 'unknown key',
    sentence: 'Signed with a key that is not in your registry: it cannot be checked.',
    holds: null,
  },
  unsupported: {
    tone: 'none',
    label: 'Unsupported scheme',
    short: 'unsupported',
    sentence: 'Signed with a scheme this inspector does not support: passed through unchecked.',
    holds: null,
  },
  malformed: {
    tone: 'bad',
    label: 'Malformed signature',
    short: 'sig malformed',
    sentence: 'The signature is malformed: it cannot be checked, and does not hold.',
    holds: false,
  },
};

// Made once: a status other than valid is worded the same for every record (a summary words each).
const NOT_VALID_WORDS = Object.fromEntries(
  Object.entries(STATUS_WORDS).map(([status, w]) => [status, Object.freeze({ ...w, words: status.replace('_', ' ') })]),
) as Record<SignatureStatus, SignatureWords>;

/** Whether a status means the signature is bad: invalid or malformed (report.md's "badly signed"). */
export const isBadlySigned = (status: SignatureStatus): boolean => status === 'invalid' || status === 'malformed';

/** A signature verdict in the words every view uses. "Signature valid, trusted" is the only green one. */
export function signatureWords(s: SignatureFacts): SignatureWords {
  const w = STATUS_WORDS[s?.status];
  if (!w) throw new TypeError(`signatureWords: unknown signature status ${String(s?.status)}`);
  if (s.status !== 'valid') return NOT_VALID_WORDS[s.status];
  const note = s.note ? `: ${s.note}` : '';
  return s.trusted
    ? {
        ...w,
        tone: 'good',
        label: 'Signature valid, trusted',
        words: 'valid, trusted',
        short: 'sig trusted',
        sentence: 'The signature holds, and your registry trusts its signer.',
      }
    : {
        ...w,
        label: `Signature valid, not trusted${note}`,
        words: 'valid, not trusted',
        short: `not trusted${note}`,
        sentence: 'The signature holds, but your registry does not back its signer.',
      };
}

/** What a record's headline and badges need: its verdicts as the list has them (a RecordSummary is one). */
export interface VerdictFacts {
  decoded: boolean;
  errorCode?: string | null;
  /** Valid with the log's findings counted in. */
  valid: boolean;
  errors: number;
  warnings: number;
  signature: SignatureStatus;
  trusted: boolean;
  trustNote?: string | null;
}

/**
 * Whether a record has a problem to look at (the list's "Any problem", the command line's --quiet):
 * not decoded, an error or warning finding, or a signature that does not hold. Info findings and a
 * signature nobody backs are not problems of the record (--fail-on untrusted asks for those).
 */
export function hasProblem(v: Pick<VerdictFacts, 'decoded' | 'errors' | 'warnings' | 'signature'>): boolean {
  return !v.decoded || v.errors > 0 || v.warnings > 0 || isBadlySigned(v.signature);
}

/** The worst of a record's verdicts, from worst to best: the order every headline and mark goes by. */
export const VERDICT_CLASSES = ['undecoded', 'bad-signature', 'invalid', 'unknown-key', 'untrusted', 'warnings', 'unsigned', 'trusted'] as const;
export type VerdictClass = (typeof VERDICT_CLASSES)[number];

/**
 * The first class of VERDICT_CLASSES that holds of the record: not decoded; a signature that does
 * not hold; an error finding; a key nobody registered; a valid signature nobody backs; warnings;
 * no signature that could be checked (unsigned, an unsupported scheme); else valid and trusted.
 */
export function verdictClass(v: VerdictFacts): VerdictClass {
  if (!v.decoded) return 'undecoded';
  if (isBadlySigned(v.signature)) return 'bad-signature';
  if (!v.valid) return 'invalid';
  if (v.signature === 'unknown_key') return 'unknown-key';
  if (v.signature === 'valid' && !v.trusted) return 'untrusted';
  if (v.warnings > 0) return 'warnings';
  if (v.signature !== 'valid') return 'unsigned';
  return 'trusted';
}

export interface BadgeWords {
  tone: VerdictTone;
  /** In short, on the badge. */
  label: string;
  /** In full: the badge's accessible name and tooltip. */
  title: string;
}

/**
 * The record's headline: the worst of its verdicts, in words. A record whose signature does not
 * hold is never headed by anything milder, whatever its fields say.
 */
export function recordHeadline(v: VerdictFacts): BadgeWords & { class: VerdictClass } {
  const c = verdictClass(v);
  const sig = signatureWords({ status: v.signature, trusted: v.trusted, note: v.trustNote });
  const rest = v.warnings > 0 ? `; ${plural(v.warnings, 'warning')}` : '';
  switch (c) {
    case 'undecoded':
      return { class: c, tone: 'bad', label: 'Not decoded', title: `Not decoded${v.errorCode ? ` (${v.errorCode})` : ''}: nothing of it can be checked` };
    case 'bad-signature':
      return {
        class: c,
        tone: 'bad',
        label: sig.label,
        title: `${sig.label}: the record may have been changed after signing, or forged${v.valid ? '' : `; also ${plural(v.errors, 'error')}`}${rest}`,
      };
    case 'invalid':
      return {
        class: c,
        tone: 'bad',
        label: `Invalid: ${plural(v.errors, 'error')}`,
        title: `Invalid: ${plural(v.errors, 'error finding')}${rest}; ${sig.label.toLowerCase()}`,
      };
    case 'unknown-key':
    case 'untrusted':
      return { class: c, tone: sig.tone, label: sig.label, title: `Valid fields, but ${sig.label.toLowerCase()}${rest}` };
    case 'warnings':
      return {
        class: c,
        tone: 'warn',
        label: plural(v.warnings, 'warning'),
        title: `Valid, with ${plural(v.warnings, 'warning finding')}; ${sig.label.toLowerCase()}`,
      };
    case 'unsigned':
      return {
        class: c,
        tone: 'none',
        label: `Valid, ${sig.label.toLowerCase()}`,
        title: `Valid: no error finding; ${sig.label.toLowerCase()}: nothing vouches for who sent it`,
      };
    case 'trusted':
      return { class: c, tone: 'good', label: 'Valid and trusted', title: 'Valid, and signed by a signer your registry trusts' };
  }
}

/**
 * The separate answers every record gets (Decoded, Valid, its warnings, Signed), never one ✓ that
 * hides which. "Valid" is the rules' verdict on the fields (the validity matrix and the other
 * finding rules), the signature is judged apart; no answer is green while the signature does not hold.
 */
export function verdictBadges(v: VerdictFacts): { decoded: BadgeWords; valid: BadgeWords | null; warnings: BadgeWords | null; signature: BadgeWords } {
  const bad = isBadlySigned(v.signature);
  const green = (ok: boolean): VerdictTone => (!ok ? 'bad' : bad ? 'none' : 'good');
  const sig = signatureWords({ status: v.signature, trusted: v.trusted, note: v.trustNote });
  const but = bad ? `, but ${sig.label.toLowerCase()}` : '';
  return {
    decoded: {
      tone: green(v.decoded),
      label: v.decoded ? 'Decoded' : 'Not decoded',
      title: v.decoded ? `Decoded: yes${but}` : `Decoded: no${v.errorCode ? ` (${v.errorCode})` : ''}`,
    },
    valid: v.decoded
      ? {
          tone: green(v.valid),
          label: v.valid ? 'Valid' : 'Invalid',
          title: v.valid ? `Valid: yes, the fields follow the rules (no error finding)${but}` : `Valid: no (${plural(v.errors, 'error finding')})`,
        }
      : null,
    warnings: v.warnings > 0 ? { tone: 'warn', label: plural(v.warnings, 'warning'), title: `${plural(v.warnings, 'warning finding')} (see Findings)` } : null,
    signature: { tone: sig.tone, label: sig.label, title: `Signed: ${sig.label.charAt(0).toLowerCase()}${sig.label.slice(1)}` },
  };
}

/** An identity's name in the reader's registry (a DID registered as "orchestrator"), or null: see registryNames. */
export type IdentityName = (identity: string) => string | null;

const noNames: IdentityName = () => null;

/**
 * The names a registry gives identities: each DID entry's agent for its DID (the first entry that
 * names one). A key's agent is already the name a record's source is written in.
 */
export function registryNames(keys: readonly RegistryEntry[]): IdentityName {
  if (!Array.isArray(keys)) throw new TypeError('registryNames: a registry (an array of entries) is required');
  const names = new Map<string, string>();
  for (const e of keys) if (isDidEntry(e) && e.agent && !names.has(e.did)) names.set(e.did, e.agent);
  return names.size === 0 ? noNames : (identity) => names.get(identity) ?? null;
}

/** An identity as a person reads it: its registered name with the identity after it, or the identity. */
export function namedIdentity(identity: string, name: IdentityName = noNames): string {
  const n = name(identity);
  return n === null || n === identity ? identity : `${n} (${identity})`;
}

/** A signature's whole story, as the signature panel tells it line by line. */
export interface SignatureStory extends SignatureWords {
  /** Who signed: the signer, or why that is not established. */
  signer: string;
  /** "yes" or "no", and why. */
  trust: string;
  /** What the signature does not cover, in a sentence; null when it covers everything. */
  coverage: string | null;
  /** The signed context against the headers; null when there is no signature. */
  context: string | null;
  /** The verdict's own sentence (the chain, the key, the window). */
  reason: string;
}

/** How many uncovered paths the coverage sentence names before "and N more". */
export const NOT_COVERED_SHOWN = 20;

/**
 * A record's signature story from its verdict, every line worded from the same facts: a signature
 * that does not hold never has a signer, and "trusted" is never yes without a registry entry.
 */
export function signatureStory(sig: SignatureVerdict, options: { note?: string | null; name?: IdentityName } = {}): SignatureStory {
  if (!sig || typeof sig !== 'object' || typeof sig.reason !== 'string') throw new TypeError('signatureStory: a signature verdict is required');
  const words = signatureWords({ status: sig.status, trusted: sig.trusted, note: options.note });
  const name = options.name ?? noNames;
  const key = sig.key_id ? `key ${sig.key_id}` : null;
  let signer: string;
  switch (sig.status) {
    case 'unsigned':
      signer = 'none: the record carries no signature';
      break;
    case 'valid':
      signer = sig.signer ? `${namedIdentity(sig.signer, name)}${key ? ` (${key})` : ''}` : `${key ?? 'a key'} registered for no agent`;
      break;
    case 'invalid':
      signer = key
        ? `not established: the signature does not verify under ${key}`
        : sig.scheme === 'ecdsa-secp256k1'
          ? 'not established: the chain of signatures does not verify'
          : 'not established: the signature does not verify';
      break;
    case 'unknown_key':
      signer = `unknown: ${key ?? 'the key'} is not in your registry`;
      break;
    case 'unsupported':
      signer = 'unknown: the scheme is not supported';
      break;
    case 'malformed':
      signer = 'not established: the signature cannot be read';
      break;
  }
  const trust = sig.trusted
    ? 'yes'
    : sig.status === 'valid'
      ? `no${options.note ? `: ${options.note}` : ''}`
      : `no: ${words.holds === false ? 'the signature does not hold' : sig.status === 'unsigned' ? 'nothing is signed' : 'the signature cannot be checked'}`;
  const paths = sig.not_covered;
  const shown = paths.slice(0, NOT_COVERED_SHOWN);
  const more = paths.length - shown.length;
  const coverage =
    paths.length === 0
      ? null
      : `The signature does not cover: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}. ${
          sig.status === 'valid'
            ? 'The signature holds for the rest; these fields could have been added or changed by anyone after signing, and nothing vouches for them.'
            : 'Whatever becomes of the signature, nothing vouches for these fields.'
        }`;
  const context =
    sig.status === 'unsigned' || sig.scheme === 'ecdsa-secp256k1'
      ? null
      : sig.context_match === null
        ? 'not compared (no signed context, or no headers)'
        : sig.context_match
          ? 'match'
          : 'MISMATCH: the headers name another codec or agent version than the signature covers (the codec was relabelled)';
  return { ...words, signer, trust, coverage, context, reason: sig.reason };
}

/** What an AgentDNA envelope's words need (an EnvelopeReport, or the comparison's side of one). */
export interface EnvelopeFacts {
  hashOk: boolean;
  signature: string;
  didMatch: boolean;
  trusted: boolean;
  /** Whether the signature holds over the stored hash when the content no longer matches it. */
  claimedHashSignature?: string | null;
  duplicateHash?: boolean;
}

/**
 * An AgentDNA envelope's verdicts as tags, worded once for the workflow panel, the comparison and
 * the graph. The key-to-DID binding is a tag only when the signature holds: a signature that does
 * not hold binds nothing, and saying "DID mismatch" beside it would blame a `from` that may never
 * have changed (a changed payload or a damaged signature fails the same way).
 */
export function envelopeWords(e: EnvelopeFacts): {
  hash: BadgeWords;
  signature: BadgeWords;
  binding: BadgeWords | null;
  trust: BadgeWords;
  duplicate: BadgeWords | null;
} {
  const changed = !e.hashOk && e.claimedHashSignature === 'valid';
  const status = e.signature as SignatureStatus;
  const holds = status === 'valid';
  return {
    hash: e.hashOk
      ? { tone: 'good', label: 'Hash ok', title: 'The stored hash is the hash of the content' }
      : { tone: 'bad', label: 'Hash mismatch', title: 'The stored hash is not the hash of the content' },
    signature: holds
      ? { tone: 'none', label: 'Signature valid', title: 'The signature holds over the content hash and its parents’ hashes' }
      : {
          tone: 'bad',
          label: changed ? 'Signature invalid: content changed' : `Signature ${status.replace('_', ' ')}`,
          title: changed
            ? 'The signature was made over the stored hash; the content no longer hashes to it, so the signature does not hold for what the envelope says now'
            : 'The signature does not hold over what the envelope says',
        },
    binding:
      holds && e.didMatch
        ? {
            tone: 'good',
            label: 'Key bound to DID',
            title:
              "A key recovered from the signature derives the from DID (or is your key file's key for it): this binds the signature to the DID, it does not say who that is",
          }
        : null,
    trust: e.trusted
      ? { tone: 'good', label: 'Trusted', title: 'Your registry backs this DID' }
      : { tone: 'none', label: 'Not trusted', title: holds ? 'Your registry does not back this DID' : 'The signature does not hold: nothing to trust' },
    duplicate: e.duplicateHash ? { tone: 'bad', label: 'Duplicate hash', title: 'Another, different envelope of this workflow claims the same hash' } : null,
  };
}
