// Binary inputs: a bare envelope, a CBOR sequence (RFC 8742) of envelopes or other AGDX items,
// the laser record, dead letters, capsules, control frames, and an Iggy header block + payload.
import { analyzeEnvelope, type EnvelopeOptions } from '../agdx/analyze';
import { readBodyRef, readCard, readErrorBody, type CapsuleReading } from '../agdx/bodies';
import { classifyCbor } from '../agdx/classify';
import { DEAD_LETTER_REASONS, codeName } from '../agdx/dictionaries';
import { FieldError, readBytes, readSmallUint, readText, readUint, structEntries } from '../agdx/fields';
import { headerViews, normaliseKind, readHeaderBlock, type Header } from '../agdx/iggy';
import { checkSignatureShape } from '../agdx/signature';
import { cborNode, formatLogPosition, formatMicros } from '../agdx/tree';
import { toDiagnostic } from '../cbor/diagnostic';
import type { CborError, CborItem } from '../cbor/reader';
import { readItemAt, untag } from '../cbor/reader';
import type { DecodeError, FieldNode, RecordFormat, Span } from '../model';
import { isValid, type RecordResult } from '../records';
import { blankRecord, envelopeRecord, failedRecord, type Place } from './build';
import { fastEnvelopeRecord } from './fast-record';

const spanOf = (item: CborItem): Span => [item.start, item.end];

/** Whether the bytes start like a CBOR map (definite or indefinite), as every AGDX item does. */
export function startsLikeMap(bytes: Uint8Array, at = 0): boolean {
  return at < bytes.length && bytes[at] >= 0xa0 && bytes[at] <= 0xbf;
}

/**
 * Reads the CBOR items back to back. A malformed item ends the sequence (a CBOR sequence cannot be
 * resynchronised), but what came before is kept and the failure is a record of its own.
 */
export function readCborRecords(place: Place, from = 0, to = place.view.length, detail = true): { records: RecordResult[]; count: number; error: CborError | null } {
  const records: RecordResult[] = [];
  let count = 0;
  let error: CborError | null = null;
  for (const batch of cborRecordBatches(place, from, to, detail, Infinity)) {
    // One by one: spreading a batch of a million records into push() overflows the stack.
    for (const r of batch.records) records.push(r);
    count = batch.items;
    error = batch.error;
  }
  return { records, count, error };
}

export interface CborBatch {
  records: RecordResult[];
  /** Items read so far (a dead letter is one item and two records). */
  items: number;
  /** Offset reached. */
  pos: number;
  /** The read failure that ended the sequence (its record is in `records`), on the last batch. */
  error: CborError | null;
}

/**
 * The same reading, in batches of about `batchSize` records, so a large sequence can be shown
 * while the rest loads (and stopped between batches). The last batch is the one that reaches `to`
 * (a full batch at the very end is the last one, never followed by an empty one).
 */
export function* cborRecordBatches(place: Place, from: number, to: number, detail: boolean, batchSize: number): Generator<CborBatch> {
  const bytes = place.view.subarray(0, to);
  let batch: RecordResult[] = [];
  let index = 0;
  let pos = from;
  let items = 0;
  const push = (r: RecordResult) => {
    batch.push(r);
    index++;
  };
  while (pos < to) {
    if (!detail && bytes[pos] >= 0xa0 && bytes[pos] < 0xb8) {
      const at = pos;
      const i = index;
      const fast = fastEnvelopeRecord(place, pos, to, i, () => redoEnvelope(place, [at, fastEnd], i, {}));
      const fastEnd = fast?.span?.[1] ?? 0;
      if (fast) {
        push(fast);
        items++;
        pos = fastEnd;
        if (batch.length >= batchSize && pos < to) {
          yield { records: batch, items, pos, error: null };
          batch = [];
        }
        continue;
      }
    }
    const r = readItemAt(bytes, pos);
    if (!r.ok) {
      const format: RecordFormat = startsLikeMap(bytes, pos) ? 'agdx.envelope' : 'unknown';
      push(failedRecord(place, index, format, [pos, to], r.error));
      yield { records: batch, items, pos: to, error: r.error };
      return;
    }
    items++;
    for (const rec of recordsFromItem(place, r.value, index, { detail })) push(rec);
    pos = r.value.end;
    if (batch.length >= batchSize && pos < to) {
      yield { records: batch, items, pos, error: null };
      batch = [];
    }
  }
  yield { records: batch, items, pos, error: null };
}

