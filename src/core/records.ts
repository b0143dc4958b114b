// A record as the inspector holds it: its verdict (verdict.ts: what report@1 says, immutable) and,
// beside it, its data: the bytes its spans index, the decoded envelope, its log position, and its
// views (field tree, headers, rendered body) or the function of its format that builds them from
// the bytes when the record is opened.
import type { AsReceived } from './agdx/canonical';
import type { Envelope } from './agdx/envelope';
import type { ObservedHeaders } from './agdx/headers';
import type { Header } from './agdx/iggy';
import type { WorkflowReport } from './agentdna/model';
import { spanOfPath } from './graph/keys';
import { analyzeLog, type LogAnalysis } from './analysis/log';
import { logFacts, type LocateField, type LogFacts, type LogSource } from './log/entry';
import type { BodyView, FieldNode, HeaderView, LogPosition, Span, ViewOrigin } from './model';
import { isValid, type RecordVerdict } from './verdict';

/** What a person sees of a record once it is opened. */
export interface RecordViews {
  readonly tree: FieldNode[];
  readonly headers: HeaderView[] | null;
  readonly body: BodyView | null;
}

/**
 * Builds a record's views from its bytes: one function per format that reads in bulk, shared by its
 * records. `locate` may find a field's bytes without building the views (a large log's findings
 * are located on many records): a span or null as the views' field tree gives it, or undefined
 * for a path it leaves to the tree.
 */
export type ViewBuilder = ((record: InspectedRecord) => RecordViews) & {
  readonly locate?: (record: InspectedRecord, path: string) => Span | null | undefined;
};

/** What a record is besides its verdict: what it was read from, and what the log analysis and the views read. */
export interface RecordData {
  /** The bytes that the verdict's span, the findings' spans and the views' spans index. */
  readonly view: Uint8Array;
  readonly viewOrigin: ViewOrigin;
  readonly envelope: Envelope | null;
  /** The record's Iggy user headers as read (an Iggy message, a laser record, a header block), or null. */
  readonly headers: Header[] | null;
  /** agdx.ct / agdx.av as the record's headers give them (null without headers). */
  readonly observed: ObservedHeaders | null;
  readonly logPosition: LogPosition | null;
  /** The body's content bytes in `view`, when it is one definite byte string (for redaction). */
  readonly bodySpan: Span | null;
  /** The views made while reading, or how to make them (records read in bulk). */
  readonly views: RecordViews | ViewBuilder;
  /** A signed envelope holding fields no dialect knows, as received without its signature: a second signing input to try (agdx/canonical.ts). */
  readonly asReceived?: AsReceived;
}

export interface InspectedRecord {
  readonly verdict: RecordVerdict;
  readonly data: RecordData;
}

/** The record's views: as read, or built now from its bytes. */
export function recordViews(record: InspectedRecord): RecordViews {
  const v = record.data.views;
  return typeof v === 'function' ? v(record) : v;
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
  records: InspectedRecord[];
  /** AgentDNA workflows; `record` indexes `records`. */
  workflows: WorkflowReport[];
  /** The log's analysis: the record-level graph, the folds and their findings by record. */
  log: LogAnalysis;
}

/** What a record gives the log analysis (log/entry.ts): its place, envelope and verdict. */
export function logSource({ verdict, data }: InspectedRecord): LogSource {
  return {
    input: verdict.input,
    index: verdict.index,
    conversation: verdict.conversation,
    parent: verdict.parent,
    logTimeMicros: verdict.logTimeMicros,
    logPosition: data.logPosition,
    envelope: data.envelope,
    signature: verdict.signature,
    invalid: !isValid(verdict),
  };
}

/** Where a field of a record is: its views' field tree gives it (the builder's `locate` finds it without building the tree). */
export function spanOfField(record: InspectedRecord, path: string): Span | null {
  const v = record.data.views;
  const quick = typeof v === 'function' ? v.locate?.(record, path) : undefined;
  return quick !== undefined ? quick : spanOfPath(recordViews(record).tree, path);
}

/** The log's facts of a load's records (log/entry.ts). */
export function logFactsOf(records: readonly InspectedRecord[]): LogFacts {
  return logFacts(records.map(logSource));
}

/**
 * Where a field of a record is, by its field tree: the views are built for the few records a log
 * finding is about (records read in bulk carry none), so such a finding points at its bytes
 * whichever way the record was read. `records` may be a function giving the records as they are
 * now (see analyzeRecords).
 */
export function locateIn(records: readonly InspectedRecord[] | (() => readonly InspectedRecord[])): LocateField {
  const now = typeof records === 'function' ? records : () => records;
  return (i, path) => spanOfField(now()[i], path);
}

/**
 * The analysis of the records' log: the graph built once, the folds once. Some findings' spans are
 * found later, when a record is shown, in `current()`'s records: a session that replaces its
 * records (a key change re-judges them) passes its own, so the analysis never holds the old ones.
 */
export function analyzeRecords(records: readonly InspectedRecord[], current: () => readonly InspectedRecord[] = () => records): LogAnalysis {
  return analyzeLog(logFactsOf(records), { locate: locateIn(current) });
}
