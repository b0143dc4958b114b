// Binary input read as CBOR: a bare AGDX item (an envelope, a laser record, a dead letter, a
// capsule, a control frame) or a CBOR sequence (RFC 8742) of them. Streams: a sequence comes in
// batches of records while the rest is read.
import { readItemAt, untag } from '../cbor/reader';
import { cborRecordBatches } from './cbor-items';
import { wholeInput, startsLikeMap, type ImportedBatch, type Importer, type Source } from './importer';
import type { DecodeError } from '../verdict';

/** Why binary bytes are not read as CBOR records: the input/unrecognized error, or null when they are. */
const refusals = new WeakMap<Source, DecodeError | null>();

/**
 * Whether binary bytes (not text, no Iggy header block) are read as CBOR records: null when they
 * are, else the input/unrecognized error saying why not. Every AGDX item is a CBOR map, so a first
 * item that is one (or starts like one, or whose heads alone hold too many items) is read whatever
 * follows: a later failure is a record of its own. Anything else is CBOR only when it reads to its
 * end and is one item or holds a map: random binary files often start with a well-formed item by
 * chance (a PNG with an array of 9) but fail soon after, and a file of zeros reads as millions of
 * integers with nothing of AGDX in them. Read as CBOR, each item that is not a map is an
 * agdx/not-a-map record. Worked out once per source (the unknown fallback quotes it).
 */
export function cborRefusal(source: Source): DecodeError | null {
  let refusal = refusals.get(source);
  if (refusal === undefined) {
    refusal = notAgdxCbor(source.bytes);
    refusals.set(source, refusal);
  }
  return refusal;
}

function notAgdxCbor(bytes: Uint8Array): DecodeError | null {
  const unrecognized = (cbor: string, offset: number): DecodeError => ({
    code: 'input/unrecognized',
    message: `tried text (JSON, hex, base64), an Iggy user-header block and CBOR; ${cbor}`,
    offset,
  });
  const first = readItemAt(bytes, 0);
  if (!first.ok) {
    if (startsLikeMap(bytes) || first.error.code === 'cbor/too-many-items') return null;
    return unrecognized(`CBOR failed with ${first.error.code} at byte ${first.error.offset}: ${first.error.message}`, first.error.offset);
  }
  const kind = untag(first.value).kind;
  if (kind === 'map') return null;
  // Walk the rest without building records (each item is read and dropped).
  let items = 1;
  let maps = 0;
  for (let pos = first.value.end; pos < bytes.length; items++) {
    const r = readItemAt(bytes, pos);
    if (!r.ok) {
      if (r.error.code !== 'cbor/too-many-items') {
        return unrecognized(
          `CBOR reads a ${kind} first (not a map, as AGDX items are), then fails with ${r.error.code} at byte ${r.error.offset}: ${r.error.message}`,
          r.error.offset,
        );
      }
      // Refused for its count: the sequence ends there (it cannot be resynchronised).
      if (startsLikeMap(bytes, pos)) maps++;
      items++;
      break;
    }
    if (untag(r.value).kind === 'map') maps++;
    pos = r.value.end;
  }
  if (items > 1 && maps === 0) return unrecognized(`CBOR reads a sequence of ${items} items, none of them a map (AGDX items are maps)`, 0);
  return null;
}

/** The CBOR items in batches; the last batch names the input cbor, or cbor-seq when it holds several items. */
function* cborBatches(source: Source, detail: boolean, batchSize: number): Generator<ImportedBatch> {
  const length = source.bytes.length;
  let records = 0;
  for (const batch of cborRecordBatches(source.place, 0, length, detail, batchSize)) {
    records += batch.records.length;
    const last = batch.pos >= length;
    // A dead letter is one item and two records (itself and its payload).
    const format = !last ? null : batch.items > 1 || records > batch.items + 1 ? 'cbor-seq' : 'cbor';
    yield { records: batch.records, workflows: [], end: last ? length : batch.pos, format };
  }
}

export const cbor: Importer<true> = {
  format: 'cbor',
  detect: (source) => (source.bytes.length > 0 && source.text === null && cborRefusal(source) === null ? true : null),
  read: (source, _claim, context) => wholeInput(cborBatches(source, context.detail, Infinity)),
  batches: (source, _claim, context, batchSize) => cborBatches(source, context.detail, batchSize),
};
