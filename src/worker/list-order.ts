// The record list's sort, run here beside the filter (sorting 100,000 records on the page would be
// one long task): the keys a filter kept, reordered by one column. Ties keep log order (the sort is
// stable, over keys in log order), and records without a value for the column go last either way.
import type { ListOrder } from '../wire/protocol';
import { listType, type RecordSummary } from '../wire/summary-pack';

/**
 * How bad a record's verdict is, worst first: not decoded, invalid, a bad signature, warnings, a
 * signature that holds but is not trusted or whose key is unknown, then the rest.
 */
export function verdictRank(s: Pick<RecordSummary, 'decoded' | 'valid' | 'signature' | 'trusted' | 'warnings'>): number {
  if (!s.decoded) return 0;
  if (!s.valid) return 1;
  if (s.signature === 'invalid' || s.signature === 'malformed') return 2;
  if (s.warnings > 0) return 3;
  if (s.signature === 'unknown_key' || (s.signature === 'valid' && !s.trusted)) return 4;
  if (s.signature === 'valid') return 6;
  return 5;
}

type Value = string | number | null;

/** The value a record sorts by in `column` (null: none, sorted last). */
function sortValue(s: RecordSummary, by: ListOrder['by']): Value {
  switch (by) {
    case 'log':
      return s.key;
    case 'kind':
      return s.kind ?? s.format;
    case 'id':
      return s.id;
    case 'route':
      return s.source === null && s.target === null ? null : `${s.source ?? ''}\u0000${s.target ?? ''}`;
    case 'time':
      return s.timeMs;
    case 'type':
      return listType(s);
    case 'verdict':
      return verdictRank(s);
  }
}

/** `keys` (in log order) ordered by `order`; the same array when the order is the log's. */
export function orderKeys(keys: Int32Array, order: ListOrder, summaryOf: (key: number) => RecordSummary | undefined): Int32Array {
  if (!(keys instanceof Int32Array)) throw new TypeError('orderKeys: keys must be an Int32Array');
  if (order.by === 'log') return order.descending ? keys.slice().reverse() : keys;
  const n = keys.length;
  const values: Value[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = summaryOf(keys[i]);
    values[i] = s ? sortValue(s, order.by) : null;
  }
  const sign = order.descending ? -1 : 1;
  const at = Array.from({ length: n }, (_, i) => i);
  at.sort((x, y) => {
    const a = values[x];
    const b = values[y];
    if (a === b) return x - y;
    if (a === null) return 1;
    if (b === null) return -1;
    return (a < b ? -1 : a > b ? 1 : 0) * sign || x - y;
  });
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = keys[at[i]];
  return out;
}
