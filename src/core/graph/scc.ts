// Strongly connected components (Tarjan), iterative so a long chain cannot overflow the stack.

/**
 * The strongly connected components of a graph of `n` nodes given as adjacency lists. Components
 * come out in reverse topological order of the edges: a component is emitted after every
 * component it reaches. With child → parent edges, parents come before their children.
 */
export function stronglyConnected(n: number, adj: readonly (readonly number[])[]): number[][] {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const out: number[][] = [];
  const callNode: number[] = [];
  const callEdge: number[] = [];
  let counter = 0;

  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    callNode.push(root);
    callEdge.push(0);
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (callNode.length > 0) {
      const top = callNode.length - 1;
      const v = callNode[top];
      const edges = adj[v];
      if (callEdge[top] < edges.length) {
        const w = edges[callEdge[top]++];
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          callNode.push(w);
          callEdge.push(0);
        } else if (onStack[w]) {
          low[v] = Math.min(low[v], index[w]);
        }
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (callNode.length > 0) {
        const parent = callNode[callNode.length - 1];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] === index[v]) {
        const comp: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp.push(w);
        } while (w !== v);
        out.push(comp);
      }
    }
  }
  return out;
}

/** The cycles: components of more than one node, or a node with an edge to itself. */
export function findCycles(n: number, adj: readonly (readonly number[])[]): number[][] {
  return stronglyConnected(n, adj).filter((c) => c.length > 1 || adj[c[0]].includes(c[0]));
}
