// A record as the inspector concluded it: the report@1 fields plus what a person needs to see it.
import type { Envelope } from './agdx/envelope';
import type { WorkflowReport } from './agentdna/model';
import type { ObservedHeaders } from './agdx/headers';
import type { BodyView, DecodeError, FieldNode, Finding, HeaderView, LogPosition, RecordFormat, SignatureVerdict, Span, ViewOrigin } from './model';

export interface RecordResult {
  input: number;
  index: number;
  format: RecordFormat;
  /** Bytes of the record inside the input (null for a message of a JSON export: see inputSpan). */
  span: Span | null;
  /** For a JSON export, the message's bytes in the JSON text. */
  inputSpan: Span | null;
  decoded: boolean;
  error: DecodeError | null;
  kind: string | null;
  id: string | null;
  conversation: string | null;
  source: string | null;
  target: string | null;
  valid: boolean;
  findings: Finding[];
  signature: SignatureVerdict;
  /** One line saying what the record is, for lists and the CLI. */
  summary: string;
  /** The bytes that `span`, the findings' spans and the tree's spans index. */
  view: Uint8Array;
  viewOrigin: ViewOrigin;
  tree: FieldNode[];
  headers: HeaderView[] | null;
  body: BodyView | null;
  /** The body's content bytes in `view`, when it is one definite byte string (for redaction). */
  bodySpan: Span | null;
  /** Iggy's append time of the message (epoch µs), when known. */
  logTimeMicros: bigint | null;
  logPosition: LogPosition | null;
  /** The record this one was found inside (a dead letter's payload), as an index in the same input. */
  parent: number | null;
  envelope: Envelope | null;
  /** agdx.ct / agdx.av as the record's headers give them (null without headers). */
  observed: ObservedHeaders | null;
  /**
   * Set on records loaded in bulk without their views (tree, rendered body): rebuilds the record
   * in full. Its verdicts and findings equal this one's.
   */
  redo?: () => RecordResult;
}

export interface InputResult {
  name: string;
  bytes: number;
  sha256: string;
  /** How the input was read: cbor, cbor-seq, iggy-json, iggy-headers, json, hex(…), base64(…), unknown. */
  format: string;
}

export interface InspectResult {
  inputs: InputResult[];
  records: RecordResult[];
  /** AgentDNA workflows; `record` indexes `records`. */
  workflows: WorkflowReport[];
}

/** Valid: decoded and no finding of severity error. */
export function isValid(decoded: boolean, findings: Finding[]): boolean {
  return decoded && !findings.some((f) => f.severity === 'error');
}
