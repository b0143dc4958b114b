import { describe, expect, it } from 'vitest';
import { conversationBoxes, GROUP_LABEL, GROUP_PAD, type GroupBox } from './groups';

const node = (group: string | null, x: number, y: number) => ({ group, x, y, width: 100, height: 50 });
const inside = (n: ReturnType<typeof node>, b: GroupBox) =>
  n.x >= b.x && n.y >= b.y + GROUP_LABEL && n.x + n.width <= b.x + b.width && n.y + n.height <= b.y + b.height;
const overlap = (a: GroupBox, b: GroupBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('conversation boxes', () => {
  it('encloses a conversation’s nodes with room around them and above for the name', () => {
    const nodes = [node('A', 0, 0), node('A', 300, 0), node('A', 300, 100), node(null, 900, 40)];
    const [a, ...rest] = conversationBoxes(nodes);
    expect(rest).toEqual([]);
    expect(a).toEqual({ id: 'A', x: -GROUP_PAD, y: -GROUP_PAD - GROUP_LABEL, width: 400 + 2 * GROUP_PAD, height: 150 + 2 * GROUP_PAD + GROUP_LABEL, nodes: 3 });
    for (const n of nodes.slice(0, 3)) expect(inside(n, a)).toBe(true);
  });

  it('gives a conversation a box per band when another conversation’s band lies between: no box covers another', () => {
    // A (rows 0–1), then B (rows 2–3), then A again (row 4): stacked bands, as the layout makes them.
    const nodes = [node('A', 0, 0), node('A', 0, 100), node('B', 0, 200), node('B', 300, 300), node('A', 0, 400)];
    const boxes = conversationBoxes(nodes);
    expect(boxes.map((b) => [b.id, b.nodes])).toEqual([
      ['A', 2],
      ['B', 2],
      ['A', 1],
    ]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) expect(overlap(boxes[i], boxes[j])).toBe(false);
    expect(inside(nodes[4], boxes[2])).toBe(true);
  });

  it('draws no box for nodes of no conversation', () => {
    expect(conversationBoxes([node(null, 0, 0)])).toEqual([]);
    expect(conversationBoxes([])).toEqual([]);
  });
});
