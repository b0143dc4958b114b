// Strongly connected components (Tarjan), iterative so a long chain cannot overflow the stack, over
// adjacency in compressed rows (typed arrays: a large log's graph has a million nodes).

/** Adjacency in compressed rows: node v's successors are targets[offsets[v]] … targets[offsets[v + 1] - 1]. */
export interface Rows {
  offsets: Int32Array;
  targets: Int32Array;
}

/** Adjacency lists as compressed rows. */
export function toRows(n: number, adj: readonly (readonly number[])[]): Rows {
  const offsets = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v] + adj[v].length;
  const targets = new Int32Array(offsets[n]);
  for (let v = 0; v < n; v++) targets.set(adj[v], offsets[v]);
  return { offsets, targets };
}

/**
 * Tarjan over rows; each component is given to `emit` as its members (in pop order) once complete,
 * except a singleton `keepSingle` rejects (never made into an array).
 */
function tarjan(n: number, { offsets, targets }: Rows, keepSingle: (v: number) => boolean, emit: (component: number[]) => void): void {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callEdge = new Int32Array(n);
  let sp = 0;
  let cp = 0;
  let counter = 0;

  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    callNode[cp] = root;
    callEdge[cp++] = offsets[root];
    index[root] = low[root] = counter++;
    stack[sp++] = root;
    onStack[root] = 1;
    while (cp > 0) {
      const top = cp - 1;
      const v = callNode[top];
      if (callEdge[top] < offsets[v + 1]) {
        const w = targets[callEdge[top]++];
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack[sp++] = w;
          onStack[w] = 1;
          callNode[cp] = w;
          callEdge[cp++] = offsets[w];
        } else if (onStack[w]) {
          low[v] = Math.min(low[v], index[w]);
        }
        continue;
      }
      cp--;
      if (cp > 0) {
        const parent = callNode[cp - 1];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] === index[v]) {
        if (stack[sp - 1] === v && !keepSingle(v)) {
          sp--;
          onStack[v] = 0;
          continue;
        }
        const comp: number[] = [];
        let w: number;
        do {
          w = stack[--sp];
          onStack[w] = 0;
          comp.push(w);
        } while (w !== v);
        emit(comp);
      }
    }
  }
}

/**
 * The strongly connected components of a graph of `n` nodes given as adjacency lists. Components
 * come out in reverse topological order of the edges: a component is emitted after every
 * component it reaches. With child → parent edges, parents come before their children.
 */
export function stronglyConnected(n: number, adj: readonly (readonly number[])[]): number[][] {
  const out: number[][] = [];
  tarjan(
    n,
    toRows(n, adj),
    () => true,
    (c) => out.push(c),
  );
  return out;
}

/** The cycles: components of more than one node, or a node with an edge to itself. */
export function findCycles(n: number, adj: readonly (readonly number[])[]): number[][] {
  return findCyclesInRows(n, toRows(n, adj));
}

/** findCycles over rows, in the same order. */
export function findCyclesInRows(n: number, rows: Rows): number[][] {
  const { offsets, targets } = rows;
  const selfLoop = (v: number) => {
    for (let i = offsets[v]; i < offsets[v + 1]; i++) if (targets[i] === v) return true;
    return false;
  };
  const out: number[][] = [];
  tarjan(n, rows, selfLoop, (c) => out.push(c));
  return out;
}
