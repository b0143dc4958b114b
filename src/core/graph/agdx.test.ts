import { describe, expect, it } from 'vitest';
import type { AgdxGraph, FoldNode, GhostNode, RecordNode, StreamNode } from './model';
import { Conversation, causeAt, crock, hops, id16, text, graphOf, reportGraphOf } from '../../../test/support/graph-helpers';

const body = text('{}');
const edge = (g: AgdxGraph, from: string, to: string, via: string) => g.edges.find((e) => e.from === from && e.to === to && e.via === via);
const node = <T = RecordNode>(g: AgdxGraph, id: string) => g.nodes.find((n) => n.id === id) as T;

/** command (p3/o41) → response (cause + cause_at), both from an Iggy export. */
function exported() {
  const c = new Conversation();
  const cmd = c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body }, { position: { partition: 3, offset: 41 }, logTime: 100n });
  const resp = c.add(
    { kind: 'response', record: id16(2), cause: id16(1), cause_at: causeAt(1, 2, 3, 41), correlation: id16(0x50), body },
    { position: { partition: 3, offset: 42 }, logTime: 200n },
  );
  return { c, cmd, resp };
}

describe('drawAgdxGraph: causal edges', () => {
  it('draws cause and cause_at from the child to the parent; cause_at says what it could not check', () => {
    const { c } = exported();
    const g = graphOf(c.records);
    expect(g.nodes.map((n) => n.id)).toEqual([crock(1), crock(2)]);
    expect(edge(g, crock(2), crock(1), 'cause')).toBeDefined();
    const at = edge(g, crock(2), crock(1), 'cause_at')!;
    expect(at.note).toMatch(/partition 3 and offset 41 only.*stream 1, topic 2/);
    expect(g.missing).toEqual([]);
    expect(g.findings).toEqual([]);
    expect(node(g, crock(1))).toMatchObject({ kind: 'record', recordIndex: 0, recordKind: 'command', group: c.records[0].verdict.conversation });
  });

  it('a log position whose stream and topic are known must match them too', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body }, { position: { partition: 3, offset: 41, stream: 9, topic: 9 } });
    c.add({ kind: 'command', record: id16(3), correlation: id16(0x51), body }, { position: { partition: 3, offset: 41, stream: 1, topic: 2 }, input: 1 });
    c.add({ kind: 'event', record: id16(2), cause_at: causeAt(1, 2, 3, 41), body }, { position: { partition: 3, offset: 42 } });
    const g = graphOf(c.records);
    const at = g.edges.filter((e) => e.via === 'cause_at');
    expect(at.map((e) => [e.from, e.to, e.note])).toEqual([[crock(2), crock(3), null]]);
  });

  it('a ghost node and a missing entry for a cause that resolves to nothing', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(7), cause: id16(0x404), body });
    const g = graphOf(c.records);
    const ghost = node<GhostNode>(g, `ghost:${crock(0x404)}`);
    expect(ghost).toMatchObject({ kind: 'ghost', recordIndex: null, refs: [{ via: 'cause', ref: crock(0x404) }] });
    expect(edge(g, crock(7), ghost.id, 'cause')).toBeDefined();
    expect(g.missing).toEqual([{ from: crock(7), ref: crock(0x404), via: 'cause' }]);
    const report = reportGraphOf(c.records);
    expect(report.nodes).toBe(1); // the ghost is not counted
    expect(report.edges).toEqual([]); // the absent parent is in missing, not in edges
    expect(report.missing).toEqual(g.missing);
  });

  it('one ghost for a parent missing by both cause and cause_at (in an export)', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(8), body }, { position: { partition: 0, offset: 1 } });
    c.add({ kind: 'event', record: id16(7), cause: id16(0x404), cause_at: causeAt(1, 1, 0, 99), body }, { position: { partition: 0, offset: 2 } });
    const g = graphOf(c.records);
    const ghosts = g.nodes.filter((n) => n.kind === 'ghost') as GhostNode[];
    expect(ghosts).toHaveLength(1);
    expect(ghosts[0].refs.map((r) => r.via)).toEqual(['cause', 'cause_at']);
    expect(g.missing).toEqual([
      { from: crock(7), ref: crock(0x404), via: 'cause' },
      { from: crock(7), ref: 'stream 1, topic 1, partition 0, offset 99', via: 'cause_at' },
    ]);
  });

  it('a cause_at alone, with no log position anywhere, is a missing parent', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(7), cause_at: causeAt(1, 1, 0, 99), body });
    const g = graphOf(c.records);
    expect(g.missing).toEqual([{ from: crock(7), ref: 'stream 1, topic 1, partition 0, offset 99', via: 'cause_at' }]);
    expect((g.nodes.find((n) => n.kind === 'ghost') as GhostNode).note).toMatch(/no record of the input has a known log position/);
  });

  it('without any log position, a cause_at beside a resolved cause is noted as unchecked, not missing', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
    c.add({ kind: 'response', record: id16(2), cause: id16(1), cause_at: causeAt(1, 2, 3, 41), correlation: id16(0x50), body });
    const g = graphOf(c.records);
    expect(g.missing).toEqual([]);
    expect(g.nodes.some((n) => n.kind === 'ghost')).toBe(false);
    const e = edge(g, crock(2), crock(1), 'cause')!;
    expect(e.count).toBe(1);
    expect(e.note).toMatch(/cause_at \(stream 1, topic 2, partition 3, offset 41\) not checked/);
  });

  it('a cycle: two records causing each other', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(1), cause: id16(2), body });
    c.add({ kind: 'event', record: id16(2), cause: id16(1), body });
    c.add({ kind: 'event', record: id16(3), cause: id16(3), body }); // names itself
    c.add({ kind: 'event', record: id16(4), cause: id16(1), body }); // not in a cycle
    const g = graphOf(c.records);
    expect(g.cycles).toEqual([[crock(1), crock(2)], [crock(3)]]);
    expect(g.nodes.filter((n) => n.cycle).map((n) => n.id)).toEqual([crock(1), crock(2), crock(3)]);
    expect(edge(g, crock(3), crock(3), 'cause')!.note).toMatch(/names itself/);
    expect(reportGraphOf(c.records).cycles).toEqual(g.cycles);
  });

  it('a cause / cause_at disagreement is a warning on the child', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body }, { position: { partition: 3, offset: 41 } });
    c.add({ kind: 'event', record: id16(9), body }, { position: { partition: 3, offset: 40 } });
    const child = c.add(
      { kind: 'response', record: id16(2), cause: id16(1), cause_at: causeAt(1, 2, 3, 40), correlation: id16(0x50), body },
      { position: { partition: 3, offset: 42 } },
    );
    const g = graphOf(c.records);
    expect(g.findings).toHaveLength(1);
    expect(g.findings[0].recordIndex).toBe(c.at(child));
    expect(g.findings[0].finding).toMatchObject({ rule: 'agdx/graph/cause-mismatch', severity: 'warning', path: 'cause_at' });
    expect(g.findings[0].finding.message).toContain(crock(9));
    expect(node(g, crock(2)).findings).toEqual([g.findings[0].finding]);
    expect(edge(g, crock(2), crock(1), 'cause')).toBeDefined();
    expect(edge(g, crock(2), crock(9), 'cause_at')).toBeDefined();
  });

  it('a cause whose record sits elsewhere than cause_at says is a disagreement too', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body }, { position: { partition: 3, offset: 41 } });
    c.add(
      { kind: 'response', record: id16(2), cause: id16(1), cause_at: causeAt(1, 2, 3, 7), correlation: id16(0x50), body },
      { position: { partition: 3, offset: 42 } },
    );
    const g = graphOf(c.records);
    expect(g.findings.map((f) => f.finding.rule)).toEqual(['agdx/graph/cause-mismatch']);
    expect(g.missing).toEqual([{ from: crock(2), ref: 'stream 1, topic 2, partition 3, offset 7', via: 'cause_at' }]);
  });

  it('several records with one id: distinct node ids, the cause picks the nearest earlier one', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
    c.add({ kind: 'response', record: id16(1), cause: id16(1), correlation: id16(0x50), body });
    c.add({ kind: 'command', record: id16(1), body });
    const g = graphOf(c.records);
    const ids = g.nodes.map((n) => n.id);
    expect(ids).toEqual([crock(1), `${crock(1)}@0:1`, `${crock(1)}@0:2`]);
    expect((g.nodes as RecordNode[]).every((n) => n.duplicateId)).toBe(true);
    const e = edge(g, `${crock(1)}@0:1`, crock(1), 'cause')!;
    expect(e.note).toMatch(/2 other records carry this record id/);
    expect(g.cycles).toEqual([]);
  });
});

