import { describe, expect, it } from 'vitest';
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH } from './layout';
import type { LayoutInput } from './model';
import { Conversation, crock, id16, text, graphOf } from '../../../test/support/graph-helpers';

const body = text('{}');

/** Two conversations: a command with a response, an event chain and a stream; a second, small one. */
function scene() {
  const a = new Conversation(id16(0xa));
  a.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
  a.add({ kind: 'event', record: id16(2), cause: id16(1), body });
  a.add({ kind: 'event', record: id16(3), cause: id16(2), body });
  a.add({ kind: 'chunk', correlation: id16(0x50), channel: id16(0x60), sequence: 0, operation: 'chat', body });
  a.add({ kind: 'response', record: id16(4), cause: id16(1), correlation: id16(0x50), body });
  const b = new Conversation(id16(0xb));
  b.add({ kind: 'command', record: id16(10), correlation: id16(0x51), body }, { input: 1 });
  b.add({ kind: 'response', record: id16(11), cause: id16(10), correlation: id16(0x51), body }, { input: 1 });
  return { a, b };
}

describe('layoutGraph', () => {
  it('puts parents to the left of their children, fixed node size', () => {
    const { a, b } = scene();
    const g = graphOf([...a.records, ...b.records]);
    const boxes = layoutGraph(g);
    expect(boxes.size).toBe(g.nodes.length);
    for (const e of g.edges) expect(boxes.get(e.to)!.x, `${e.from} → ${e.to}`).toBeLessThan(boxes.get(e.from)!.x);
    for (const box of boxes.values()) expect([box.width, box.height]).toEqual([NODE_WIDTH, NODE_HEIGHT]);
    expect(boxes.get(crock(1))!.x).toBe(0);
    expect(boxes.get(crock(3))!.x).toBe(2 * (NODE_WIDTH + 80));
    // The second conversation sits below the first, without overlap.
    const bottomOfA = Math.max(...g.nodes.filter((n) => n.group === crock(0xa)).map((n) => boxes.get(n.id)!.y + NODE_HEIGHT));
    expect(boxes.get(crock(10))!.y).toBeGreaterThan(bottomOfA);
  });

  it('no two nodes overlap', () => {
    const { a, b } = scene();
    const boxes = [...layoutGraph(graphOf([...a.records, ...b.records])).values()];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [p, q] = [boxes[i], boxes[j]];
        const apart = p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y;
        expect(apart).toBe(true);
      }
    }
  });

  it('is deterministic, whatever the order of nodes and edges given', () => {
    const { a, b } = scene();
    const g = graphOf([...a.records, ...b.records]);
    const shuffled: LayoutInput = { nodes: [...g.nodes].reverse(), edges: [...g.edges].reverse() };
    expect([...layoutGraph(shuffled)].sort()).toEqual([...layoutGraph(g)].sort());
  });

  it('is stable when a record is added: the others keep their x, and the parts above keep their place', () => {
    const { a, b } = scene();
    const before = layoutGraph(graphOf([...a.records, ...b.records]));
    a.add({ kind: 'event', record: id16(5), cause: id16(3), body }); // a new leaf in the first conversation
    b.add({ kind: 'event', record: id16(12), cause: id16(11), body }, { input: 1 }); // and one in the second
    const after = layoutGraph(graphOf([...a.records, ...b.records]));
    expect(after.size).toBe(before.size + 2);
    for (const [id, box] of before) {
      expect(after.get(id)!.x, id).toBe(box.x);
    }
    // The first conversation's nodes did not move at all: the new leaf extends its own row.
    for (const id of [crock(1), crock(2), crock(3), crock(4)]) expect(after.get(id), id).toEqual(before.get(id));
    expect(after.get(crock(5))!.y).toBe(after.get(crock(3))!.y);
  });

  it('lays out a cycle in consecutive layers', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(1), cause: id16(2), body });
    c.add({ kind: 'event', record: id16(2), cause: id16(1), body });
    c.add({ kind: 'event', record: id16(3), cause: id16(2), body });
    const boxes = layoutGraph(graphOf(c.records));
    expect([1, 2, 3].map((n) => boxes.get(crock(n))!.x / (NODE_WIDTH + 80))).toEqual([0, 1, 2]);
  });

  it('takes options and ignores edges to unknown nodes', () => {
    const boxes = layoutGraph(
      {
        nodes: [
          { id: 'p', sortKey: '1' },
          { id: 'c', sortKey: '2' },
        ],
        edges: [
          { from: 'c', to: 'p' },
          { from: 'c', to: 'nowhere' },
        ],
      },
      { nodeWidth: 100, nodeHeight: 40, rankGap: 10 },
    );
    expect(boxes.get('c')).toEqual({ x: 110, y: 0, width: 100, height: 40 });
  });

  it('lays out 10,000 nodes quickly', () => {
    // Conversations of 10..59 records, each naming a random earlier record of its conversation.
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const nodes: { id: string; sortKey: string }[] = [];
    const edges: { from: string; to: string }[] = [];
    let i = 0;
    while (i < 10_000) {
      const start = i;
      const size = Math.min(10_000 - i, 10 + Math.floor(rnd() * 50));
      for (let k = 0; k < size; k++, i++) {
        nodes.push({ id: `n${i}`, sortKey: String(i).padStart(6, '0') });
        if (k > 0) edges.push({ from: `n${i}`, to: `n${start + Math.max(0, k - 1 - Math.floor(rnd() * Math.min(k, 20)))}` });
      }
    }
    // Its speed is measured by npm run bench (graph_10k_layout_ms), never asserted here.
    const boxes = layoutGraph({ nodes, edges });
    expect(boxes.size).toBe(10_000);
  });
});
