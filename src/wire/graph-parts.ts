// A large graph crosses to the page in parts: the page deserializes each message in one task, and
// a 10,000-node graph in one message was a 50–75 ms task there. Type-only imports: the page uses
// joinGraph and must not pull in the graph builder.
import type { GraphRender, GraphRenderEdge, GraphRenderNode } from './graph';

/** Some of a large graph's nodes and edges: what one message carries. */
export type GraphPart = Pick<GraphRender, 'nodes' | 'edges'>;

/** A large graph's nodes and edges in parts of at most `size` each, and the graph's shell to send last. */
export function splitGraph(graph: GraphRender, size: number): { parts: GraphPart[]; shell: GraphRender } {
  if (!(size >= 1)) throw new TypeError('splitGraph: size must be at least 1');
  if (graph.nodes.length + graph.edges.length <= size) return { parts: [], shell: graph };
  const parts: GraphPart[] = [];
  for (let i = 0; i < Math.max(graph.nodes.length, graph.edges.length); i += size) {
    parts.push({ nodes: graph.nodes.slice(i, i + size), edges: graph.edges.slice(i, i + size) });
  }
  return { parts, shell: { ...graph, nodes: [], edges: [] } };
}

/** The graph back from its parts and shell (the shell alone when it came whole). */
export function joinGraph(parts: readonly GraphPart[], shell: GraphRender): GraphRender {
  if (parts.length === 0) return shell;
  const nodes: GraphRenderNode[] = [];
  const edges: GraphRenderEdge[] = [];
  for (const p of parts) {
    for (const n of p.nodes) nodes.push(n);
    for (const e of p.edges) edges.push(e);
  }
  return { ...shell, nodes, edges };
}
