// Shared pieces for importers: turning an envelope analysis or a failure into a RecordResult, and
// the field-tree node of a record's Iggy user headers.
import type { EnvelopeAnalysis } from '../agdx/analyze';
import type { Envelope } from '../agdx/envelope';
import { headerViews, type Header } from '../agdx/iggy';
import { formatMicros } from '../agdx/tree';
import type { JsonError } from '../json/lossless';
import { unsignedVerdict, type DecodeError, type FieldNode, type RecordFormat, type Span, type ViewOrigin } from '../model';
import { isValid, type RecordResult } from '../records';

export interface Place {
  input: number;
  view: Uint8Array;
  viewOrigin: ViewOrigin;
}

export const NO_SIGNATURE = unsignedVerdict('nothing here carries a signature');

export function blankRecord(place: Place, index: number, format: RecordFormat, span: Span | null): RecordResult {
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
    valid: false,
    findings: [],
    signature: NO_SIGNATURE,
    summary: '',
    view: place.view,
    viewOrigin: place.viewOrigin,
    tree: [],
    headers: null,
    body: null,
    bodySpan: null,
    logTimeMicros: null,
    logPosition: null,
    parent: null,
    envelope: null,
    observed: null,
  };
}

/**
 * A JSON reader's failure as a record's error: report.md has one JSON decode code, so JSON nested
 * too deeply to read is `json/invalid` too. `context` prefixes the message.
 */
export function jsonDecodeError(error: JsonError, context = ''): DecodeError {
  return { code: 'json/invalid', message: `${context}${error.message}`, offset: error.offset };
}

export function failedRecord(place: Place, index: number, format: RecordFormat, span: Span | null, error: DecodeError): RecordResult {
  return { ...blankRecord(place, index, format, span), error, summary: `${error.code}: ${error.message}` };
}

/** Marks the deadline in the tree as expired when it is before the record's log time. */
function markDeadline(tree: FieldNode[], deadline: number | bigint | undefined, logTime: bigint | null): FieldNode[] {
  if (deadline === undefined || logTime === null) return tree;
  const expired = BigInt(deadline) < logTime;
  return tree.map((n) =>
    n.path === 'deadline_micros'
      ? { ...n, display: `${n.display} — ${expired ? 'expired' : 'not yet due'} at the log time ${formatMicros(logTime)}` }
      : n,
  );
}

/** Fills a record from an envelope analysis. */
export function envelopeRecord(base: RecordResult, a: EnvelopeAnalysis): RecordResult {
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
    valid: isValid(a.decoded, [...base.findings, ...a.findings]),
    signature: a.signature,
    tree: [...base.tree, ...markDeadline(a.tree, env?.deadline_micros, base.logTimeMicros)],
    body: a.body,
    bodySpan: a.bodySpan,
    envelope: env,
    observed: a.observed,
    summary: env ? envelopeSummary(env) : `${a.error!.code}: ${a.error!.message}`,
  };
}

/** One line saying what an envelope is: kind, operation, source → target. */
export function envelopeSummary(env: Envelope): string {
  return `${env.kind}${env.operation ? ` ${env.operation}` : ''} ${env.source}${env.target ? ` → ${env.target}` : ''}`;
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
    hint: 'The record\'s Iggy user headers: agdx.av (wire version), agdx.ct (body codec), gen_ai.conversation.id (u128 little-endian), agdx.to (target).',
    children: views.map((h) => ({ path: `headers.${h.name}`, label: h.name, display: h.display, type: h.kind, span: h.span, keySpan: null, hint: `hex ${h.hex}` })),
  };
}
