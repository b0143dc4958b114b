// Shared pieces for importers: the draft a record is built as (flat, so an importer spreads and
// overrides freely), made into an immutable verdict and its data by finishRecord; drafts for an
// envelope analysis or a failure; and the field-tree node of a record's Iggy user headers.
import type { EnvelopeAnalysis } from '../agdx/analyze';
import type { AsReceived } from '../agdx/canonical';
import type { Envelope } from '../agdx/envelope';
import type { ObservedHeaders } from '../agdx/headers';
import { headerViews, type Header } from '../agdx/iggy';
import { NO_EVIDENCE } from '../agdx/dialects';
import { formatMicros } from '../agdx/tree';
import type { JsonError } from '../json/lossless';
import {
  unsignedVerdict,
  type BodyView,
  type FieldNode,
  type HeaderView,
  type LogPosition,
  type RecordFormat,
  type SignatureVerdict,
  type Span,
  type ViewOrigin,
} from '../model';
import type { InspectedRecord, RecordViews, ViewBuilder } from '../records';
import type { DecodeError, Finding } from '../verdict';

export interface Place {
  // Read-only: a record read in bulk keeps its place and reads its view through it (fast-record.ts).
  readonly input: number;
  readonly view: Uint8Array;
  readonly viewOrigin: ViewOrigin;
}

/** A record while its importer builds it: the verdict's fields, the data's and the views, side by side. */
export interface RecordDraft {
  input: number;
  index: number;
  format: RecordFormat;
  span: Span | null;
  inputSpan: Span | null;
  decoded: boolean;
  error: DecodeError | null;
  kind: string | null;
  id: string | null;
  conversation: string | null;
  source: string | null;
  target: string | null;
  findings: readonly Finding[];
  signature: SignatureVerdict;
  summary: string;
  logTimeMicros: bigint | null;
  parent: number | null;
  view: Uint8Array;
  viewOrigin: ViewOrigin;
  envelope: Envelope | null;
  headers: Header[] | null;
  observed: ObservedHeaders | null;
  logPosition: LogPosition | null;
  bodySpan: Span | null;
  tree: FieldNode[];
  /** The header views (null: made from `headers` when there are some). */
  headerViews: HeaderView[] | null;
  body: BodyView | null;
  /** Set for a record read without its views: builds them when the record is opened (tree, headerViews and body are then unused). */
  viewBuilder?: ViewBuilder;
  dialect: string | null;
  dialectEvidence: readonly string[];
  /** Null: as finishRecord works it out (an AGDX record that did not decode is `undecodable`). */
  displayType: string | null;
  /** A signed envelope with fields no dialect knows, as received without its signature (canonical.ts). */
  asReceived: AsReceived | null;
}

/** The formats whose records the reference's dispatch table shows as `undecodable` when they do not decode. */
const AGDX_FORMATS: ReadonlySet<RecordFormat> = new Set(['agdx.envelope', 'agdx.record', 'agdx.dead_letter']);

export const NO_SIGNATURE = unsignedVerdict('nothing here carries a signature');

export function blankRecord(place: Place, index: number, format: RecordFormat, span: Span | null): RecordDraft {
  return {
    input: place.input,
    index,
    format,
    span,
    inputSpan: null,
    decoded: false,
    error: null,
    kind: null,
    id: null,
    conversation: null,
    source: null,
    target: null,
    findings: [],
    signature: NO_SIGNATURE,
    summary: '',
    logTimeMicros: null,
    parent: null,
    view: place.view,
    viewOrigin: place.viewOrigin,
    envelope: null,
    headers: null,
    observed: null,
    logPosition: null,
    bodySpan: null,
    tree: [],
    headerViews: null,
    body: null,
    dialect: null,
    dialectEvidence: NO_EVIDENCE,
    displayType: null,
    asReceived: null,
  };
}

/** The draft as a record: its verdict and its data, apart. */
export function finishRecord(d: RecordDraft): InspectedRecord {
  const views: RecordViews | ViewBuilder = d.viewBuilder ?? {
    tree: d.tree,
    headers: d.headerViews ?? (d.headers ? headerViews(d.headers) : null),
    body: d.body,
  };
  return {
    verdict: {
      input: d.input,
      index: d.index,
      format: d.format,
      span: d.span,
      inputSpan: d.inputSpan,
      decoded: d.decoded,
      error: d.error,
      kind: d.kind,
      id: d.id,
      conversation: d.conversation,
      source: d.source,
      target: d.target,
      findings: d.findings,
      signature: d.signature,
      logTimeMicros: d.logTimeMicros,
      parent: d.parent,
      summary: d.summary,
      dialect: d.dialect,
      dialectEvidence: d.dialectEvidence,
      displayType: d.displayType ?? (!d.decoded && AGDX_FORMATS.has(d.format) ? 'undecodable' : null),
    },
    data: {
      view: d.view,
      viewOrigin: d.viewOrigin,
      envelope: d.envelope,
      headers: d.headers,
      observed: d.observed,
      logPosition: d.logPosition,
      bodySpan: d.bodySpan,
      views,
      // Only on the few records that have one.
      ...(d.asReceived ? { asReceived: d.asReceived } : {}),
    },
  };
}

