// Deadlines and clocks over the log (report.md "Rule ids"): agdx/deadline/missed on a late answer,
// agdx/deadline/unanswered on a command whose deadline passed with no answer in its input,
// agdx/graph/clock-skew on a record earlier than its cause or an answer earlier than its command;
// in the log's findings map, never in the verdicts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Conversation, crock, id16, text } from '../../../test/support/graph-helpers';
import { inspect } from '../inspect';
import { buildCompactRecordGraph } from '../graph/record-graph';
import { analyzeRecords, logFactsOf } from '../records';
import { buildReport } from '../report';
import { formatDuration } from '../time';
import { RecordTiming, timingLinks } from './timing';

const body = text('{}');
const ms = (n: number) => BigInt(n) * 1000n;
/** A ULID-like id: `millis` in its first 48 bits, `n` in its last bytes. */
function ulid(millis: number, n: number): Uint8Array {
  const b = id16(n);
  const dv = new DataView(b.buffer);
  dv.setUint16(0, Math.floor(millis / 2 ** 32));
  dv.setUint32(2, millis >>> 0);
  return b;
}

function rules(log: ReturnType<typeof analyzeRecords>, record: number): string[] {
  return (log.findings.get(record) ?? []).map((f) => f.rule);
}

describe('deadlines', () => {
  it('an answer after its command’s deadline: a warning on the answer naming the command and by how much', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(9), deadline_micros: ms(2_000), body }, { logTime: ms(1_000) });
    c.add({ kind: 'response', record: id16(2), correlation: id16(9), body }, { logTime: ms(4_500) });
    const log = analyzeRecords(c.records);
    const missed = log.findings.get(1)!.find((f) => f.rule === 'agdx/deadline/missed')!;
    expect(missed.severity).toBe('warning');
    expect(missed.message).toContain(`command record ${crock(1)} (input 0, index 0)`);
    expect(missed.message).toContain('2.5 s after its deadline');
    expect(missed.message).toContain('log time');
    // A log time is not in the record's bytes: no field, no span.
    expect(missed.path).toBeNull();
    expect(log.findings.get(0)).toBeUndefined();
    expect(log.timing.pairs).toEqual([{ command: 0, answer: 1, latency: ms(3_500), deadline: ms(2_000), missedBy: ms(2_500) }]);
    // Never patched into the verdicts.
    expect(c.records[1].verdict.findings).toEqual([]);
  });

  it('an error answers too; an answer in time, a status task update or a command without a deadline give nothing', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(9), deadline_micros: ms(2_000), body }, { logTime: ms(1_000) });
    c.add({ kind: 'status', record: id16(2), correlation: id16(9), operation: 'task', task_state: 2 }, { logTime: ms(3_000) });
    c.add({ kind: 'error', record: id16(3), correlation: id16(9), body }, { logTime: ms(3_000) });
    c.add({ kind: 'command', record: id16(4), correlation: id16(8), deadline_micros: ms(5_000), body }, { logTime: ms(3_100) });
    c.add({ kind: 'response', record: id16(5), correlation: id16(8), body }, { logTime: ms(3_400) });
    c.add({ kind: 'command', record: id16(6), correlation: id16(7), body }, { logTime: ms(3_500) });
    c.add({ kind: 'response', record: id16(7), correlation: id16(7), body }, { logTime: ms(9_000) });
    const log = analyzeRecords(c.records);
    expect(rules(log, 1)).toEqual([]);
    expect(rules(log, 2)).toEqual(['agdx/deadline/missed']);
    expect(rules(log, 4)).toEqual([]);
    expect(rules(log, 6)).toEqual([]);
    expect(log.timing.pairs.map((p) => [p.command, p.answer, p.missedBy])).toEqual([
      [0, 2, ms(1_000)],
      [3, 4, null],
      [5, 6, null],
    ]);
  });

  it('the ULID time of the record id when there is no log time, and the finding points at the record id', () => {
    const records = inspect([{ name: 'deadlines.cborseq', bytes: new Uint8Array(readFileSync('vectors/agdx/made/deadlines.cborseq')) }]);
    const late = records.log.findings.get(7)!.find((f) => f.rule === 'agdx/deadline/missed')!;
    expect(late.message).toMatch(
      /^this response answers command record 01HZ7PJ0W8000000000000T001 \(input 0, index 0\) 2\.5 s after its deadline: deadline_micros 2024-05-31T16:08:39\.000Z, this response's record id's ULID time 2024-05-31T16:08:41\.500Z$/,
    );
    expect(late.path).toBe('record');
    // The record id's value: its head (0x50, a 16-byte string) and its 16 bytes.
    const [start, end] = late.span!;
    expect(end - start).toBe(17);
    expect(records.records[7].data.view[start]).toBe(0x50);
  });

  it('a command whose deadline passed before the latest time of its input, with no answer there: info on its deadline_micros', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(9), deadline_micros: ms(2_000), body }, { logTime: ms(1_000) });
    c.add({ kind: 'command', record: id16(2), correlation: id16(8), deadline_micros: ms(9_000), body }, { logTime: ms(1_000) });
    c.add({ kind: 'event', record: id16(3), body }, { logTime: ms(5_000) });
    // Answered only in another input: still unanswered in its own.
    c.add({ kind: 'command', record: id16(4), correlation: id16(7), deadline_micros: ms(2_000), body }, { logTime: ms(1_500) });
    c.add({ kind: 'response', record: id16(5), correlation: id16(7), body }, { input: 1, logTime: ms(1_600) });
    const log = analyzeRecords(c.records);
    const f = log.findings.get(0)!;
    expect(f.map((x) => [x.rule, x.severity, x.path])).toEqual([['agdx/deadline/unanswered', 'info', 'deadline_micros']]);
    expect(f[0].message).toContain(`correlation ${crock(9)}`);
    expect(f[0].message).toContain('3 s before the latest time in the input');
    // Its deadline is after the latest time: not yet due.
    expect(rules(log, 1)).toEqual([]);
    expect(rules(log, 3)).toEqual(['agdx/deadline/unanswered']);
    expect(log.timing.unanswered.map((u) => [u.command, u.deadline, u.latest])).toEqual([
      [0, ms(2_000), ms(5_000)],
      [3, ms(2_000), ms(5_000)],
    ]);
  });

  it('the deadline field’s bytes, read from a real record', () => {
    const records = inspect([{ name: 'deadlines.cborseq', bytes: new Uint8Array(readFileSync('vectors/agdx/made/deadlines.cborseq')) }]);
    const lost = records.log.findings.get(3)!;
    expect(lost.map((f) => f.rule)).toEqual(['agdx/deadline/unanswered']);
    const [start, end] = lost[0].span!;
    // deadline_micros is a uint64 (head 0x1b and 8 bytes).
    expect(end - start).toBe(9);
    expect(records.records[3].data.view[start]).toBe(0x1b);
  });
});

