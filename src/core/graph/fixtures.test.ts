// The whole pipeline on the real fixture: inspect() over vectors/agdx/made/conversation.cborseq
// (a command, a stream's chunks at sequence 0, 7 and 8, a response naming the command by cause
// and by cause_at, an invalid command, a truncated event), then the graph, its report and layout.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../agdx/canonical';
import { concatBytes } from '../bytes';
import { inspect } from '../inspect';
import { recordViews } from '../records';
import { spanOfPath } from './keys';
import { layoutGraph } from './layout';
import type { RecordNode, StreamNode } from './model';
import { hops, id16, text, graphOf, reportGraphOf } from '../../../test/support/graph-helpers';

const bytes = new Uint8Array(readFileSync(new URL('../../../vectors/agdx/made/conversation.cborseq', import.meta.url)));
const CMD = '01J0Y1ZAG00000000000000001';
const CONV = '01J0Y1ZAG00000000000000002';
const CORR = '01J0Y1ZAG00000000000000005';
const CHAN = '01J0Y1ZAG00000000000000006';

describe('the conversation fixture, end to end', () => {
  const { records } = inspect([{ name: 'conversation.cborseq', bytes }]);
  const graph = graphOf(records);

  it('reads the records the fixture holds', () => {
    expect(records.map((r) => r.verdict.kind)).toEqual(['command', 'chunk', 'chunk', 'chunk', 'response', 'command', null]);
    expect(records[6].verdict.error?.code).toBe('cbor/truncated');
  });

  it('reassembles the stream: sequence 0, 7, 8 is a gap at 1..6 (7 ends it; only 8 comes after the end)', () => {
    expect(graph.streams).toHaveLength(1);
    expect(graph.streams[0]).toMatchObject({
      conversation: CONV,
      correlation: CORR,
      channel: CHAN,
      chunks: 3,
      duplicates: 0,
      after_terminal: 1,
      gaps: [1, 2, 3, 4, 5, 6],
      terminal: 'gap',
      purpose: 'reasoning',
      text: 'thinking',
      applied: [1],
      recordIndices: [1, 2, 3],
    });
    const node = graph.nodes.find((n) => n.kind === 'stream') as StreamNode;
    expect(node.stream).toBe(graph.streams[0]);
    expect(edgesOf(node.id)).toEqual([[node.id, CMD, 'correlation']]);
  });

  it('draws the response → command edge by cause; cause_at cannot be checked without log positions', () => {
    // The response and the invalid command reuse the command's record id: their node ids say where they are.
    const ids = graph.nodes.filter((n) => n.kind === 'record').map((n) => n.id);
    expect(ids).toEqual([CMD, `${CMD}@0:4`, `${CMD}@0:5`]);
    const response = graph.nodes.find((n) => n.id === `${CMD}@0:4`) as RecordNode;
    expect(response).toMatchObject({ recordKind: 'response', recordIndex: 4, duplicateId: true, group: CONV });
    const cause = graph.edges.find((e) => e.from === response.id && e.via === 'cause')!;
    expect(cause.to).toBe(CMD);
    expect(cause.note).toMatch(/cause_at \(stream 1, topic 2, partition 3, offset 41\) not checked: no record of the input has a known log position/);
    expect(graph.edges.find((e) => e.from === response.id && e.via === 'correlation')!.to).toBe(CMD);
    expect(graph.missing).toEqual([]);
    expect(graph.cycles).toEqual([]);
    expect(graph.findings).toEqual([]);
    expect(graph.nodes.find((n) => n.id === `${CMD}@0:5`)).toMatchObject({ valid: false, recordKind: 'command' });
  });

  it('reports and lays out', () => {
    const report = reportGraphOf(records);
    expect(report.nodes).toBe(6);
    expect(report.edges).toEqual([{ from: `${CMD}@0:4`, to: CMD, via: 'cause' }]);
    expect(report.missing).toEqual([]);
    expect(report.streams).toEqual([
      expect.objectContaining({ correlation: CORR, channel: CHAN, chunks: 3, duplicates: 0, after_terminal: 1, gaps: [1, 2, 3, 4, 5, 6], terminal: 'gap' }),
    ]);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report); // JSON-safe (no bigint)
    const boxes = layoutGraph(graph);
    expect(boxes.get(CMD)!.x).toBeLessThan(boxes.get(`${CMD}@0:4`)!.x);
  });

  function edgesOf(from: string) {
    return graph.edges.filter((e) => e.from === from).map((e) => [e.from, e.to, e.via]);
  }
});