/** One top-level CBOR item as records (a dead letter gives two: itself and its payload). */
export function recordsFromItem(place: Place, item: CborItem, index: number, options: EnvelopeOptions = {}): RecordResult[] {
  const shape = classifyCbor(item);
  const span = spanOf(item);
  switch (shape.format) {
    case 'agdx.envelope': {
      const record = envelopeRecord(blankRecord(place, index, 'agdx.envelope', span), analyzeEnvelope(place.view, item, options));
      if (options.detail === false) record.redo = () => redoEnvelope(place, span, index, options);
      return [record];
    }
    case 'agdx.record':
      return [laserRecord(place, item, index)];
    case 'agdx.dead_letter':
      return deadLetter(place, item, index);
    case 'agdx.capsule':
      return [capsule(place, item, index, shape.kind)];
    case 'agdx.control':
      return [control(place, item, index, shape.kind)];
    default:
      if (untag(item).kind !== 'map') return [notAMap(place, item, index, options)];
      return [failedRecord(place, index, 'unknown', span, { code: 'input/unrecognized', message: shape.why, offset: item.start })];
  }
}

/**
 * Well-formed CBOR that is not a map, so no AGDX item: a record of its own that shows the item in
 * diagnostic notation. In bulk (no detail) the notation is made when the record is opened.
 */
function notAMap(place: Place, item: CborItem, index: number, options: EnvelopeOptions): RecordResult {
  const span = spanOf(item);
  const shape = classifyCbor(item);
  const why = shape.format === 'unknown' ? shape.why : 'not a map';
  const record: RecordResult = {
    ...failedRecord(place, index, 'unknown', span, { code: 'agdx/not-a-map', message: why, offset: item.start }),
    summary: `not a map: ${toDiagnostic(item, 120)}`,
  };
  if (options.detail === false) {
    record.redo = () => {
      const again = readItemAt(place.view.subarray(0, span[1]), span[0]);
      return again.ok ? notAMap(place, again.value, index, { ...options, detail: true }) : failedRecord(place, index, 'unknown', span, again.error);
    };
    return record;
  }
  return { ...record, body: { rendering: 'cbor', reason: 'not an AGDX item (those are maps): the CBOR item in diagnostic notation', text: toDiagnostic(item), span } };
}

/** The record at `span` read again, this time with its views. */
function redoEnvelope(place: Place, span: Span, index: number, options: EnvelopeOptions): RecordResult {
  const again = readItemAt(place.view.subarray(0, span[1]), span[0]);
  if (!again.ok) return failedRecord(place, index, 'agdx.envelope', span, again.error);
  return envelopeRecord(blankRecord(place, index, 'agdx.envelope', span), analyzeEnvelope(place.view, again.value, { ...options, detail: true }));
}

