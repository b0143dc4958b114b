// Views of records read in bulk (no field tree, no rendered body): built from the record's bytes
// when it is opened. One function per kind of record, shared by all its records; the verdict
// stays the one made while reading (the general decoder reads the same bytes the same way).
import { analyzeEnvelope } from '../agdx/analyze';
import { headerViews } from '../agdx/iggy';
import { toDiagnostic } from '../cbor/diagnostic';
import { readItemAt, type CborItem } from '../cbor/reader';
import type { InspectedRecord, RecordViews, ViewBuilder } from '../records';
import { headersNode, markDeadline } from './build';

const NO_VIEWS: RecordViews = { tree: [], headers: null, body: null };

/** The record's CBOR item read again: the one at its span, or its whole view (an Iggy message's payload). */
function itemOf({ verdict, data }: InspectedRecord): CborItem | null {
  const [start, end] = verdict.span ?? [0, data.view.length];
  const again = readItemAt(data.view.subarray(0, end), start);
  return again.ok ? again.value : null;
}

/** An envelope (bare in a CBOR sequence, or an Iggy message's payload with the message's headers). */
export const envelopeViews: ViewBuilder = (record) => {
  const { verdict, data } = record;
  const item = itemOf(record);
  if (!item) return NO_VIEWS;
  const a = analyzeEnvelope(data.view, item, { headers: data.headers ?? undefined, detail: true });
  const tree = markDeadline(a.tree, a.decodedEnvelope?.envelope.deadline_micros, verdict.logTimeMicros);
  return {
    tree: data.headers ? [headersNode(data.headers, null), ...tree] : tree,
    headers: data.headers ? headerViews(data.headers) : null,
    body: a.body,
  };
};

/** Well-formed CBOR that is not a map: the item in diagnostic notation. */
export const notAMapViews: ViewBuilder = (record) => {
  const item = itemOf(record);
  if (!item) return NO_VIEWS;
  const span = record.verdict.span ?? [item.start, item.end];
  return {
    tree: [],
    headers: record.data.headers ? headerViews(record.data.headers) : null,
    body: { rendering: 'cbor', reason: 'not an AGDX item (those are maps): the CBOR item in diagnostic notation', text: toDiagnostic(item), span },
  };
};
