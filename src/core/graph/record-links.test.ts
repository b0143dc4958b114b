import { describe, expect, it } from 'vitest';
import { buildCompactRecordGraph } from './record-graph';
import { recordLinks } from './record-links';
import { Conversation, causeAt, crock, factsOf, id16, text } from '../../../test/support/graph-helpers';

const body = text('{}');

/** The links of record `i` of `c`, over the graph of all its records. */
function linksOf(c: Conversation, i: number) {
  const facts = factsOf(c.records);
  const graph = buildCompactRecordGraph(facts);
  return recordLinks(graph, facts.entries, i);
}

describe('recordLinks', () => {
  it('cause and cause_at resolve to the parent the graph found; the correlation to its command', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body }, { position: { partition: 3, offset: 41, stream: 1, topic: 2 } });
    c.add(
      { kind: 'response', record: id16(2), cause: id16(1), cause_at: causeAt(1, 2, 3, 41), correlation: id16(0x50), body },
      { position: { partition: 3, offset: 42, stream: 1, topic: 2 } },
    );
    expect(linksOf(c, 1)).toEqual([
      { field: 'cause', ref: crock(1), target: 0, answers: [], note: null },
      { field: 'cause_at', ref: 'stream 1, topic 2, partition 3, offset 41', target: 0, answers: [], note: null },
      { field: 'correlation', ref: crock(0x50), target: 0, answers: [], note: null },
    ]);
    // The command's correlation: what answers it.
    expect(linksOf(c, 0)).toEqual([{ field: 'correlation', ref: crock(0x50), target: null, answers: [1], note: null }]);
  });

  it('a reference no loaded record is: no target, and the reason', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(7), cause: id16(0x404), body }, { position: { partition: 0, offset: 1 } });
    c.add({ kind: 'command', record: id16(8), correlation: id16(0x51), cause_at: causeAt(1, 2, 0, 99), body }, { position: { partition: 0, offset: 2 } });
    c.add({ kind: 'response', record: id16(9), correlation: id16(0x52), body });
    expect(linksOf(c, 0)).toEqual([{ field: 'cause', ref: crock(0x404), target: null, answers: [], note: 'no loaded record has this record id' }]);
    expect(linksOf(c, 1)).toEqual([
      { field: 'cause_at', ref: 'stream 1, topic 2, partition 0, offset 99', target: null, answers: [], note: 'no loaded record is at this log position' },
      { field: 'correlation', ref: crock(0x51), target: null, answers: [], note: 'nothing loaded answers this command' },
    ]);
    expect(linksOf(c, 2)).toEqual([
      { field: 'correlation', ref: crock(0x52), target: null, answers: [], note: 'no command of this conversation with this correlation is loaded' },
    ]);
  });

  it('a cause_at with no log position anywhere says it could not be matched', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
    c.add({ kind: 'event', record: id16(2), cause: id16(1), cause_at: causeAt(1, 2, 3, 41), body });
    const [cause, at] = linksOf(c, 1);
    expect(cause).toMatchObject({ field: 'cause', target: 0 });
    expect(at).toMatchObject({ field: 'cause_at', target: null });
    expect(at.note).toMatch(/log position/);
  });

  it("every chunk of a stream finds its command, not only the first (the graph pairs the stream's first)", () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(0x50), body });
    for (let s = 0; s < 3; s++) c.add({ kind: 'chunk', correlation: id16(0x50), channel: id16(0x60), sequence: s, body, ...(s === 2 ? { last: true } : {}) });
    c.add({ kind: 'event', record: id16(5), correlation: id16(0x50), body });
    for (const i of [1, 2, 3, 4]) expect(linksOf(c, i)).toEqual([{ field: 'correlation', ref: crock(0x50), target: 0, answers: [], note: null }]);
    // The stream answers the command through its first chunk; the event is not an answer.
    expect(linksOf(c, 0)[0].answers).toEqual([1]);
  });

  it("a record the graph does not hold has no links; entries other than the graph's are a misuse", () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(7), cause: id16(6), body });
    const facts = factsOf(c.records);
    const graph = buildCompactRecordGraph(facts);
    expect(recordLinks(graph, facts.entries, 0).map((l) => l.field)).toEqual(['cause']);
    expect(recordLinks(graph, facts.entries, 5)).toEqual([]);
    expect(() => recordLinks(graph, [], 0)).toThrow(TypeError);
  });
});
