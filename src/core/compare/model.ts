// The comparison model: what comparing two records, two AgentDNA workflows or two logs (two
// conversations, two inputs) finds, as plain data (it crosses from the worker to the page, and a
// test reads it). Made by records.ts, workflow.ts and log.ts; drawn by the page's Comparison region.
import type { SignatureStatus, Span } from '../model';

/** What became of a field: the same on both sides, only on B (added), only on A (removed), or different. */
export type ChangeStatus = 'same' | 'added' | 'removed' | 'changed';

/** One row of a structural diff: a field of either side (a map or list row is followed by its children). */
export interface FieldRow {
  /** Dotted path with list indexes (`metadata.tags[1]`, `body.items[0].name`): A's, or B's for a row only on B. */
  path: string;
  /** Nesting, from 0 for a top-level field. */
  depth: number;
  status: ChangeStatus;
  /** The value on each side as a person reads it (cut at 300 characters); null where the side has no such field. */
  a: string | null;
  b: string | null;
  /** A map or list (its rows follow, one deeper). */
  container: boolean;
}

export interface ChangeCounts {
  added: number;
  removed: number;
  changed: number;
}

/** How two bodies were compared: as JSON or CBOR (structurally), as text, or as bytes. */
export type BodyReading = 'json' | 'cbor' | 'text' | 'bytes';

export interface FieldDiff {
  rows: FieldRow[];
  /** Changes counted where they start (an added map counts once, not once per member). */
  counts: ChangeCounts;
  /** Rows left out past the limit (their changes are still counted). */
  omitted: number;
  /** How the bodies compared, when either has one: each side's reading and the one used for both. */
  body: { a: BodyReading | null; b: BodyReading | null; compared: BodyReading } | null;
}

/** One stretch of a byte diff, in order: equal, or differing bytes of A and B (either may be empty). */
export interface ByteRange {
  op: 'equal' | 'changed';
  a: Span;
  b: Span;
  /** The top-level fields the stretch touches, on either side (a changed stretch only). */
  fields: string[];
}

export interface ByteDiff {
  /** What the bytes are: the canonical encodings, the hashed content JSON, or the bytes as received. */
  what: 'agdx-canonical' | 'agentdna-content' | 'received';
  a: Uint8Array;
  b: Uint8Array;
  /** The stretches, covering both wholly. */
  ranges: ByteRange[];
  /** Bytes of A and of B in changed stretches. */
  differing: { a: number; b: number };
  identical: boolean;
  /** False when the two were too different to align byte by byte: the differing middle is one stretch. */
  exact: boolean;
  /** Either side was cut to the first MAX bytes for the crossing. */
  truncated: boolean;
}

/** What the difference means for signatures: whether a signature over one covers the other. */
export interface SignatureMeaning {
  /** The signing inputs are byte for byte the same, differ, or cannot be compared (no signing input, or two schemes). */
  verdict: 'identical' | 'different' | 'not-comparable';
  /** One sentence: "Signing inputs identical: the same signature verifies both." */
  headline: string;
  /** The fields of the signing input that differ (`body`, `metadata`, `the signed context`…), in order. */
  except: string[];
  /** More, each a sentence: what each side carries, whether their signatures are the same bytes. */
  details: string[];
  /** AGDX: which of the three segments (domain, signed context, canonical envelope) are equal. */
  segments: { domain: boolean; context: boolean; envelope: boolean } | null;
}

/** A record's verdicts as the comparison shows them side by side. */
export interface VerdictSide {
  decoded: boolean;
  valid: boolean;
  signature: SignatureStatus;
  trusted: boolean;
  /** Why, in the verdict's words. */
  reason: string;
  errors: number;
  warnings: number;
  /** The AGDX dialect its fields show, and the reference's display type (docs/report.md "Dialects"). */
  dialect: string | null;
  displayType: string | null;
}

export interface VerdictDiff {
  a: VerdictSide;
  b: VerdictSide;
  /** Sentences for what differs: "valid on A, not on B", "signature valid → invalid". */
  changes: string[];
  /** Rule ids (and error codes) found on one side only. */
  onlyA: string[];
  onlyB: string[];
}

