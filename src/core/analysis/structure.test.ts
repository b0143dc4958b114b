// What the graph and timeline notice, as findings (structure.ts): every stream trouble, repeated
// ids, cycles and missing causes get a rule id, on the record they concern, through the log's
// findings (the same path the report, the app and the command line read).
import { describe, expect, it } from 'vitest';
import { Conversation, crock, id16, text } from '../../../test/support/graph-helpers';
import { analyzeRecords } from '../records';
import { buildReport } from '../report';
import { isValid } from '../verdict';
import type { InspectedRecord } from '../records';

const CORR = id16(0x5);
const CHAN = id16(0x6);
const chunk = (sequence: number, more: Record<string, unknown> = {}) => ({
  kind: 'chunk' as const,
  correlation: CORR,
  channel: CHAN,
  sequence,
  body: text(`c${sequence}`),
  ...more,
});

/** The log findings of `records`, by record index, rule ids only. */
function rulesOf(records: readonly InspectedRecord[]): string[][] {
  const log = analyzeRecords(records);
  return records.map((_, i) => (log.findings.get(i, false) ?? []).map((f) => f.rule).filter((r) => r.startsWith('agdx/graph/')));
}

describe('stream findings', () => {
  it('a gap, a duplicate and what comes after the end are findings on the chunks they concern', () => {
    const c = new Conversation();
    c.add(chunk(0, { operation: 'chat' }));
    c.add(chunk(1));
    c.add(chunk(1)); // duplicate
    c.add(chunk(4)); // reveals the gap at 2, 3
    c.add(chunk(5, { last: true, finish_reason: 'stop' })); // after the end
    expect(rulesOf(c.records)).toEqual([[], [], ['agdx/graph/stream-duplicate'], ['agdx/graph/stream-gap'], ['agdx/graph/stream-after-end']]);
    const log = analyzeRecords(c.records);
    const gap = log.findings.get(3)!.find((f) => f.rule === 'agdx/graph/stream-gap')!;
    expect(gap).toMatchObject({ severity: 'warning', path: 'sequence' });
    expect(gap.message).toMatch(/misses sequence 2, 3 before this chunk/);
    // Findings about a record count in its validity only as warnings: the record stays valid.
    expect(isValid(c.records[3].verdict, log.findings.get(3))).toBe(true);
    // The report carries them, with the graph's counts beside.
    const report = buildReport({ inputs: [], records: c.records });
    expect(report.records[3].findings.map((f) => f.rule)).toContain('agdx/graph/stream-gap');
    expect(report.graph.streams[0]).toMatchObject({ duplicates: 1, after_terminal: 1, gaps: [2, 3], terminal: 'gap' });
  });

  it('an abandoned stream: a finding on its opening chunk', () => {
    const c = new Conversation();
    c.add(chunk(0, { operation: 'chat', deadline_micros: 1_000_000 }), { logTime: 500_000n });
    c.add(chunk(1), { logTime: 600_000n });
    c.add({ kind: 'event', record: id16(0x77), body: text('x') }, { logTime: 2_000_000n });
    expect(rulesOf(c.records)[0]).toEqual(['agdx/graph/stream-abandoned']);
    expect(rulesOf(c.records)[1]).toEqual([]);
  });

  it('a clean stream has none', () => {
    const c = new Conversation();
    c.add(chunk(0, { operation: 'chat' }));
    c.add(chunk(1, { last: true, finish_reason: 'stop' }));
    expect(rulesOf(c.records)).toEqual([[], []]);
  });
});

describe('record ids, cycles and missing causes', () => {
  it('a record id another record of the load has: a finding on the later one, naming the first; a dead letter payload aside', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(0x10), body: text('a') });
    c.add({ kind: 'event', record: id16(0x10), body: text('b') }, { input: 1 });
    c.add({ kind: 'event', record: id16(0x20), body: text('c') });
    c.add({ kind: 'event', record: id16(0x20), body: text('c') }, { parent: 2 });
    expect(rulesOf(c.records)).toEqual([[], ['agdx/graph/duplicate-id'], [], []]);
    const f = analyzeRecords(c.records)
      .findings.get(1)!
      .find((x) => x.rule === 'agdx/graph/duplicate-id')!;
    expect(f.message).toContain(`record id ${crock(0x10)} is also the id of the record at input 0, index 0`);
    expect(f.path).toBe('record');
  });

  it('a causal cycle: each of its records; a cause not loaded: an info', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(1), cause: id16(2), body: text('a') });
    c.add({ kind: 'event', record: id16(2), cause: id16(1), body: text('b') });
    c.add({ kind: 'event', record: id16(3), cause: id16(0x99), body: text('c') });
    expect(rulesOf(c.records)).toEqual([['agdx/graph/cycle'], ['agdx/graph/cycle'], ['agdx/graph/missing-cause']]);
    const missing = analyzeRecords(c.records)
      .findings.get(2)!
      .find((x) => x.rule === 'agdx/graph/missing-cause')!;
    expect(missing).toMatchObject({ severity: 'info', path: 'cause' });
    expect(missing.message).toContain(crock(0x99));
  });
});