/** Reads the single envelope inside a byte-string field; spans stay in the outer bytes. */
function nestedEnvelope(place: Place, payload: CborItem, base: RecordResult, options: EnvelopeOptions): RecordResult {
  const p = untag(payload);
  if (p.kind !== 'bytes' || p.contentStart < 0) {
    return { ...base, error: { code: 'agdx/field-type', message: 'payload must be a definite byte string holding the envelope', offset: payload.start }, summary: 'payload is not a byte string' };
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
function laserRecord(place: Place, item: CborItem, index: number): RecordResult {
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
    const withHeaders: RecordResult = {
      ...base,
      headers: headerViews(headers),
      tree: [cborNode(fields.get('partition_key')!.value, 'partition_key', 'partition_key', spanOf(fields.get('partition_key')!.key)), headersNode(headers, spanOf(fields.get('headers')!.value))],
    };
    return nestedEnvelope(place, fields.get('payload')!.value, withHeaders, { headers, partitionKey });
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return { ...base, error: { code: e.code, message: e.message, offset: e.offset }, summary: e.message };
  }
}

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

function deadLetter(place: Place, item: CborItem, index: number): RecordResult[] {
  const base = blankRecord(place, index, 'agdx.dead_letter', spanOf(item));
  try {
    const { fields } = structEntries(item, 'a dead letter');
    const src = fields.get('source') ? readBytes(fields.get('source')!.value, 'source', { jsonView: false }, 20) : null;
    const reason = fields.get('reason') ? readSmallUint(fields.get('reason')!.value, 'reason', 255) : null;
    const attempts = fields.get('attempts') ? readUint(fields.get('attempts')!.value, 'attempts', 0xffffffffn) : null;
    const detail = fields.get('detail') ? readText(fields.get('detail')!.value, 'detail') : null;
    const describe = (path: string, it: CborItem): Partial<FieldNode> | undefined => {
      const v = untag(it);
      if (path === 'source' && v.kind === 'bytes') return { display: formatLogPosition(v.value), hint: 'The log position of the message that failed.' };
      if (path === 'reason' && v.kind === 'uint') return { display: `${codeName(DEAD_LETTER_REASONS, Number(v.value))} (${v.value})` };
      if (path === 'payload') return { hint: 'The original envelope, verbatim: inspected as the next record.' };
      return undefined;
    };
    const summary = `dead letter: ${reason !== null ? codeName(DEAD_LETTER_REASONS, reason) : 'no reason'}${attempts !== null ? ` after ${attempts} attempts` : ''}${src ? ` (from ${formatLogPosition(src)})` : ''}${detail ? `: ${detail}` : ''}`;
    const record: RecordResult = {
      ...base,
      decoded: true,
      valid: true,
      summary,
      kind: null,
      tree: cborNode(item, '', 'dead letter', null, describe).children ?? [],
      findings: [{ rule: 'agdx/dead-letter', severity: 'info', path: null, message: summary, span: spanOf(item) }],
    };
    const payload = fields.get('payload');
    if (!payload) return [record];
    const inner = nestedEnvelope(place, payload.value, { ...blankRecord(place, index + 1, 'agdx.envelope', null), parent: index }, {});
    return [record, inner];
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return [{ ...base, error: { code: e.code, message: e.message, offset: e.offset }, summary: e.message }];
  }
}

function capsule(place: Place, item: CborItem, index: number, kind: 'error_body' | 'card' | 'body_ref' | 'signature' | 'presence'): RecordResult {
  const base = { ...blankRecord(place, index, 'agdx.capsule', spanOf(item)), kind };
  try {
    let reading: CapsuleReading;
    if (kind === 'error_body') reading = readErrorBody(item, 'capsule');
    else if (kind === 'card') reading = readCard(item, 'capsule');
    else if (kind === 'body_ref') reading = readBodyRef(item, 'capsule');
    else if (kind === 'signature') reading = signatureCapsule(item);
    else reading = presenceCapsule(item);
    const tree = reading.tree.children ?? [];
    return {
      ...base,
      decoded: true,
      tree,
      findings: reading.findings,
      valid: isValid(true, reading.findings),
      summary: `${kind.replace('_', ' ')}: ${reading.summary}`,
      body: { rendering: 'cbor', reason: `${kind.replace('_', ' ')} capsule`, text: toDiagnostic(item), span: spanOf(item) },
    };
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return { ...base, error: { code: e.code, message: e.message, offset: e.offset }, summary: e.message };
  }
}

function signatureCapsule(item: CborItem): CapsuleReading {
  const { fields } = structEntries(item, 'a signature capsule');
  const scheme = readSmallUint(fields.get('scheme')!.value, 'scheme', 255);
  const keyId = readBytes(fields.get('key_id')!.value, 'key_id', { jsonView: false });
  const bytes = readBytes(fields.get('bytes')!.value, 'bytes', { jsonView: false });
  const shape = checkSignatureShape({ kind: 'event', conversation: new Uint8Array(16), source: '', signature: { scheme, key_id: keyId, bytes } }, null, (p) => {
    const f = fields.get(p.replace('signature.', ''));
    return f ? spanOf(f.value) : null;
  });
  const findings = shape.findings.map((f) => ({ ...f, path: f.path?.replace('signature.', '') ?? null }));
  const tree = cborNode(item, '', 'signature', null);
  return { tree, summary: `scheme ${scheme}, key id ${shape.verdict.key_id}; a capsule on its own signs nothing here`, findings };
}

function presenceCapsule(item: CborItem): CapsuleReading {
  const { fields } = structEntries(item, 'a presence capsule');
  const agent = readText(fields.get('agent')!.value, 'agent');
  const inbox = readText(fields.get('inbox')!.value, 'inbox');
  return { tree: cborNode(item, '', 'presence', null), summary: `${agent} listens on ${inbox}`, findings: [] };
}

const CONTROL_DESCRIPTIONS: Record<string, string> = {
  submit: 'managed channel: submit a run',
  list_page: 'managed channel: list runs (one page)',
  reply_status: 'managed channel reply: a run\'s status',
  reply_list_page: 'managed channel reply: a page of runs',
  reply_error: 'managed channel reply: an error',
  reply: 'managed channel reply',
};

function control(place: Place, item: CborItem, index: number, kind: string): RecordResult {
  const tree = cborNode(item, '', kind, null, (path, it) => {
    const v = untag(it);
    if (path.endsWith('_micros') && v.kind === 'uint') return { display: `${formatMicros(v.value)} (${v.value} µs)` };
    return undefined;
  });
  const flat = toDiagnostic(item, 160);
  return {
    ...blankRecord(place, index, 'agdx.control', spanOf(item)),
    kind,
    decoded: true,
    valid: true,
    tree: tree.children ?? [],
    summary: `${CONTROL_DESCRIPTIONS[kind]}: ${flat}`,
    body: { rendering: 'cbor', reason: 'control frame (not an envelope: shown, not validated)', text: toDiagnostic(item), span: spanOf(item) },
  };
}

/**
 * An Iggy binary user-header block followed by its payload (≥ 0.7 or ≤ 0.6 layout). Null when
 * the bytes do not start with such a block.
 */
export function readHeaderBlockInput(place: Place): { records: RecordResult[]; format: string } | null {
  const bytes = place.view;
  const envelopeStartsAt = (offset: number) => {
    if (!startsLikeMap(bytes, offset)) return false;
    const r = readItemAt(bytes, offset);
    return r.ok && r.value.end === bytes.length;
  };
  for (const era of ['>=0.7', '<=0.6'] as const) {
    const block = readHeaderBlock(bytes, era, envelopeStartsAt);
    if (!block) continue;
    const format = `iggy-headers(${era})`;
    const blockSpan: Span = [0, block.end];
    const base: RecordResult = {
      ...blankRecord(place, 0, 'agdx.record', [0, bytes.length]),
      headers: headerViews(block.headers),
      tree: [headersNode(block.headers, blockSpan)],
    };
    if (block.end === bytes.length) {
      const error: DecodeError = { code: 'input/unrecognized', message: `an Iggy ${era} user-header block with ${block.headers.length} headers and no payload after it: nothing to decode`, offset: block.end };
      return { records: [{ ...base, error, summary: error.message }], format };
    }
    const r = readItemAt(bytes, block.end);
    if (!r.ok) return { records: [{ ...base, error: r.error, summary: `${r.error.code}: ${r.error.message}` }], format };
    if (r.value.end !== bytes.length) {
      const error: DecodeError = { code: 'cbor/trailing-bytes', message: `${bytes.length - r.value.end} bytes after the payload`, offset: r.value.end };
      return { records: [{ ...base, error, summary: error.message }], format };
    }
    const rec = envelopeRecord({ ...base, span: [0, bytes.length] }, analyzeEnvelope(bytes, r.value, { headers: block.headers }));
    return { records: [rec], format };
  }
  return null;
}
