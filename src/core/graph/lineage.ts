// Conversation lineage: laser-sdk 0.7's `parent` (the conversation that spawned this one) drawn as
// an edge between conversations, which the graph would otherwise draw as islands.
//
// Where an edge goes, so that following it leads where a person looks for the spawn: from the child
// conversation's first record naming that parent (its start, in practice: every record of a 0.7
// child names it) to the parent's latest record before it in log order (where the parent was when
// it spawned the child: the handoff, the tool call), or to the parent's first record when none of
// the parent's comes before. It points from child to parent, as every edge of the graph does
// (model.ts). A parent no record of the load belongs to is a ghost, as the Sessions tab shows it.
// A dead letter's payload was never delivered: it neither spawns nor is spawned. A record naming
// its own conversation as parent (a finding of its own) draws nothing.
//
// For drawing only: report@1's graph does not list these edges (the `sessions` section carries
// parent and root), and the layered layout does not follow them, so a conversation's records keep
// their places whether its parent is loaded or not; the ghosts are placed beside the layout.
import type { LogEntry } from '../log/entry';
import { shortId } from '../short-id';
import type { ConversationLineage, GhostNode, GraphEdge, NodeBox } from './model';

/** The lineage of the entries' conversations; `ids` are the entries' node ids (by entry). */
export function conversationLineage(list: readonly LogEntry[], ids: readonly string[]): ConversationLineage {
  const edges: GraphEdge[] = [];
  const ghosts: GhostNode[] = [];
  // Most logs name no parent: one look per record.
  if (!list.some((e) => e.parentConversation !== null && e.parent === null)) return { edges, ghosts };
  const ordered = new Int32Array(list.length);
  for (let k = 0; k < list.length; k++) ordered[list[k].logOrder] = k;

  // In log order: each conversation's first record and its latest so far, and each pair's first claim.
  const first = new Map<string, number>();
  const latest = new Map<string, number>();
  const claims: { child: number; parent: string; before: number }[] = [];
  const claimed = new Set<string>();
  for (const k of ordered) {
    const e = list[k];
    if (e.parent !== null) continue;
    const p = e.parentConversation;
    if (p !== null && p !== e.conversation && !claimed.has(`${e.conversation}>${p}`)) {
      claimed.add(`${e.conversation}>${p}`);
      claims.push({ child: k, parent: p, before: latest.get(p) ?? -1 });
    }
    if (!first.has(e.conversation)) first.set(e.conversation, k);
    latest.set(e.conversation, k);
  }

  const ghostOf = new Map<string, GhostNode>();
  const made = new Set<string>();
  for (const c of claims) {
    const from = ids[c.child];
    const parentEntry = c.before >= 0 ? c.before : first.get(c.parent);
    let to: string;
    let note: string | null = null;
    if (parentEntry !== undefined) {
      to = ids[parentEntry];
      if (c.before < 0) note = `no record of conversation ${c.parent} comes before this one in the log: drawn to its first record`;
    } else {
      let ghost = ghostOf.get(c.parent);
      if (!ghost) {
        ghost = {
          id: `ghost:conversation:${c.parent}`,
          kind: 'ghost',
          label: `missing conversation ${shortId(c.parent)}`,
          // In no conversation's box: it stands for a conversation of its own, not loaded.
          group: null,
          sortKey: list[c.child].sortKey,
          recordIndex: null,
          cycle: false,
          refs: [{ via: 'parent', ref: c.parent }],
          note: 'named as the parent conversation; no record of it is loaded',
        };
        ghostOf.set(c.parent, ghost);
        ghosts.push(ghost);
      }
      to = ghost.id;
    }
    const id = `${from}>${to}:lineage`;
    // Records sharing a node id (a load repeating a place) make one edge.
    if (made.has(id)) continue;
    made.add(id);
    edges.push({ id, from, to, via: 'lineage', count: 1, note });
  }
  return { edges, ghosts };
}

/**
 * Boxes for the lineage ghosts, which the layered layout leaves out: in a column left of everything
 * `boxes` holds (nothing there to cover), each at the height of the first child naming it, or
 * below the ghost above it when that one is in the way. Linear after a sort: a large tree of
 * conversations whose parents are not loaded has thousands of ghosts.
 */
export function lineageGhostBoxes(
  lineage: ConversationLineage,
  boxes: ReadonlyMap<string, NodeBox>,
  size: { width: number; height: number; rankGap?: number; rowGap?: number },
): Map<string, NodeBox> {
  const out = new Map<string, NodeBox>();
  if (lineage.ghosts.length === 0) return out;
  const rankGap = size.rankGap ?? 80;
  const rowGap = size.rowGap ?? 24;
  let left = 0;
  for (const b of boxes.values()) left = Math.min(left, b.x);
  const x = left - rankGap - size.width;
  // The first child of each ghost: edges come in log order of their children.
  const wanted = new Map<string, number>();
  for (const e of lineage.edges) if (!wanted.has(e.to)) wanted.set(e.to, boxes.get(e.from)?.y ?? 0);
  const order = lineage.ghosts.map((g, i) => ({ id: g.id, y: wanted.get(g.id) ?? 0, i })).sort((a, b) => a.y - b.y || a.i - b.i);
  let next = -Infinity;
  for (const g of order) {
    const y = Math.max(g.y, next);
    next = y + size.height + rowGap;
    out.set(g.id, { x, y, width: size.width, height: size.height });
  }
  return out;
}