describe('graph findings on inspected bytes', () => {
  it('a bridge loop finding points at the bytes of bridge_hops', () => {
    const conversation = id16(0xc0);
    const first = encodeEnvelope({ kind: 'command', record: id16(1), conversation, source: 'a', correlation: id16(5), body: text('{}') });
    const looped = encodeEnvelope({
      kind: 'event',
      record: id16(2),
      conversation,
      source: 'b',
      cause: id16(1),
      metadata: hops('x', 'y', 'x'),
      body: text('{}'),
    });
    const { records } = inspect([{ name: 'loop.cborseq', bytes: concatBytes(first, looped) }]);
    const graph = graphOf(records);
    expect(graph.edges.map((e) => [e.from, e.to, e.via])).toEqual([[graph.nodes[1].id, graph.nodes[0].id, 'cause']]);
    expect(graph.findings).toHaveLength(1);
    const { recordIndex, finding } = graph.findings[0];
    expect(recordIndex).toBe(1);
    const hopsNode = recordViews(records[1])
      .tree.find((n) => n.path === 'metadata')!
      .children!.find((n) => n.path === 'metadata.bridge_hops')!;
    expect(finding.span).toEqual(hopsNode.span);
    expect(finding.span![0]).toBeGreaterThanOrEqual(first.length);
  });
});

describe('log findings point at their bytes whichever way the records were read', () => {
  // conversation_http_v07.json: a response whose cause names the command and whose cause_at names
  // the fifth message (a chunk without a record id); registry_log_http_v07.json: fold findings.
  const vector = (name: string) => new Uint8Array(readFileSync(new URL(`../../../vectors/agdx/made/${name}`, import.meta.url)));

  it("agdx/graph/cause-mismatch: the span is cause_at's bytes, the message names the records (not node ids)", () => {
    for (const detail of [true, false]) {
      const result = inspect([{ name: 'conversation_http_v07.json', bytes: vector('conversation_http_v07.json') }], { detail });
      const [[at, [f]]] = [...result.log.findings].filter(([, fs]) => fs.some((x) => x.rule === 'agdx/graph/cause-mismatch'));
      expect(f.rule).toBe('agdx/graph/cause-mismatch');
      expect(f.span).not.toBeNull();
      expect(f.span).toEqual(spanOfPath(recordViews(result.records[at]).tree, 'cause_at'));
      // The span indexes the message's payload: its bytes are cause_at's (a 20-byte string, head first).
      const payload = result.records[at].data.view;
      expect(payload[f.span![0]]).toBe(0x54);
      expect(f.span![1] - f.span![0]).toBe(21);
      expect(f.message).toBe(
        'cause names record 01J0Y1ZAG00000000000000001 (input 0, index 0), but cause_at (stream 1, topic 2, partition 1, offset 105) is the chunk at input 0, index 5 (it has no record id)',
      );
      expect(f.message).not.toMatch(/rec:|@\d+:\d+/);
    }
  });

  it('agdx/fold/*: the same spans read in bulk (no views) as read with views', () => {
    const bytes = vector('registry_log_http_v07.json');
    const spans = (detail: boolean) => {
      const result = inspect([{ name: 'registry_log_http_v07.json', bytes }], { detail });
      return [...result.log.findings].flatMap(([i, fs]) => fs.map((f) => [i, f.rule, f.path, f.span]));
    };
    const bulk = spans(false);
    expect(bulk.filter(([, rule]) => String(rule).startsWith('agdx/fold/')).length).toBeGreaterThan(2);
    expect(bulk.every(([, , , span]) => span !== null)).toBe(true);
    expect(bulk).toEqual(spans(true));
  });
});