/** One side of a comparison: which record, where from, and what it is. */
export interface SideInfo {
  key: number;
  input: number;
  inputName: string;
  index: number;
  format: string;
  kind: string | null;
  id: string | null;
  summary: string;
}

// ---------- AgentDNA workflows ----------

/** The fields of an AgentDNA envelope a comparison looks at (the hashed content and the DAG). */
export const ENVELOPE_COMPARED = ['payload', 'from', 'to', 'epoch', 'status', 'parents', 'hash'] as const;
export type EnvelopeField = (typeof ENVELOPE_COMPARED)[number];

export interface EnvelopeSide {
  /** Index in the workflow's envelopes (breadth-first from the tip). */
  index: number;
  path: string;
  hash: string;
  from: string | null;
  to: string | null;
  epoch: string | null;
  payload: string | null;
  status: string | null;
  /** The parents' claimed hashes, sorted as signed. */
  parents: string[];
  hashOk: boolean;
  signature: string;
  didMatch: boolean;
  trusted: boolean;
}

export interface EnvelopePair {
  a: EnvelopeSide | null;
  b: EnvelopeSide | null;
  /** How the two were matched: the same claimed hash, or the same place in the DAG; null for one side only. */
  matchedBy: 'hash' | 'position' | null;
  /** The compared fields that differ. */
  differs: EnvelopeField[];
  /** The hash or signature verdicts differ. */
  verdictsDiffer: boolean;
}

export interface WorkflowDiff {
  pairs: EnvelopePair[];
  modes: { a: { light: number; heavy: number; boundary: number }; b: { light: number; heavy: number; boundary: number } };
  counts: { same: number; differing: number; onlyA: number; onlyB: number };
}

// ---------- two records ----------

export interface RecordComparison {
  type: 'records';
  a: SideInfo;
  b: SideInfo;
  fields: FieldDiff;
  bytes: ByteDiff | null;
  signature: SignatureMeaning;
  verdicts: VerdictDiff;
  /** Both are AgentDNA workflows (or bare envelopes): envelope by envelope. */
  workflow: WorkflowDiff | null;
}

// ---------- two logs (conversations, inputs) ----------

export interface LogRecordSide {
  key: number;
  index: number;
  inputName: string;
  kind: string;
  id: string | null;
  summary: string;
  valid: boolean;
  signature: SignatureStatus;
  trusted: boolean;
  /** A command: microseconds to its first answer (response or error of its correlation), when both times are known. */
  latencyMicros: number | null;
}

export interface LogPair {
  a: LogRecordSide | null;
  b: LogRecordSide | null;
  /** Only on B (added), only on A (removed), or, matched, changed (fields, verdicts or latency) or the same; as counted. */
  status: ChangeStatus;
  /** By the same correlation (and kind, stream and sequence), or by their order (the n-th command of each, its answers, …). */
  matchedBy: 'correlation' | 'order' | null;
  /** What the two have in common that matched them, in words: "command 2", "chunk 3 of stream 1". */
  role: string;
  /** Fields whose content differs (ids aside), with the count of changes. */
  fields: string[];
  /** Ids (record, correlation, cause…) and signature bytes that differ: expected between two runs. */
  ids: string[];
  changes: number;
  /** What changed in the verdicts, in words. */
  verdicts: string[];
  /** Only for commands: latency on each side. */
  latency: { a: number | null; b: number | null } | null;
}

export interface LogSideInfo {
  /** What the side is: an input's name, or a conversation id. */
  label: string;
  records: number;
}

export interface LogComparison {
  type: 'logs';
  scope: 'conversations' | 'inputs';
  a: LogSideInfo;
  b: LogSideInfo;
  pairs: LogPair[];
  counts: { same: number; changed: number; onlyA: number; onlyB: number };
  /** Pairs left out past the limit (counted above, not listed). */
  omitted: number;
}

export type Comparison = RecordComparison | LogComparison;

/** What to compare: two records (by key), two inputs (by number) or two conversations (by id). */
export type CompareSubject =
  | { scope: 'records'; a: number; b: number }
  | { scope: 'inputs'; a: number; b: number }
  | { scope: 'conversations'; a: string; b: string };
