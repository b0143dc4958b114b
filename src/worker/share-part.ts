// A part of what is loaded, for a link: the inputs cut down to the chosen records. A record whose
// bytes are a stretch of its input (a CBOR sequence's items, an Iggy export's messages) travels as
// that stretch, so one record of a 10,000-record log makes a link of a few hundred characters; an
// input whose records cannot be cut out (hex text, a single JSON document) travels whole. Records
// keep their order; a record found inside another (a dead letter's payload) travels with it.
import { utf8Encode } from '../core/bytes';
import type { RecordPlace } from '../core/share/permalink';
import type { InspectedRecord } from '../core/records';

/** One input as a link carries it: its name, its bytes, and where each record of it went. */
export interface PartInput {
  name: string;
  bytes: Uint8Array;
  /** The input's number in the session. */
  number: number;
  /** A record's index in the input as loaded → its index in these bytes (null: the input travels whole). */
  indexOf: Map<number, number> | null;
}

export interface PartSource {
  name: string;
  /** The bytes the link would carry for the whole input (its own, or as redaction left them). */
  bytes: Uint8Array;
  /** Its records, in order (index i at position i). */
  records: readonly InspectedRecord[];
}

/** Where a top-level record's bytes are in `bytes`: a CBOR item of the input, or a message of an Iggy JSON export. */
function stretchOf(r: InspectedRecord, whole: Uint8Array): { kind: 'item' | 'message'; span: [number, number] } | null {
  const v = r.verdict;
  if (v.inputSpan) return { kind: 'message', span: v.inputSpan };
  if (v.span && r.data.viewOrigin === 'input' && r.data.view.length === whole.length) return { kind: 'item', span: v.span };
  return null;
}

/**
 * The input cut down to the records whose indexes `chosen` holds (with the records they are found
 * inside, and those found inside them), or null when it cannot be cut (then it travels whole).
 */
export function cutInput(source: PartSource, chosen: ReadonlySet<number>): { bytes: Uint8Array; indexOf: Map<number, number> } | null {
  const { records, bytes } = source;
  const topOf = (i: number) => {
    let top = i;
    while (records[top]?.verdict.parent != null) top = records[top].verdict.parent!;
    return top;
  };
  const tops = new Set<number>();
  for (const i of chosen) if (records[i]) tops.add(topOf(i));
  const order = [...tops].sort((a, b) => a - b);
  const stretches = order.map((t) => stretchOf(records[t], bytes));
  if (stretches.length === 0 || stretches.some((s) => s === null) || new Set(stretches.map((s) => s!.kind)).size > 1) return null;
  // The records found inside a top-level one follow it: read again, the part's records are those, in order.
  const indexOf = new Map<number, number>();
  let next = 0;
  for (let i = 0; i < records.length; i++) if (tops.has(topOf(i))) indexOf.set(i, next++);
  const parts = stretches.map((s) => bytes.subarray(s!.span[0], s!.span[1]));
  if (stretches[0]!.kind === 'item') return { bytes: join(parts), indexOf };
  // An Iggy export of the chosen messages only.
  const comma = utf8Encode(',');
  const joined: Uint8Array[] = [utf8Encode('{"messages":[')];
  for (const [k, p] of parts.entries()) {
    if (k) joined.push(comma);
    joined.push(p);
  }
  joined.push(utf8Encode(']}'));
  return { bytes: join(joined), indexOf };
}

/** The parts one after another (a loop: a spread of 100,000 parts into one call would overflow the stack). */
function join(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The inputs of a part: each input holding chosen records, cut down when it can be, else whole. */
export function partInputs(sources: readonly PartSource[], chosen: ReadonlyMap<number, ReadonlySet<number>>): PartInput[] {
  const out: PartInput[] = [];
  for (const [number, source] of sources.entries()) {
    const indexes = chosen.get(number);
    if (!indexes?.size) continue;
    const cut = indexes.size === source.records.length ? null : cutInput(source, indexes);
    out.push(cut ? { name: source.name, bytes: cut.bytes, number, indexOf: cut.indexOf } : { name: source.name, bytes: source.bytes, number, indexOf: null });
  }
  return out;
}

/** A record of the part by its place in the link: the part input holding it, and its index in those bytes. */
export function placeIn(part: readonly PartInput[], input: number, index: number): RecordPlace | null {
  const at = part.findIndex((p) => p.number === input);
  if (at < 0) return null;
  const to = part[at].indexOf;
  const mapped = to === null ? index : to.get(index);
  return mapped === undefined ? null : { input: at, index: mapped };
}
