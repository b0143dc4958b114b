import { describe, expect, it } from 'vitest';
import type { GraphRender, GraphRenderNode } from './graph';
import { joinGraph, splitGraph } from './graph-parts';

const node = (i: number): GraphRenderNode => ({
  id: `n${i}`,
  kind: 'record',
  x: i,
  y: 0,
  width: 10,
  height: 10,
  recordKey: i,
  recordKeys: [i],
  title: 't',
  subtitle: 's',
  detail: 'd',
  fullId: null,
  group: null,
  cycle: false,
  alarm: false,
  badges: null,
  dna: null,
  expandable: false,
  timing: [],
  place: null,
});
const graph = (nodes: number, edges: number): GraphRender => ({
  nodes: Array.from({ length: nodes }, (_, i) => node(i)),
  edges: Array.from({ length: edges }, (_, i) => ({ id: `e${i}`, from: `n${i}`, to: `n${i + 1}`, via: 'cause' as const, count: 1, note: null })),
  folded: [],
  missing: 2,
  cycles: 1,
  streams: 3,
  ms: 5,
});

describe('a graph in parts', () => {
  it('comes back whole, in order, with its shell', () => {
    for (const [n, e, size] of [
      [0, 0, 10],
      [5, 3, 10],
      [25, 7, 10],
      [7, 40, 10],
      [1500, 3000, 1500],
      [1501, 0, 1500],
    ] as const) {
      const g = graph(n, e);
      const { parts, shell } = splitGraph(g, size);
      for (const p of parts) {
        expect(p.nodes.length).toBeLessThanOrEqual(size);
        expect(p.edges.length).toBeLessThanOrEqual(size);
      }
      if (n + e <= size) {
        expect(parts).toEqual([]);
        expect(shell).toBe(g); // small enough to go whole
      } else {
        // The shell carries the rest of the graph, and none of the nodes or edges the parts carry.
        expect(parts.length).toBe(Math.ceil(Math.max(n, e) / size));
        expect(shell.nodes).toEqual([]);
        expect(shell.edges).toEqual([]);
        expect({ ...shell, nodes: g.nodes, edges: g.edges }).toEqual(g);
      }
      expect(joinGraph(parts, shell)).toEqual(g);
    }
  });

  it('refuses a part size below one', () => {
    expect(() => splitGraph(graph(3, 3), 0)).toThrow(TypeError);
  });
});