describe('drawAgdxGraph: correlation pairs', () => {
  it('pairs a command with its response, its error and its status task updates', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
    c.add({ kind: 'status', record: id16(2), correlation: id16(0x50), operation: 'task', task_state: 2 });
    c.add({ kind: 'status', record: id16(3), correlation: id16(0x50), operation: 'progress' }); // not a task update
    c.add({ kind: 'response', record: id16(4), correlation: id16(0x50), body });
    c.add({ kind: 'command', record: id16(5), correlation: id16(0x51), body });
    c.add({ kind: 'error', record: id16(6), correlation: id16(0x51), body });
    c.add({ kind: 'response', record: id16(7), correlation: id16(0x52), body }); // no command in the input
    const g = graphOf(c.records);
    const pairs = g.edges.filter((e) => e.via === 'correlation').map((e) => [e.from, e.to]);
    expect(pairs).toEqual([
      [crock(2), crock(1)],
      [crock(4), crock(1)],
      [crock(6), crock(5)],
    ]);
    expect(reportGraphOf(c.records).correlations).toHaveLength(3);
    expect(reportGraphOf(c.records).edges).toEqual([]); // correlation pairs stay out of the causal edges
  });

  it('pairs with the nearest earlier command of the correlation, in the same conversation', () => {
    const c = new Conversation();
    const other = new Conversation(id16(0xc1));
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
    c.add({ kind: 'command', record: id16(2), correlation: id16(0x50), body });
    other.add({ kind: 'command', record: id16(3), correlation: id16(0x50), body }, { input: 1 });
    c.add({ kind: 'response', record: id16(4), correlation: id16(0x50), body });
    const g = graphOf([...c.records, ...other.records]);
    const pairs = g.edges.filter((e) => e.via === 'correlation');
    expect(pairs.map((e) => [e.from, e.to])).toEqual([[crock(4), crock(2)]]);
    expect(pairs[0].note).toMatch(/2 commands carry this correlation; chose the nearest one before this record in the same conversation/);
  });
});