/**
 * A JSON reader's failure as a record's error: report.md has one JSON decode code, so JSON nested
 * too deeply to read is `json/invalid` too. `context` prefixes the message.
 */
export function jsonDecodeError(error: JsonError, context = ''): DecodeError {
  return { code: 'json/invalid', message: `${context}${error.message}`, offset: error.offset };
}

// A log of alike failures (a file of empty maps) repeats one message: the last failure's message
// and summary are shared, not two strings of a few hundred bytes per record.
let lastFailure: DecodeError = { code: 'input/unrecognized', message: '', offset: null };
let lastSummary = '';

export function failedRecord(place: Place, index: number, format: RecordFormat, span: Span | null, error: DecodeError): RecordDraft {
  if (error.code === lastFailure.code && error.message === lastFailure.message) {
    // The same text in a string of its own: take the shared one.
    if (error !== lastFailure) error = { ...error, message: lastFailure.message };
  } else {
    lastFailure = error;
    lastSummary = `${error.code}: ${error.message}`;
  }
  return { ...blankRecord(place, index, format, span), error, summary: lastSummary };
}

/** Marks the deadline in the tree as expired when it is before the record's log time. */
export function markDeadline(tree: FieldNode[], deadline: number | bigint | undefined, logTime: bigint | null): FieldNode[] {
  if (deadline === undefined || logTime === null) return tree;
  const expired = BigInt(deadline) < logTime;
  return tree.map((n) =>
    n.path === 'deadline_micros' ? { ...n, display: `${n.display} — ${expired ? 'expired' : 'not yet due'} at the log time ${formatMicros(logTime)}` } : n,
  );
}

/** Fills a record from an envelope analysis. */
export function envelopeRecord(base: RecordDraft, a: EnvelopeAnalysis): RecordDraft {
  const env = a.decodedEnvelope?.envelope ?? null;
  return {
    ...base,
    decoded: a.decoded,
    error: a.error,
    kind: a.kind,
    id: a.id,
    conversation: a.conversation,
    source: a.source,
    target: a.target,
    findings: [...base.findings, ...a.findings],
    signature: a.signature,
    tree: [...base.tree, ...markDeadline(a.tree, env?.deadline_micros, base.logTimeMicros)],
    body: a.body,
    bodySpan: a.bodySpan,
    envelope: env,
    observed: a.observed,
    summary: env ? envelopeSummary(env) : `${a.error!.code}: ${a.error!.message}`,
    dialect: a.dialect?.dialect.id ?? null,
    dialectEvidence: a.dialect?.evidence ?? NO_EVIDENCE,
    displayType: a.displayType,
    asReceived: a.asReceived,
  };
}

/** One line saying what an envelope is: kind, operation, source → target. */
export function envelopeSummary(env: Envelope): string {
  return summaryText(env.kind, env.operation ?? null, env.source, env.target ?? null);
}

/** envelopeSummary's line from the four fields it reads (a bulk-read verdict holds them, not the envelope). */
export function summaryText(kind: string, operation: string | null, source: string, target: string | null): string {
  // A log repeats a few of these: the last one made is one flat string shared by its records,
  // where each record's own was a chain of joined pieces (about 70 of a bulk-read record's 1,150 bytes).
  const last = lastEnvelopeSummary;
  if (last.kind === kind && last.operation === operation && last.source === source && last.target === target) return last.text;
  const text = `${kind}${operation ? ` ${operation}` : ''} ${source}${target ? ` → ${target}` : ''}`;
  lastEnvelopeSummary = { kind, operation, source, target, text: flat(text) };
  return lastEnvelopeSummary.text;
}

let lastEnvelopeSummary: { kind: string; operation: string | null; source: string; target: string | null; text: string } = {
  kind: '',
  operation: null,
  source: '',
  target: null,
  text: '',
};

/** The string as one piece of memory (a joined string is a tree of its pieces until read through). */
function flat(s: string): string {
  // Reading a character through it makes V8 flatten the string in place.
  s.charCodeAt(0);
  return s;
}

/** The field-tree node of a record's Iggy user headers (a laser record, a header block, an export's message). */
export function headersNode(headers: Header[], span: Span | null): FieldNode {
  const views = headerViews(headers);
  return {
    path: 'headers',
    label: 'headers',
    display: `${headers.length} Iggy user headers`,
    type: 'headers',
    span,
    keySpan: null,
    hint: "The record's Iggy user headers: agdx.av (wire version), agdx.ct (body codec), gen_ai.conversation.id (u128 little-endian), agdx.to (target).",
    children: views.map((h) => ({
      path: `headers.${h.name}`,
      label: h.name,
      display: h.display,
      type: h.kind,
      span: h.span,
      keySpan: null,
      hint: `hex ${h.hex}`,
    })),
  };
}
