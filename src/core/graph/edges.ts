// The graph's one order (byKey), and edges re-targeted through a folding map when drawing.
import type { GraphEdge } from './model';

/** Compares by sortKey (strings): the graph's one order. */
export const byKey = <T extends { sortKey: string }>(a: T, b: T) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0);

/**
 * Re-targets edges through a folding map; drops edges folded inside one node, merges the rest. An
 * edge the map does not touch is passed on as it is (shared, never changed): only re-targeted edges
 * can merge, since every id the map gives is a new node's.
 */
export function remap(list: readonly GraphEdge[], map: ReadonlyMap<string, string>): GraphEdge[] {
  const out: GraphEdge[] = [];
  const merged = new Map<string, GraphEdge>();
  for (const e of list) {
    const from = map.get(e.from) ?? e.from;
    const to = map.get(e.to) ?? e.to;
    if (from === e.from && to === e.to) {
      out.push(e);
      continue;
    }
    if (from === to && e.from !== e.to) continue;
    const id = `${from}>${to}:${e.via}`;
    const m = merged.get(id);
    if (m) {
      m.count += e.count;
      if (e.note !== null && m.note === null) m.note = e.note;
      continue;
    }
    const edge: GraphEdge = { id, from, to, via: e.via, count: e.count, note: e.note };
    merged.set(id, edge);
    out.push(edge);
  }
  return out;
}
