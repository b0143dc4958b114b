// A record's verdict: what report@1 says of one record, made once when the record is read and
// never changed (a key change makes a new verdict with a new signature part). The log-level
// findings (the graph's, the folds') are not in it: they come from the log as a whole and sit in
// their own map by record (log/analysis.ts). Validity is worked out from both, never stored.
import type { DecodeError, Finding, RecordFormat, SignatureVerdict, Span } from './model';

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
 * made when asked (log/analysis.ts), so a record's list may be a new array each call.
 */
export interface LogFindings extends Iterable<readonly [number, readonly Finding[]]> {
  /**
   * A record's log findings. With `spans` false, those made when asked may have no span (what
   * counting them or reading their rules needs, without finding each field in the record's bytes).
   */
  get(record: number, spans?: boolean): readonly Finding[] | undefined;
}

const NONE: readonly Finding[] = Object.freeze([]);

/** report.md: valid is true when the record decoded and no finding (its own, or the log's about it) has severity error. */
export function isValid(verdict: Pick<RecordVerdict, 'decoded' | 'findings'>, logFindings: readonly Finding[] = NONE): boolean {
  return verdict.decoded && !verdict.findings.some(isError) && !logFindings.some(isError);
}

const isError = (f: Finding) => f.severity === 'error';

/** Every finding about a record: its own, then the log's. */
export function allFindings(verdict: Pick<RecordVerdict, 'findings'>, logFindings: readonly Finding[] = NONE): readonly Finding[] {
  return logFindings.length === 0 ? verdict.findings : [...verdict.findings, ...logFindings];
}

/** The same verdict with another signature part (after the keys changed): a new verdict, or this one when nothing changed. */
export function withSignature(verdict: RecordVerdict, signature: SignatureVerdict): RecordVerdict {
  return sameSignature(verdict.signature, signature) ? verdict : { ...verdict, signature };
}

function sameSignature(a: SignatureVerdict, b: SignatureVerdict): boolean {
  return (
    a === b ||
    (a.status === b.status &&
      a.scheme === b.scheme &&
      a.key_id === b.key_id &&
      a.signer === b.signer &&
      a.trusted === b.trusted &&
      a.context_match === b.context_match &&
      a.reason === b.reason &&
      a.not_covered.length === b.not_covered.length &&
      a.not_covered.every((p, i) => p === b.not_covered[i]))
  );
}