describe('drawAgdxGraph: streams, loops, folds, groups', () => {
  function withStream() {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
    for (let s = 0; s < 3; s++) {
      c.add({
        kind: 'chunk',
        correlation: id16(0x50),
        channel: id16(0x60),
        sequence: s,
        body: text(`t${s}`),
        ...(s === 0 ? { operation: 'chat' } : {}),
        ...(s === 2 ? { last: true } : {}),
      });
    }
    c.add({ kind: 'event', record: id16(9), cause: id16(1), body });
    return c;
  }

  it('folds a chunk stream into one node carrying its reassembly, paired with its command', () => {
    const c = withStream();
    const g = graphOf(c.records);
    const s = g.nodes.find((n) => n.kind === 'stream') as StreamNode;
    expect(s.id).toBe(`stream:${c.records[0].verdict.conversation}:${crock(0x60)}:${crock(0x50)}`);
    expect(s.stream).toMatchObject({ chunks: 3, terminal: 'last', text: 't0t1t2' });
    expect(s.recordIndex).toBe(1);
    expect(edge(g, s.id, crock(1), 'correlation')).toBeDefined();
    expect(g.edges.some((e) => e.via === 'sequence')).toBe(false); // inside the fold
    expect(g.folded).toEqual([{ id: s.id, kind: 'stream', members: ['rec:0:1', 'rec:0:2', 'rec:0:3'], count: 3, parent: null, childKind: null }]);
    expect([1, 2, 3].map((i) => g.nodeOfRecord.get(i))).toEqual([s.id, s.id, s.id]);
    expect(reportGraphOf(c.records).nodes).toBe(5); // every chunk counts as a record
    expect(reportGraphOf(c.records).streams[0]).toMatchObject({
      correlation: crock(0x50),
      channel: crock(0x60),
      chunks: 3,
      duplicates: 0,
      after_terminal: 0,
      gaps: [],
      terminal: 'last',
    });
  });

  it('shows an expanded stream chunk by chunk, chained by sequence', () => {
    const c = withStream();
    const folded = graphOf(c.records);
    const g = graphOf(c.records, { expanded: new Set([folded.streams[0].id]) });
    expect(g.nodes.some((n) => n.kind === 'stream')).toBe(false);
    expect(edge(g, 'rec:0:1', crock(1), 'correlation')).toBeDefined();
    expect(edge(g, 'rec:0:2', 'rec:0:1', 'sequence')).toBeDefined();
    expect(edge(g, 'rec:0:3', 'rec:0:2', 'sequence')).toBeDefined();
    expect(node(g, 'rec:0:2').stream).toBe(folded.streams[0].id);
    expect(graphOf(c.records, { foldStreams: false }).nodes).toHaveLength(5);
  });

  it('an error that ends a stream follows it', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
    c.add({ kind: 'chunk', correlation: id16(0x50), channel: id16(0x60), sequence: 0, operation: 'chat', body: text('a') });
    c.add({ kind: 'error', record: id16(3), correlation: id16(0x50), channel: id16(0x60), body });
    const g = graphOf(c.records);
    const s = g.nodes.find((n) => n.kind === 'stream') as StreamNode;
    expect(s.stream.terminal).toBe('error');
    expect(edge(g, crock(3), s.id, 'sequence')).toBeDefined();
    expect(edge(g, crock(3), crock(1), 'correlation')).toBeDefined();
  });

  it('marks a repeated bridge id as a loop, with a warning on the record', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(1), metadata: hops('bridge-a', 'bridge-b', 'bridge-a'), body });
    c.add({ kind: 'event', record: id16(2), metadata: hops('bridge-a', 'bridge-b'), body });
    const g = graphOf(c.records);
    expect(node(g, crock(1)).loop).toEqual(['bridge-a']);
    expect(node(g, crock(2)).loop).toBeNull();
    expect(g.findings).toEqual([
      { recordIndex: 0, finding: expect.objectContaining({ rule: 'agdx/graph/bridge-loop', severity: 'warning', path: 'metadata.bridge_hops' }) },
    ]);
  });

  it('folds a fan-out above the threshold into one node and says what it folded', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
    for (let i = 0; i < 60; i++) c.add({ kind: 'event', record: id16(100 + i), cause: id16(1), body });
    c.add({ kind: 'event', record: id16(500), cause: id16(100), body }); // a grandchild, through a folded child
    c.add({ kind: 'response', record: id16(2), cause: id16(1), correlation: id16(0x50), body }); // another kind
    const g = graphOf(c.records);
    const fold = g.nodes.find((n) => n.kind === 'fold') as FoldNode;
    expect(fold).toMatchObject({ id: `fold:${crock(1)}:event`, parent: crock(1), childKind: 'event', count: 60, label: '60 event records folded' });
    expect(fold.recordIndices).toHaveLength(60);
    expect(g.nodes.map((n) => n.kind)).toEqual(['record', 'fold', 'record', 'record']);
    expect(edge(g, fold.id, crock(1), 'cause')!.count).toBe(60);
    expect(edge(g, crock(500), fold.id, 'cause')).toBeDefined();
    expect(g.folded).toEqual([{ id: fold.id, kind: 'fan-out', members: fold.members, count: 60, parent: crock(1), childKind: 'event' }]);
    expect(g.nodeOfRecord.get(1)).toBe(fold.id);
    expect(reportGraphOf(c.records).nodes).toBe(63);
    expect(reportGraphOf(c.records).edges).toHaveLength(62);

    expect(graphOf(c.records, { expanded: new Set([fold.id]) }).nodes).toHaveLength(63);
    expect(graphOf(c.records, { foldThreshold: 60 }).nodes.some((n) => n.kind === 'fold')).toBe(false);
    expect(graphOf(c.records, { foldThreshold: 59 }).nodes.some((n) => n.kind === 'fold')).toBe(true);
  });

  it('groups nodes by conversation', () => {
    const a = new Conversation(id16(0xa));
    const b = new Conversation(id16(0xb));
    a.add({ kind: 'event', record: id16(1), body });
    b.add({ kind: 'event', record: id16(2), body }, { input: 1 });
    a.add({ kind: 'event', record: id16(3), body });
    const g = graphOf([...a.records, ...b.records]);
    expect(g.groups).toEqual([
      { id: crock(0xa), nodes: 2 },
      { id: crock(0xb), nodes: 1 },
    ]);
    expect(node(g, crock(2)).group).toBe(crock(0xb));
  });

  it('skips records without an envelope', () => {
    const c = withStream();
    const g = graphOf([...c.records, { verdict: { ...c.records[0].verdict, decoded: false }, data: { ...c.records[0].data, envelope: null } }], {
      foldStreams: false,
    });
    expect(g.nodes).toHaveLength(5);
  });
});
