// A layered layout, left to right: parents to the left of their children, time flowing right.
// Pure, deterministic and linear in the graph's size (10,000 nodes in tens of milliseconds), and
// stable by construction:
// - a node's layer (x) is the longest path from a root to it, so adding a record never moves
//   any other node sideways: only its own descendants could move, and a new leaf has none;
// - rows (y) are filled in sortKey order, each child placed at or below the row of its nearest
//   parent, so a new record only pushes down what comes after it in its own column and part.
// Cycles are condensed first: the members of a cycle take consecutive layers in sortKey order.
// Parts of the graph that are not connected are stacked top to bottom in order of their first node.
import type { LayoutInput, LayoutOptions, NodeBox } from './model';
import { stronglyConnected } from './scc';

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 72;

export function layoutGraph(graph: LayoutInput, options: LayoutOptions = {}): Map<string, NodeBox> {
  const width = options.nodeWidth ?? NODE_WIDTH;
  const height = options.nodeHeight ?? NODE_HEIGHT;
  const rankGap = options.rankGap ?? 80;
  const rowGap = options.rowGap ?? 24;
  const componentGap = options.componentGap ?? 48;

  // Nodes in sortKey order (ties by id) so that the input's order does not matter.
  const nodes = [...graph.nodes].sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const n = nodes.length;
  const index = new Map<string, number>();
  nodes.forEach((node, i) => {
    if (!index.has(node.id)) index.set(node.id, i);
  });
  const parents: number[][] = nodes.map(() => []);
  for (const e of graph.edges) {
    const c = index.get(e.from);
    const p = index.get(e.to);
    if (c === undefined || p === undefined || c === p) continue;
    parents[c].push(p);
  }

  // Layers: longest path over the condensation. Components come parents first (see scc.ts).
  const comps = stronglyConnected(n, parents);
  const compOf = new Int32Array(n);
  comps.forEach((c, i) => {
    for (const v of c) compOf[v] = i;
    c.sort((a, b) => a - b); // index order = sortKey order
  });
  const compRank = new Int32Array(comps.length);
  const rank = new Int32Array(n);
  comps.forEach((c, i) => {
    let r = 0;
    for (const v of c) {
      for (const p of parents[v]) {
        const pc = compOf[p];
        if (pc !== i) r = Math.max(r, compRank[pc] + comps[pc].length);
      }
    }
    compRank[i] = r;
    c.forEach((v, k) => {
      rank[v] = r + k;
    });
  });

  // Connected parts (union-find), in order of their first node.
  const up = new Int32Array(n).map((_, i) => i);
  const find = (v: number): number => {
    while (up[v] !== v) {
      up[v] = up[up[v]];
      v = up[v];
    }
    return v;
  };
  for (let c = 0; c < n; c++) {
    for (const p of parents[c]) {
      const a = find(c);
      const b = find(p);
      if (a !== b) up[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const parts = new Map<number, number[]>();
  for (let v = 0; v < n; v++) {
    const root = find(v);
    const list = parts.get(root);
    if (list) list.push(v);
    else parts.set(root, [v]);
  }

  // Rows: each part on its own band; within it, layer by layer, each node at or below its nearest
  // parent's row, in (that row, sortKey) order.
  const row = new Float64Array(n);
  const boxes = new Map<string, NodeBox>();
  const rowHeight = height + rowGap;
  let top = 0;
  for (const members of [...parts.entries()].sort((a, b) => a[0] - b[0]).map(([, m]) => m)) {
    const byRank = new Map<number, number[]>();
    for (const v of members) {
      const list = byRank.get(rank[v]);
      if (list) list.push(v);
      else byRank.set(rank[v], [v]);
    }
    let rows = 0;
    for (const r of [...byRank.keys()].sort((a, b) => a - b)) {
      const layer = byRank.get(r)!;
      const desired = new Float64Array(layer.length);
      layer.forEach((v, i) => {
        // The nearest parent (the one in the highest layer: the one the node's layer comes from),
        // the highest row among those.
        let d = -1;
        let dr = -1;
        for (const p of parents[v]) {
          if (rank[p] >= r) continue;
          if (rank[p] > dr || (rank[p] === dr && row[p] < d)) {
            dr = rank[p];
            d = row[p];
          }
        }
        desired[i] = d;
      });
      const order = layer.map((_, i) => i).sort((a, b) => desired[a] - desired[b] || layer[a] - layer[b]);
      let next = 0;
      for (const i of order) {
        const v = layer[i];
        row[v] = Math.max(next, desired[i]);
        next = row[v] + 1;
      }
      rows = Math.max(rows, next);
    }
    for (const v of members) {
      const id = nodes[v].id;
      if (boxes.has(id)) continue;
      boxes.set(id, { x: rank[v] * (width + rankGap), y: top + row[v] * rowHeight, width, height });
    }
    top += rows * rowHeight - rowGap + componentGap;
  }
  return boxes;
}
