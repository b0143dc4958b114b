// Shared pieces for importers: turning an envelope analysis or a failure into a RecordResult.
import type { EnvelopeAnalysis } from '../agdx/analyze';
import type { DecodeError, RecordFormat, SignatureVerdict, Span, ViewOrigin } from '../model';
import { isValid, type RecordResult } from '../records';

export interface Place {
  input: number;
  view: Uint8Array;
  viewOrigin: ViewOrigin;
}

export const NO_SIGNATURE: SignatureVerdict = {
  status: 'unsigned',
  scheme: null,
  key_id: null,
  signer: null,
  trusted: false,
  context_match: null,
  reason: 'nothing here carries a signature',
};

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
    logTimeMicros: null,
    logPosition: null,
    parent: null,
    envelope: null,
  };
}

export function failedRecord(place: Place, index: number, format: RecordFormat, span: Span | null, error: DecodeError): RecordResult {
  return { ...blankRecord(place, index, format, span), error, summary: `${error.code}: ${error.message}` };
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
    tree: [...base.tree, ...a.tree],
    body: a.body,
    envelope: env,
    summary: a.decoded
      ? `${a.kind}${env?.operation ? ` ${env.operation}` : ''} ${a.source}${a.target ? ` → ${a.target}` : ''}`
      : `${a.error!.code}: ${a.error!.message}`,
  };
}
