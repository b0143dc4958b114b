// The graph as the page gets it, over the laser-sdk 0.7 samples: nodes named by the reference's
// display types, the parent → child conversation edge, and a ghost for a parent not loaded.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspect } from '../core/inspect';
import { renderGraph } from './graph-render';
import { summarize } from './summarize';

function rendered(file: string) {
  const result = inspect([{ name: file, bytes: new Uint8Array(readFileSync(resolve(process.cwd(), file))) }]);
  return renderGraph(result.log, result.workflows, (i) => summarize(i, result.records[i]), []);
}

describe('renderGraph over the 0.7 dialect', () => {
  it("names records by their display types, the AGDX kind on the line below; joins the booker's session to the planner's handoff", () => {
    const g = rendered('vectors/agdx/sessions/sessions_tree_http_v07.json');
    const records = g.nodes.filter((n) => n.kind === 'record');
    expect(records.slice(0, 6).map((n) => n.title)).toEqual([
      'session.submitted',
      'session.started',
      'model.request',
      'model.response',
      'context.assembled',
      'agent.handoff',
    ]);
    expect(records[5].detail).toBe('command · planner → booker');
    const lineage = g.edges.filter((e) => e.via === 'lineage');
    expect(lineage).toHaveLength(1);
    const [child, parent] = [records.find((n) => n.id === lineage[0].from)!, records.find((n) => n.id === lineage[0].to)!];
    expect([child.title, child.subtitle, child.detail]).toEqual(['session.submitted', '01KBE5…W007', 'status · booker']);
    expect([parent.title, parent.subtitle]).toEqual(['agent.handoff', '01KBE5…W006']);
    expect(child.group).not.toBe(parent.group);
  });

  it('a parent conversation not in the load is a ghost left of the records, beside its first child', () => {
    const g = rendered('vectors/agdx/laser-sdk-ts-0.7.0/iggy_export.json');
    const ghosts = g.nodes.filter((n) => n.id.startsWith('ghost:conversation:'));
    expect(ghosts.map((n) => [n.title, n.subtitle, n.group])).toEqual([
      ['missing conversation', '000000…0004', null],
      ['missing conversation', '000000…0006', null],
    ]);
    const left = Math.min(...g.nodes.filter((n) => !ghosts.includes(n)).map((n) => n.x));
    for (const ghost of ghosts) {
      expect(ghost.x + ghost.width).toBeLessThan(left);
      const edge = g.edges.find((e) => e.via === 'lineage' && e.to === ghost.id)!;
      expect(g.nodes.find((n) => n.id === edge.from)!.y).toBe(ghost.y);
    }
    // Counted neither as nodes nor as missing causes.
    expect(g.missing).toBe(1);
  });
});
