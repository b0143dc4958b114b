// Conversations as boxes behind the graph: each AGDX conversation's drawn nodes enclosed, with room
// above for its name. Computed from the laid-out nodes (the worker's `group` of each node); a node
// without a group (AgentDNA, a ghost of no conversation) is in none. No DOM.

/** What a box needs of a node: its conversation and its box in graph coordinates. */
export interface GroupedNode {
  group: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GroupBox {
  /** The conversation (its id as the graph has it). */
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Nodes it encloses. */
  nodes: number;
}

/** Room around a conversation's nodes, and above them for its name. */
export const GROUP_PAD = 12;
export const GROUP_LABEL = 20;

/**
 * A box per run of a conversation's nodes, top to bottom: the layout stacks the graph's connected
 * parts in bands, and conversations can take turns (a part of one between two of another), so one
 * box per conversation would cover the others. Nodes are taken by row (y, then x); a node of
 * another conversation ends the run; a node of none is skipped. In order of each run's first node.
 */
export function conversationBoxes(nodes: readonly GroupedNode[]): GroupBox[] {
  const sorted = nodes.filter((n) => n.group !== null).sort((a, b) => a.y - b.y || a.x - b.x);
  const out: GroupBox[] = [];
  let run: { id: string; x: number; y: number; right: number; bottom: number; nodes: number } | null = null;
  const close = () => {
    if (!run) return;
    out.push({
      id: run.id,
      x: run.x - GROUP_PAD,
      y: run.y - GROUP_PAD - GROUP_LABEL,
      width: run.right - run.x + 2 * GROUP_PAD,
      height: run.bottom - run.y + 2 * GROUP_PAD + GROUP_LABEL,
      nodes: run.nodes,
    });
  };
  for (const n of sorted) {
    if (run && run.id === n.group) {
      run.x = Math.min(run.x, n.x);
      run.right = Math.max(run.right, n.x + n.width);
      run.bottom = Math.max(run.bottom, n.y + n.height);
      run.nodes++;
      continue;
    }
    close();
    run = { id: n.group!, x: n.x, y: n.y, right: n.x + n.width, bottom: n.y + n.height, nodes: 1 };
  }
  close();
  return out;
}