describe('clock skew', () => {
  it('a record earlier than its cause, and an answer earlier than its command: info, with the difference, once per pair', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: ulid(10_000, 1), correlation: id16(9), body });
    // Names the command as its cause and answers it: one finding for the pair.
    c.add({ kind: 'response', record: ulid(9_650, 2), cause: ulid(10_000, 1), correlation: id16(9), body });
    c.add({ kind: 'event', record: ulid(12_000, 3), cause: ulid(9_650, 2), body });
    const log = analyzeRecords(c.records);
    const skew = log.findings.get(1)!;
    expect(skew.map((f) => [f.rule, f.severity, f.path])).toEqual([['agdx/graph/clock-skew', 'info', 'record']]);
    expect(skew[0].message).toContain('350 ms earlier than the record it names as its cause');
    expect(skew[0].message).toContain('times are shown as recorded');
    expect(log.findings.get(2)).toBeUndefined();
    expect(log.timing.skews).toEqual([{ record: 1, earlierThan: 0, via: 'cause', by: ms(350) }]);
    expect(log.timing.pairs[0].latency).toBe(-ms(350));
  });

  it('an answer earlier than its command it does not name as cause', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(9), body }, { logTime: 500n });
    c.add({ kind: 'error', record: id16(2), correlation: id16(9), body }, { logTime: 200n });
    const log = analyzeRecords(c.records);
    expect(log.findings.get(1)!.map((f) => f.message)).toEqual([expect.stringContaining('300 µs earlier than the command it answers')]);
    expect(log.timing.skews[0].via).toBe('answer');
  });

  it('records without a time are not compared', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(9), deadline_micros: 5n, body }, { logTime: 500n });
    c.add({ kind: 'response', record: id16(2), cause: id16(1), correlation: id16(9), body });
    const log = analyzeRecords(c.records);
    expect([...log.findings]).toEqual([]);
    expect(log.timing.pairs[0]).toMatchObject({ latency: null, missedBy: null });
  });
});

