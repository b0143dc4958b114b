// Conversation lineage (laser-sdk 0.7's `parent`): the edge from a spawned conversation to the
// conversation that spawned it, drawn beside report@1's graph and its layout, never in them.
import { describe, expect, it } from 'vitest';
import type { InspectedRecord } from '../records';
import { Conversation, crock, graphOf, id16, reportGraphOf, text } from '../../../test/support/graph-helpers';
import { layoutGraph } from './layout';
import { lineageGhostBoxes } from './lineage';
import type { AgdxGraph, GraphEdge } from './model';

const body = text('{}');
const PLANNER = id16(0x51);
const BOOKER = id16(0x52);
const lineage = (g: AgdxGraph) => g.lineage.edges.map((e: GraphEdge) => [e.from, e.to, e.via]);

/**
 * A planner conversation that hands off to a booker conversation it spawned, then hears back; with
 * `lineage` false, the same records without `parent` / `root`.
 */
function tree(lineage = true): InspectedRecord[] {
  const c = new Conversation(PLANNER);
  const spawned = lineage ? { parent: PLANNER, root: PLANNER } : {};
  c.add({ kind: 'status', record: id16(1), operation: 'session', task_state: 1, body });
  c.add({ kind: 'command', record: id16(2), operation: 'invoke_agent', target: 'booker', correlation: id16(0x70), body });
  c.add({ kind: 'status', record: id16(3), conversation: BOOKER, ...spawned, operation: 'session', task_state: 1, source: 'booker', body });
  c.add({ kind: 'command', record: id16(4), conversation: BOOKER, ...spawned, correlation: id16(0x71), source: 'booker', body });
  c.add({ kind: 'response', record: id16(5), conversation: BOOKER, ...spawned, correlation: id16(0x71), source: 'booker', body });
  c.add({ kind: 'response', record: id16(6), correlation: id16(0x70), source: 'booker', body });
  return c.records;
}

describe('conversation lineage', () => {
  it("joins the child's first record to the parent's record that spawned it (its latest before), via lineage", () => {
    const g = graphOf(tree());
    expect(lineage(g)).toEqual([[crock(3), crock(2), 'lineage']]);
    expect(g.lineage.edges[0]).toMatchObject({ id: `${crock(3)}>${crock(2)}:lineage`, count: 1, note: null });
    expect(g.lineage.ghosts).toEqual([]);
    // Kept out of the edges the layout and the report read.
    expect(g.edges.some((e) => e.via === 'lineage')).toBe(false);
    expect(reportGraphOf(tree()).edges.some((e) => (e.via as string) === 'lineage')).toBe(false);
  });

  it("leaves report@1's graph and the layout of the records as they are without lineage", () => {
    const withLineage = graphOf(tree());
    const without = graphOf(tree(false));
    expect(without.lineage.edges).toEqual([]);
    expect(reportGraphOf(tree())).toEqual(reportGraphOf(tree(false)));
    expect(layoutGraph(withLineage)).toEqual(layoutGraph(without));
  });

  it("draws to the parent's first record when none of the parent's comes before the child", () => {
    const c = new Conversation(BOOKER);
    c.add({ kind: 'event', record: id16(3), parent: PLANNER, body });
    c.add({ kind: 'event', record: id16(1), conversation: PLANNER, body });
    c.add({ kind: 'event', record: id16(2), conversation: PLANNER, body });
    const g = graphOf(c.records);
    expect(lineage(g)).toEqual([[crock(3), crock(1), 'lineage']]);
    expect(g.lineage.edges[0].note).toMatch(/no record of conversation .* comes before this one in the log: drawn to its first record/);
  });

  it('a parent conversation not in the load is one ghost, shared by its children, outside missing and the report', () => {
    const c = new Conversation(BOOKER);
    c.add({ kind: 'event', record: id16(3), parent: PLANNER, root: PLANNER, body });
    c.add({ kind: 'event', record: id16(4), parent: PLANNER, root: PLANNER, body });
    c.add({ kind: 'event', record: id16(5), conversation: id16(0x53), parent: PLANNER, root: PLANNER, body });
    const g = graphOf(c.records);
    const ghost = `ghost:conversation:${crock(0x51)}`;
    expect(lineage(g)).toEqual([
      [crock(3), ghost, 'lineage'],
      [crock(5), ghost, 'lineage'],
    ]);
    expect(g.lineage.ghosts).toEqual([expect.objectContaining({ id: ghost, kind: 'ghost', group: null, refs: [{ via: 'parent', ref: crock(0x51) }] })]);
    expect(g.nodes.some((n) => n.id === ghost)).toBe(false);
    expect(g.missing).toEqual([]);
    expect(reportGraphOf(c.records).missing).toEqual([]);
  });

  it("follows the parent's record into the node that shows it (a folded stream)", () => {
    const c = new Conversation(PLANNER);
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x70), body });
    c.add({ kind: 'chunk', correlation: id16(0x70), channel: id16(0x60), sequence: 0, operation: 'chat', body: text('a') });
    c.add({ kind: 'chunk', correlation: id16(0x70), channel: id16(0x60), sequence: 1, last: true, body: text('b') });
    c.add({ kind: 'event', record: id16(3), conversation: BOOKER, parent: PLANNER, body });
    const g = graphOf(c.records);
    const stream = g.nodes.find((n) => n.kind === 'stream')!;
    expect(lineage(g)).toEqual([[crock(3), stream.id, 'lineage']]);
    // Unfolded, it goes to the chunk itself.
    expect(lineage(graphOf(c.records, { foldStreams: false }))).toEqual([[crock(3), 'rec:0:2', 'lineage']]);
  });

  it("draws nothing for a record naming its own conversation, or for a dead letter's payload", () => {
    const c = new Conversation(PLANNER);
    c.add({ kind: 'event', record: id16(1), parent: PLANNER, body });
    c.add({ kind: 'event', record: id16(2), conversation: BOOKER, parent: PLANNER, body }, { parent: 0 });
    const g = graphOf(c.records);
    expect(g.lineage).toEqual({ edges: [], ghosts: [] });
  });

  it('places the ghosts left of the layout, at their first child, one under another', () => {
    const c = new Conversation(BOOKER);
    c.add({ kind: 'event', record: id16(3), parent: id16(0x61), body });
    c.add({ kind: 'event', record: id16(4), conversation: id16(0x53), parent: id16(0x62), body });
    const g = graphOf(c.records);
    const boxes = layoutGraph(g);
    const size = { width: 220, height: 72 };
    const ghosts = lineageGhostBoxes(g.lineage, boxes, size);
    const [a, b] = g.lineage.ghosts.map((x) => ghosts.get(x.id)!);
    expect(a).toEqual({ x: -300, y: boxes.get(crock(3))!.y, ...size });
    expect(b.x).toBe(-300);
    expect(b.y).toBeGreaterThanOrEqual(a.y + size.height);
    for (const box of boxes.values()) expect(box.x).toBeGreaterThanOrEqual(a.x + size.width);
  });
});
