// Where each row of the windowed record list goes. The list shows a sequence of record keys (every
// record, or what the worker's filter and sort returned). In log order each input's records form one
// stretch of it (inputs load one after another) under the input's header, found by binary search:
// the layout costs per input, not per record. Sorted, the inputs mix: one stretch, no headers.
// Pure: no DOM, no React.
import type { InputSummary } from '../../wire/protocol';

/** The keys the list shows: `count` of them, the i-th being `keyAt(i)`, each of input `inputOf(key)`. */
export interface ListSource {
  count: number;
  keyAt(i: number): number;
  inputOf(key: number): number;
}

/** One stretch of the list: its header (none when sorted), then rows `from`..`to` of the source. */
export interface Segment {
  input: InputSummary | null;
  top: number;
  /** Its header's height (0 without one). */
  head: number;
  from: number;
  to: number;
}

export interface ListLayout {
  segments: Segment[];
  /** The whole list's height. */
  total: number;
  rowHeight: number;
}

/**
 * The stretches of `source`: per input under its header when `grouped` (the source in log order),
 * else one without a header. Under a filter, an input with nothing to show is left out.
 */
export function layoutList(
  inputs: readonly InputSummary[],
  source: ListSource,
  grouped: boolean,
  rowHeight: number,
  headerHeight: (input: InputSummary) => number,
  filtered: boolean,
): ListLayout {
  if (!(rowHeight > 0)) throw new TypeError('layoutList: rowHeight must be positive');
  const { count } = source;
  if (!grouped) return { segments: count ? [{ input: null, top: 0, head: 0, from: 0, to: count }] : [], total: count * rowHeight, rowHeight };
  const firstAtLeast = (input: number) => {
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (source.inputOf(source.keyAt(mid)) < input) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const segments: Segment[] = [];
  let top = 0;
  for (const input of inputs) {
    const from = firstAtLeast(input.input);
    const to = firstAtLeast(input.input + 1);
    if (filtered && from === to) continue;
    const head = headerHeight(input);
    segments.push({ input, top, head, from, to });
    top += head + (to - from) * rowHeight;
  }
  return { segments, total: top, rowHeight };
}

/** The top of row `index` of the source, or null when no stretch holds it. */
export function rowTop(layout: ListLayout, index: number): number | null {
  const seg = layout.segments.find((s) => index >= s.from && index < s.to);
  return seg ? seg.top + seg.head + (index - seg.from) * layout.rowHeight : null;
}

export type PlacedRow = { kind: 'input'; segment: Segment } | { kind: 'record'; index: number; top: number; segment: Segment };

/** The headers and rows that meet [low, high) of the list, in order. */
export function rowsBetween(layout: ListLayout, low: number, high: number): PlacedRow[] {
  const { rowHeight } = layout;
  const out: PlacedRow[] = [];
  for (const seg of layout.segments) {
    const end = seg.top + seg.head + (seg.to - seg.from) * rowHeight;
    if (end < low || seg.top > high) continue;
    if (seg.head > 0 && seg.top + seg.head >= low) out.push({ kind: 'input', segment: seg });
    const first = Math.max(0, Math.floor((low - seg.top - seg.head) / rowHeight));
    const last = Math.min(seg.to - seg.from, Math.ceil((high - seg.top - seg.head) / rowHeight));
    for (let i = first; i < last; i++) out.push({ kind: 'record', index: seg.from + i, top: seg.top + seg.head + i * rowHeight, segment: seg });
  }
  return out;
}

/**
 * Where each key sits in the source: `positionOf(key)` is its index, or −1 when the list does not
 * show it. Every record in log order is its own position; keys in log order are found by binary
 * search; sorted keys through a map made once (4 bytes a record).
 */
export function positions(keys: Int32Array | null, sorted: boolean, records: number): (key: number) => number {
  if (!keys) return (key) => (key >= 0 && key < records ? key : -1);
  if (!sorted)
    return (key) => {
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (keys[mid] < key) lo = mid + 1;
        else hi = mid;
      }
      return keys[lo] === key ? lo : -1;
    };
  // The store's size bounds the keys, but a reply may be older than a clear: the map holds them all.
  let size = records;
  for (let i = 0; i < keys.length; i++) if (keys[i] >= size) size = keys[i] + 1;
  const map = new Int32Array(size).fill(-1);
  for (let i = 0; i < keys.length; i++) map[keys[i]] = i;
  return (key) => (key >= 0 && key < size ? map[key] : -1);
}