describe('in the report, as the CLI and the page read it', () => {
  it('report@1 lists the findings on their records (valid stays true: none is an error)', () => {
    const result = inspect([{ name: 'deadlines.cborseq', bytes: new Uint8Array(readFileSync('vectors/agdx/made/deadlines.cborseq')) }]);
    const report = buildReport(result);
    const byRecord = report.records.map((r) => r.findings.map((f) => f.rule));
    expect(byRecord[3]).toEqual(['agdx/deadline/unanswered']);
    expect(byRecord[7]).toEqual(['agdx/deadline/missed']);
    expect(byRecord[8]).toEqual(['agdx/graph/clock-skew']);
    expect(byRecord[10]).toEqual(['agdx/graph/clock-skew']);
    expect(report.records.every((r) => r.valid)).toBe(true);
  });
});

describe('formatDuration', () => {
  it('reads as a person would say it, exact for any bigint', () => {
    expect(
      [0n, 999n, 1000n, 350_000n, 2_500_000n, 59_999_999n, 64_000_000n, 3_600_000_000n, 7_500_000_000n, 86_400_000_000n * 3n + 3_600_000_000n * 4n].map((v) =>
        formatDuration(v),
      ),
    ).toEqual(['0 µs', '999 µs', '1 ms', '350 ms', '2.5 s', '59.9 s', '1 min 4 s', '1 h', '2 h 5 min', '3 d 4 h']);
    expect(formatDuration(-300n)).toBe('−300 µs');
    expect(formatDuration(2n ** 64n)).toMatch(/^\d+ d$/);
    expect(() => formatDuration(Number.NaN)).toThrow(TypeError);
  });
});

describe("one record at a time (RecordTiming, the command line's report)", () => {
  it("gives each record its findings, in its edges' order, exact for times beyond a double's", () => {
    const c = new Conversation();
    const big = 2n ** 60n;
    // A command with a deadline answered late in its input by a response that also names it as
    // cause (one skew for the pair), and by an error earlier than it; times beyond a double's.
    c.add({ kind: 'command', record: id16(1), correlation: id16(9), deadline_micros: big + 400n, body }, { logTime: big + 500n });
    c.add({ kind: 'response', record: id16(2), cause: id16(1), correlation: id16(9), body }, { logTime: big + 300n });
    c.add({ kind: 'error', record: id16(3), correlation: id16(9), body }, { logTime: big + 700n });
    // A command whose deadline passes unanswered, with and without a correlation; an event earlier than its cause.
    c.add({ kind: 'command', record: id16(4), correlation: id16(8), deadline_micros: 10n, body }, { logTime: 5n });
    c.add({ kind: 'command', record: id16(5), deadline_micros: 20n, body }, { logTime: 6n });
    c.add({ kind: 'event', record: ulid(1, 6), cause: id16(3), body });
    const facts = logFactsOf(c.records);
    const graph = buildCompactRecordGraph(facts, { notes: false });
    const each = (timing: RecordTiming) => c.records.flatMap((_, record) => timing.findingsOf(record).map((finding) => ({ recordIndex: record, finding })));
    const timing = new RecordTiming(facts, graph);
    const all = each(timing);
    expect(all.map(({ recordIndex, finding: f }) => [recordIndex, f.rule, f.severity, f.path])).toEqual([
      [1, 'agdx/graph/clock-skew', 'info', null],
      [2, 'agdx/deadline/missed', 'warning', null],
      [3, 'agdx/deadline/unanswered', 'info', 'deadline_micros'],
      [4, 'agdx/deadline/unanswered', 'info', 'deadline_micros'],
      [5, 'agdx/graph/clock-skew', 'info', 'record'],
    ]);
    // 2^60 µs and a few hundred more: differences a double would lose.
    expect(all[0].finding.message).toContain('is 200 µs earlier than the record it names as its cause, command record');
    expect(all[1].finding.message).toContain('answers command record 00000000000000000000000001 (input 0, index 0) 300 µs after its deadline');
    expect(all[2].finding.message).toContain('(correlation 00000000000000000000000008)');
    expect(all[3].finding.message).toContain('answers this command, and its deadline');
    expect(timing.findingsOf(c.records.length)).toEqual([]);
  });

  it("locates a finding's field when its spans are asked for, once per record and field; without spans, the same findings with none", () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: ulid(1000, 1), correlation: id16(9), deadline_micros: 2_000_000n, body });
    c.add({ kind: 'response', record: ulid(900, 2), correlation: id16(9), body });
    c.add({ kind: 'command', record: ulid(1100, 3), deadline_micros: 50n, body });
    const facts = logFactsOf(c.records);
    const graph = buildCompactRecordGraph(facts, { notes: false });
    const asked: string[] = [];
    const locate = (record: number, path: string) => {
      asked.push(`${record}:${path}`);
      return [record, record + path.length] as [number, number];
    };
    const timing = new RecordTiming(facts, graph, { locate });
    const located = c.records.flatMap((_, record) => timing.findingsOf(record).map((finding) => ({ recordIndex: record, finding })));
    expect(located.map((f) => [f.recordIndex, f.finding.rule, f.finding.span])).toEqual([
      [1, 'agdx/graph/clock-skew', [1, 1 + 'record'.length]],
      [2, 'agdx/deadline/unanswered', [2, 2 + 'deadline_micros'.length]],
    ]);
    // One locate per finding: the skewed response's id (its ULID time), the unanswered command's deadline.
    const first = [...asked];
    expect(first).toEqual(['1:record', '2:deadline_micros']);
    for (let record = 0; record < c.records.length; record++) timing.findingsOf(record);
    expect(asked).toEqual(first);
    const bare = c.records.flatMap((_, record) => timing.findingsOf(record, false).map((finding) => ({ recordIndex: record, finding })));
    expect(bare).toEqual(located.map((f) => ({ ...f, finding: { ...f.finding, span: null } })));
    expect(asked).toEqual(first);
  });
});

