// Views of records read in bulk (no field tree, no rendered body): built from the record's bytes
// when it is opened. One function per kind of record, shared by all its records; the verdict
// stays the one made while reading (the general decoder reads the same bytes the same way).
import { analyzeEnvelope } from '../agdx/analyze';
import { headerViews } from '../agdx/iggy';
import { toDiagnostic } from '../cbor/diagnostic';
import { readItemAt, untag, type CborItem } from '../cbor/reader';
import { DIALECTS } from '../agdx/dialects';
import { mapEntrySpan } from '../cbor/skip';
import type { Span } from '../model';
import type { InspectedRecord, RecordViews, ViewBuilder } from '../records';
import { headersNode, markDeadline } from './build';

const NO_VIEWS: RecordViews = { tree: [], headers: null, body: null };

/** Where the record's CBOR item is in its view: its span, or the whole view (an Iggy message's payload). */
const placeOf = ({ verdict, data }: InspectedRecord): Span => verdict.span ?? [0, data.view.length];

/** The CBOR item at `start` of `view`, read again (null: it does not read). */
function itemAt(view: Uint8Array, start: number, end: number): CborItem | null {
  const again = readItemAt(view.subarray(0, end), start);
  return again.ok ? again.value : null;
}

/** The record's CBOR item read again, at its place. */
function itemOf(record: InspectedRecord): CborItem | null {
  const [start, end] = placeOf(record);
  return itemAt(record.data.view, start, end);
}

/** An envelope (bare in a CBOR sequence, or an Iggy message's payload with the message's headers). */
export const envelopeViews: ViewBuilder = Object.assign(envelopeViewsOf, { locate: envelopeFieldSpan });

function envelopeViewsOf(record: InspectedRecord): RecordViews {
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
}

/** The names of the envelope's own fields in any dialect: the tree gives each its key's text as its path. */
const TOP_LEVEL = new Set(DIALECTS.flatMap((d) => d.fields.map((f) => f.name)));

/**
 * A top-level field's value span, read from the envelope's item as its field tree reads it (the
 * last entry of that name, as spanOfPath finds it), without decoding and judging the envelope
 * again; any other path is left to the tree (undefined).
 */
function envelopeFieldSpan(record: InspectedRecord, path: string): Span | null | undefined {
  if (!TOP_LEVEL.has(path)) return undefined;
  // An envelope that did not decode has no field tree (its headers have no such paths).
  if (!record.verdict.decoded) return null;
  const [start, end] = placeOf(record);
  return topLevelFieldSpan(record.data.view, start, end, path);
}

/**
 * Where the value of the top-level field `path` is in the decoded envelope whose item is `view`
 * [start, end), as its field tree has it (envelopeViews' locate); undefined for a path that is not a
 * top-level field of any dialect (the tree finds those). The streamed report's second pass asks it
 * with the bytes alone (cli/report-columns.ts).
 */
export function topLevelFieldSpan(view: Uint8Array, start: number, end: number, path: string): Span | null | undefined {
  if (!TOP_LEVEL.has(path)) return undefined;
  const plain = mapEntrySpan(view, start, end, path);
  if (plain !== undefined) return plain;
  const item = itemAt(view, start, end);
  const root = item && untag(item);
  if (root?.kind !== 'map') return null;
  for (let i = root.entries.length - 1; i >= 0; i--) {
    const { key, value } = root.entries[i];
    const k = untag(key);
    if (k.kind === 'text' && k.value === path) return [value.start, value.end];
  }
  return null;
}

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
