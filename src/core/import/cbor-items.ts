// One top-level CBOR item as records, whatever AGDX item it is (agdx/classify tells them apart):
// an envelope (in bulk, on the fast path when it can), a laser record, a dead letter and the
// envelope it carries, a capsule, a control frame, or well-formed CBOR that is not a map; and a CBOR
// sequence (RFC 8742) of such items read in batches.
import { analyzeEnvelope, type EnvelopeOptions } from '../agdx/analyze';
import { readBodyRef, readCard, readErrorBody, type CapsuleReading } from '../agdx/bodies';
import { classifyCbor } from '../agdx/classify';
import { DEAD_LETTER_REASONS, codeName } from '../agdx/dictionaries';
import { FieldError, readBytes, readSmallUint, readText, readUint, structEntries } from '../agdx/fields';
import { displayType } from '../agdx/dispatch';
import { checkSignatureShape } from '../agdx/signature';
import { cborNode, formatLogPosition, formatMicros } from '../agdx/tree';
import { toDiagnostic } from '../cbor/diagnostic';
import type { CborError, CborItem } from '../cbor/reader';
import { readItemAt, untag } from '../cbor/reader';
import type { FieldNode, RecordFormat, Span } from '../model';
import type { InspectedRecord } from '../records';
import { blankRecord, envelopeRecord, failedRecord, finishRecord, type Place, type RecordDraft } from './build';
import { fastEnvelopeRecord } from './fast-record';
import { startsLikeMap } from './importer';
import { laserRecord, nestedEnvelope } from './laser-record';
import { envelopeViews, notAMapViews } from './views';
import { finding } from '../rules';

const spanOf = (item: CborItem): Span => [item.start, item.end];

export interface CborBatch {
  records: InspectedRecord[];
  /** Items read so far (a dead letter is one item and two records). */
  items: number;
  /** Offset reached. */
  pos: number;
  /** The read failure that ended the sequence (its record is in `records`), on the last batch. */
  error: CborError | null;
}

/**
 * Reads the CBOR items of `place.view` from `from` to `to` back to back, in batches of about
 * `batchSize` records, so a large sequence can be shown while the rest loads (and stopped between
 * batches). A malformed item ends the sequence (a CBOR sequence cannot be resynchronised), but what
 * came before is kept and the failure is a record of its own. The last batch is the one that
 * reaches `to` (a full batch at the very end is the last one, never followed by an empty one).
 * `firstIndex` is the first record's index in its input (a reader that reads an input in windows
 * goes on where the last window ended).
 */