describe('RecordTiming on a random log', () => {
  it('finds per record what the timeline finds over the whole log: every missed deadline, skew and unanswered command', () => {
    // Seeded random records of every kind over a few correlations, causes naming earlier records,
    // log times that go back now and then, deadlines before and after the answers, some times beyond a double's.
    let seed = 11;
    const rnd = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const kinds = ['command', 'response', 'error', 'event', 'status', 'chunk'] as const;
    const seen = { missed: 0, skews: 0, unanswered: 0 };
    for (const base of [1_000_000n, 2n ** 60n]) {
      const c = new Conversation();
      for (let n = 0; n < 1_500; n++) {
        const kind = kinds[rnd(kinds.length)];
        const t = base + BigInt(n * 10 - rnd(40));
        c.add(
          {
            kind,
            ...(kind === 'chunk' ? {} : { record: id16(1000 + n) }),
            ...(n > 0 && rnd(3) === 0 && kind !== 'chunk' ? { cause: id16(1000 + rnd(n)) } : {}),
            ...(kind !== 'event' && kind !== 'status' ? { correlation: id16(rnd(25)) } : {}),
            ...(kind === 'command' && rnd(2) === 0 ? { deadline_micros: t + BigInt(rnd(60)) } : {}),
            body,
          },
          { logTime: t, input: rnd(8) === 0 ? 1 : 0 },
        );
      }
      const facts = logFactsOf(c.records);
      const graph = buildCompactRecordGraph(facts, { notes: false });
      const timing = new RecordTiming(facts, graph);
      const links = timingLinks(facts, graph);
      const count = (rule: string) => c.records.reduce((n, _, k) => n + timing.findingsOf(k, false).filter((f) => f.rule === rule).length, 0);
      expect(count('agdx/deadline/missed')).toBe(links.pairs.filter((p) => p.missedBy !== null).length);
      expect(count('agdx/graph/clock-skew')).toBe(links.skews.length);
      expect(count('agdx/deadline/unanswered')).toBe(links.unanswered.length);
      seen.missed += links.pairs.filter((p) => p.missedBy !== null).length;
      seen.skews += links.skews.length;
      seen.unanswered += links.unanswered.length;
    }
    // Not vacuous: the logs carry each kind of finding.
    expect(Math.min(seen.missed, seen.skews, seen.unanswered), JSON.stringify(seen)).toBeGreaterThan(10);
  });
});
