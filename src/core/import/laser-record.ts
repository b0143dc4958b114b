// The laser SDK's self-contained record, {partition_key, headers: {name: {kind, bytes}}, payload}:
// one kind of top-level CBOR item (agdx/classify tells them apart; cbor-items.ts reads each), and
// the envelope a record or a dead letter carries in a byte-string field.
import { analyzeEnvelope, type EnvelopeOptions } from '../agdx/analyze';
import { FieldError, readBytes, readText, structEntries } from '../agdx/fields';
import { normaliseKind, type Header } from '../agdx/iggy';
import { cborNode } from '../agdx/tree';
import type { CborItem } from '../cbor/reader';
import { readItemAt, untag } from '../cbor/reader';
import type { Span } from '../model';
import { blankRecord, envelopeRecord, headersNode, type Place, type RecordDraft } from './build';
import type { DecodeError } from '../verdict';

const spanOf = (item: CborItem): Span => [item.start, item.end];

/** Reads the single envelope inside a byte-string field; spans stay in the outer bytes. */
export function nestedEnvelope(place: Place, payload: CborItem, base: RecordDraft, options: EnvelopeOptions): RecordDraft {
  const p = untag(payload);
  if (p.kind !== 'bytes' || p.contentStart < 0) {
    return {
      ...base,
      error: { code: 'agdx/field-type', message: 'payload must be a definite byte string holding the envelope', offset: payload.start },
      summary: 'payload is not a byte string',
    };
  }
  const r = readItemAt(place.view.subarray(0, p.end), p.contentStart);
  if (!r.ok) return { ...base, error: r.error, summary: `${r.error.code}: ${r.error.message}` };
  if (r.value.end !== p.end) {
    const error: DecodeError = { code: 'cbor/trailing-bytes', message: `${p.end - r.value.end} bytes after the envelope in the payload`, offset: r.value.end };
    return { ...base, error, summary: `${error.code}: ${error.message}` };
  }
  return envelopeRecord({ ...base, span: [p.contentStart, p.end] }, analyzeEnvelope(place.view, r.value, options));
}

/** The laser SDK's self-contained record: {partition_key, headers: {name: {kind, bytes}}, payload}. */
export function laserRecord(place: Place, item: CborItem, index: number): RecordDraft {
  const base = blankRecord(place, index, 'agdx.record', spanOf(item));
  try {
    const { fields } = structEntries(item, 'a laser record');
    const partitionKey = readText(fields.get('partition_key')!.value, 'partition_key');
    const headerMap = untag(fields.get('headers')!.value);
    if (headerMap.kind !== 'map') throw new FieldError('agdx/field-type', 'headers must be a map', headerMap.start);
    const headers: Header[] = headerMap.entries.map((e) => {
      const name = readText(e.key, 'a header name');
      const { fields: hf } = structEntries(e.value, `header ${name}`);
      if (!hf.get('kind') || !hf.get('bytes')) throw new FieldError('agdx/field-type', `header ${name} needs kind and bytes`, e.value.start);
      const kind = normaliseKind(readText(hf.get('kind')!.value, `headers.${name}.kind`));
      const valueItem = untag(hf.get('bytes')!.value);
      const value = readBytes(valueItem, `headers.${name}.bytes`, { jsonView: false });
      const vspan: Span | null = valueItem.kind === 'bytes' && valueItem.contentStart >= 0 ? [valueItem.contentStart, valueItem.end] : null;
      return { name, kind, value, span: vspan };
    });
    const withHeaders: RecordDraft = {
      ...base,
      headers,
      tree: [
        cborNode(fields.get('partition_key')!.value, 'partition_key', 'partition_key', spanOf(fields.get('partition_key')!.key)),
        headersNode(headers, spanOf(fields.get('headers')!.value)),
      ],
    };
    return nestedEnvelope(place, fields.get('payload')!.value, withHeaders, { headers, partitionKey });
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return { ...base, error: { code: e.code, message: e.message, offset: e.offset }, summary: e.message };
  }
}