export function* cborRecordBatches(place: Place, from: number, to: number, detail: boolean, batchSize: number, firstIndex = 0): Generator<CborBatch> {
  const bytes = place.view.subarray(0, to);
  let batch: InspectedRecord[] = [];
  let index = firstIndex;
  let pos = from;
  let items = 0;
  const push = (r: InspectedRecord) => {
    batch.push(r);
    index++;
  };
  // The last item that is a map of no AGDX shape, and its record: the same bytes again (a file of
  // empty maps is millions of them) make the same record at another place, not read again.
  let unrecognized: { bytes: Uint8Array; draft: RecordDraft } | null = null;
  while (pos < to) {
    if (unrecognized !== null && sameBytesAt(bytes, pos, to, unrecognized.bytes)) {
      const { draft } = unrecognized;
      const end = pos + unrecognized.bytes.length;
      push(finishRecord({ ...draft, index, span: [pos, end], error: { ...draft.error!, offset: pos } }));
      items++;
      pos = end;
      if (batch.length >= batchSize && pos < to) {
        yield { records: batch, items, pos, error: null };
        batch = [];
      }
      continue;
    }
    if (!detail && bytes[pos] >= 0xa0 && bytes[pos] < 0xb8) {
      const fast = fastEnvelopeRecord(place, pos, to, index);
      if (fast) {
        push(fast);
        items++;
        pos = fast.verdict.span![1];
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
      push(finishRecord(failedRecord(place, index, format, [pos, to], r.error)));
      yield { records: batch, items, pos: to, error: r.error };
      return;
    }
    items++;
    const drafts = recordsFromItem(place, r.value, index, { detail });
    for (const rec of drafts) push(finishRecord(rec));
    unrecognized = isUnrecognizedItem(drafts, r.value) ? { bytes: bytes.slice(pos, r.value.end), draft: drafts[0] } : null;
    pos = r.value.end;
    if (batch.length >= batchSize && pos < to) {
      yield { records: batch, items, pos, error: null };
      batch = [];
    }
  }
  yield { records: batch, items, pos, error: null };
}

/** The longest item whose record is reused for the same bytes again (cborRecordBatches). */
const REPEATED_ITEM = 64;

/** Whether an item's records are one unrecognized map whose only places are the item's start and end (recordsFromItem's last case). */
function isUnrecognizedItem(drafts: readonly RecordDraft[], item: CborItem): boolean {
  if (drafts.length !== 1 || item.end - item.start > REPEATED_ITEM) return false;
  const d = drafts[0];
  return (
    d.format === 'unknown' && d.error?.code === 'input/unrecognized' && d.error.offset === item.start && d.span?.[0] === item.start && d.span[1] === item.end
  );
}

function sameBytesAt(bytes: Uint8Array, pos: number, to: number, item: Uint8Array): boolean {
  if (to - pos < item.length) return false;
  for (let i = 0; i < item.length; i++) if (bytes[pos + i] !== item[i]) return false;
  return true;
}

/** One top-level CBOR item as records (a dead letter gives two: itself and its payload), as drafts. */
export function recordsFromItem(place: Place, item: CborItem, index: number, options: EnvelopeOptions = {}): RecordDraft[] {
  const shape = classifyCbor(item);
  const span = spanOf(item);
  switch (shape.format) {
    case 'agdx.envelope': {
      const record = envelopeRecord(blankRecord(place, index, 'agdx.envelope', span), analyzeEnvelope(place.view, item, options));
      return [options.detail === false ? { ...record, viewBuilder: envelopeViews } : record];
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
function notAMap(place: Place, item: CborItem, index: number, options: EnvelopeOptions): RecordDraft {
  const span = spanOf(item);
  const shape = classifyCbor(item);
  const why = shape.format === 'unknown' ? shape.why : 'not a map';
  const record: RecordDraft = {
    ...failedRecord(place, index, 'unknown', span, { code: 'agdx/not-a-map', message: why, offset: item.start }),
    summary: `not a map: ${toDiagnostic(item, 120)}`,
  };
  if (options.detail === false) return { ...record, viewBuilder: notAMapViews };
  return {
    ...record,
    body: { rendering: 'cbor', reason: 'not an AGDX item (those are maps): the CBOR item in diagnostic notation', text: toDiagnostic(item), span },
  };
}

function deadLetter(place: Place, item: CborItem, index: number): RecordDraft[] {
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
    const record: RecordDraft = {
      ...base,
      decoded: true,
      summary,
      kind: null,
      displayType: displayType({ kind: 'dead_letter' }),
      tree: cborNode(item, '', 'dead letter', null, describe).children ?? [],
      findings: [finding('agdx/dead-letter', null, summary, spanOf(item))],
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

function capsule(place: Place, item: CborItem, index: number, kind: 'error_body' | 'card' | 'body_ref' | 'signature' | 'presence'): RecordDraft {
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
  reply_status: "managed channel reply: a run's status",
  reply_list_page: 'managed channel reply: a page of runs',
  reply_error: 'managed channel reply: an error',
  reply: 'managed channel reply',
};

function control(place: Place, item: CborItem, index: number, kind: string): RecordDraft {
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
    tree: tree.children ?? [],
    summary: `${CONTROL_DESCRIPTIONS[kind]}: ${flat}`,
    body: { rendering: 'cbor', reason: 'control frame (not an envelope: shown, not validated)', text: toDiagnostic(item), span: spanOf(item) },
  };
}
