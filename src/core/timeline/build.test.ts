// The timeline model: lanes per agent, marks at their times (log time, else ULID), command/answer
// spans with their latency, deadlines met, missed, unanswered or pending, chunk streams as bars
// (gap, abandoned, late chunks), clock skew, causal links, and mark verdicts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Conversation, id16, text } from '../../../test/support/graph-helpers';
import { inspect } from '../inspect';
import { analyzeRecords } from '../records';
import { isValid } from '../verdict';
import { buildTimeline } from './build';
import { KINDS } from '../agdx/envelope';
import { MARK_KINDS, MAX_TRACKS, markVerdict, type MarkVerdict } from './model';

const body = text('{}');
const ms = (n: number) => BigInt(n) * 1000n;
const plain = (): MarkVerdict => 'unsigned';

function deadlinesVector() {
  const result = inspect([{ name: 'deadlines.cborseq', bytes: new Uint8Array(readFileSync('vectors/agdx/made/deadlines.cborseq')) }]);
  return {
    result,
    timeline: buildTimeline(result.log, (i) =>
      markVerdict({
        valid: isValid(result.records[i].verdict, result.log.findings.get(i)),
        signature: result.records[i].verdict.signature.status,
        trusted: result.records[i].verdict.signature.trusted,
      }),
    ),
  };
}

describe('the timeline model', () => {
  it('numbers the kinds as the envelope lists them', () => {
    expect(MARK_KINDS).toEqual(KINDS);
  });
});

describe('buildTimeline', () => {
  it('one lane per agent in order of first appearance in time, marks by time from the earliest (ULID times)', () => {
    const { timeline: t } = deadlinesVector();
    expect(t.origin).toBe(1717171717000n * 1000n);
    expect(t.lanes).toEqual([
      { agent: 'planner', marks: 5, tracks: 3 },
      { agent: 'pricer', marks: 1, tracks: 1 },
      { agent: 'booker', marks: 5, tracks: 1 },
      { agent: 'mailer', marks: 1, tracks: 1 },
    ]);
    // By time (the file's order is not the time order: the skewed event and response come later).
    expect(t.marks.map((m) => [m.record, m.t / 1000])).toEqual([
      [0, 0],
      [1, 1000],
      [2, 1800],
      [3, 2000],
      [4, 2200],
      [5, 2600],
      [6, 3300],
      [8, 4200],
      [7, 4500],
      [10, 4800],
      [9, 5000],
      [11, 6000],
    ]);
    expect(t.marks[0]).toMatchObject({
      lane: 0,
      source: 'ulid',
      kind: 'command',
      verdict: 'unsigned',
      label: 'command chat 01HZ7P…T001 → booker',
      late: false,
      skewed: false,
    });
    expect(t.start).toBe(0);
    expect(t.end).toBe(6_000_000);
    expect(t.records).toBe(12);
    expect(t.untimed).toBe(0);
  });

  it('spans from each command to its answers, with the latency (negative for an answer earlier than its command)', () => {
    const { timeline: t } = deadlinesVector();
    expect(t.spans.map((s) => [s.command, s.answer, s.lane, s.answerLane, s.latency / 1000, s.deadline! / 1000])).toEqual([
      [1, 2, 0, 1, 800, 3000],
      [0, 7, 0, 2, 4500, 2000],
      [9, 10, 0, 2, -200, 9000],
    ]);
  });

  it('deadlines: missed by how much (with the answer), unanswered, met, pending', () => {
    const { timeline: t } = deadlinesVector();
    expect(t.deadlines.map((d) => [d.command, d.state, d.at / 1000, d.missedBy, d.answer])).toEqual([
      [0, 'missed', 2000, 2_500_000, 7],
      [1, 'met', 3000, null, 2],
      [3, 'unanswered', 2500, null, null],
      // Answered (before it, by a skewed clock), so not unanswered; its deadline is after the log's end.
      [9, 'met', 9000, null, 10],
    ]);
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(9), deadline_micros: ms(9_000), body }, { logTime: ms(1_000) });
    c.add({ kind: 'event', record: id16(2), body }, { logTime: ms(2_000) });
    expect(buildTimeline(analyzeRecords(c.records), plain).deadlines[0]).toMatchObject({ state: 'pending', answer: null, missedBy: null });
  });

  it('each command takes a track of its lane free for its whole stretch (answers and deadline), so nothing overlaps', () => {
    const { timeline: t } = deadlinesVector();
    // planner's commands: #0 [0, 4.5 s], #1 [1, 3 s], #3 [2, 2.5 s] overlap; #9 [4.8, 9 s] comes after #0's.
    expect(t.deadlines.map((d) => [d.command, d.track, d.room])).toEqual([
      [0, 0, 2_800_000],
      [1, 1, null],
      [3, 2, null],
      [9, 0, null],
    ]);
    expect(t.spans.map((s) => [s.command, s.track])).toEqual([
      [1, 1],
      [0, 0],
      [9, 0],
    ]);
    // Past MAX_TRACKS, the track that frees first is shared.
    const c = new Conversation();
    for (let i = 0; i < 8; i++)
      c.add({ kind: 'command', record: id16(i + 1), correlation: id16(100 + i), deadline_micros: ms(10_000 + i), body }, { logTime: ms(i) });
    const many = buildTimeline(analyzeRecords(c.records), plain);
    expect(many.lanes[0].tracks).toBe(MAX_TRACKS);
    expect(many.deadlines.map((d) => d.track)).toEqual([0, 1, 2, 3, 4, 5, 0, 1]);
  });

  it('a stream as a bar from its opening chunk to where it ended: a gap, with the chunk that revealed it', () => {
    const { timeline: t } = deadlinesVector();
    expect(t.streams).toEqual([
      expect.objectContaining({
        lane: 2,
        record: 4,
        start: 2_200_000,
        end: 3_300_000,
        terminal: 'gap',
        purpose: 'chat',
        chunks: 3,
        gapAt: 3_300_000,
        gaps: [2],
        abandonedAt: null,
        late: [],
        duplicates: 0,
      }),
    ]);
  });

  it('a stream ended by last, with a chunk after it marked late; an abandoned one ends at its deadline', () => {
    const c = new Conversation();
    const chunk = (channel: number, sequence: number, more: object = {}) => ({
      kind: 'chunk' as const,
      correlation: id16(9),
      channel: id16(channel),
      sequence,
      body: text('x'),
      ...more,
    });
    c.add(chunk(5, 0, { operation: 'chat' }), { logTime: ms(1_000) });
    c.add(chunk(5, 1, { last: true }), { logTime: ms(2_000) });
    c.add(chunk(5, 2), { logTime: ms(2_500) });
    c.add(chunk(6, 0, { operation: 'chat', deadline_micros: ms(3_000) }), { logTime: ms(1_500) });
    c.add({ kind: 'event', record: id16(3), body }, { logTime: ms(4_000) });
    const t = buildTimeline(analyzeRecords(c.records), plain);
    const [done, abandoned] = t.streams;
    expect(done).toMatchObject({ record: 0, start: 0, end: 1_000_000, terminal: 'last', late: [1_500_000] });
    expect(t.marks.find((m) => m.record === 2)!.late).toBe(true);
    expect(abandoned).toMatchObject({ record: 3, start: 500_000, end: 2_000_000, terminal: 'abandoned', abandonedAt: 2_000_000 });
  });

  it('skews, from the record to what it names, and causal links between timed records', () => {
    const { timeline: t } = deadlinesVector();
    expect(t.skews.map((s) => [s.record, s.earlierThan, s.via, s.by / 1000, s.t / 1000, s.otherT / 1000])).toEqual([
      [8, 7, 'cause', 300, 4200, 4500],
      [10, 9, 'answer', 200, 4800, 5000],
    ]);
    expect(t.marks.filter((m) => m.skewed).map((m) => m.record)).toEqual([8, 10]);
    expect(t.links.map((l) => [l.from, l.to])).toEqual([
      [2, 1],
      [7, 0],
      [8, 7],
    ]);
  });

  it("is built from the graph in numbers: the same model, and the graph's objects never made", () => {
    const { result, timeline } = deadlinesVector();
    const log = analyzeRecords(result.records);
    const noObjects = new Proxy(log, {
      get: (target, key) => {
        if (key === 'graph') throw new Error('the timeline asked for the graph of objects');
        return Reflect.get(target, key);
      },
    });
    const again = buildTimeline(noObjects, plain);
    expect(again.links).toEqual(timeline.links);
    expect(again.streams).toEqual(timeline.streams);
    expect(again.links.length).toBeGreaterThan(2);
  });

  it('log times before ULID times; records with neither are counted, not drawn; nothing timed: an empty axis', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(1), body }, { logTime: 42n });
    c.add({ kind: 'event', record: id16(2), body });
    const t = buildTimeline(analyzeRecords(c.records), plain);
    expect(t.marks.map((m) => [m.record, m.source, m.t])).toEqual([[0, 'log', 0]]);
    expect(t.origin).toBe(42n);
    expect(t.untimed).toBe(1);
    const none = buildTimeline(analyzeRecords(c.records.slice(1)), plain);
    expect(none).toMatchObject({ origin: null, marks: [], lanes: [], start: 0, end: 0, untimed: 1 });
  });

  it('marks carry the verdict they are given', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(1), body }, { logTime: 1n });
    c.add({ kind: 'event', record: id16(2), body }, { logTime: 2n });
    const t = buildTimeline(analyzeRecords(c.records), (i) => (i === 0 ? 'invalid' : 'trusted'));
    expect(t.marks.map((m) => m.verdict)).toEqual(['invalid', 'trusted']);
  });
});

describe('markVerdict', () => {
  it('a bad signature first, then invalid, an unknown key, untrusted, trusted, unsigned: the order of every headline', () => {
    expect(markVerdict({ valid: false, signature: 'invalid', trusted: false })).toBe('bad-signature');
    expect(markVerdict({ valid: false, signature: 'valid', trusted: true })).toBe('invalid');
    expect(markVerdict({ valid: false, signature: 'unknown_key', trusted: false })).toBe('invalid');
    expect(markVerdict({ valid: true, signature: 'invalid', trusted: false })).toBe('bad-signature');
    expect(markVerdict({ valid: true, signature: 'malformed', trusted: false })).toBe('bad-signature');
    expect(markVerdict({ valid: true, signature: 'unknown_key', trusted: false })).toBe('unknown-key');
    expect(markVerdict({ valid: true, signature: 'valid', trusted: false })).toBe('untrusted');
    expect(markVerdict({ valid: true, signature: 'valid', trusted: true })).toBe('trusted');
    expect(markVerdict({ valid: true, signature: 'unsigned', trusted: false })).toBe('unsigned');
    expect(markVerdict({ valid: true, signature: 'unsupported', trusted: false })).toBe('unsigned');
  });
});

describe('buildTimeline: sessions (laser-sdk 0.7)', () => {
  const tree = () => {
    const result = inspect([{ name: 'sessions_tree_http_v07.json', bytes: new Uint8Array(readFileSync('vectors/agdx/sessions/sessions_tree_http_v07.json')) }]);
    return buildTimeline(result.log, plain);
  };

  it("draws each session's states as stretches along its statuses' lane, the paused one from the pause to the resume", () => {
    const t = tree();
    const lane = (agent: string) => t.lanes.findIndex((l) => l.agent === agent);
    const at = (record: number) => t.marks.find((m) => m.record === record)!.t;
    expect(t.sessions.map((s) => [s.label, s.lanes, s.terminal])).toEqual([
      ['Trip planning', [lane('planner')], 'completed'],
      ['Book flights', [lane('booker')], 'completed'],
    ]);
    const booker = t.sessions[1].stretches;
    expect(booker.map((x) => x.state)).toEqual(['submitted', 'working', 'paused', 'working', 'completed']);
    // Paused from its status (#11) to the resume (#14); each stretch ends where the next begins; the end is an instant.
    expect(booker[2]).toEqual({ state: 'paused', start: at(11), end: at(14), record: 11 });
    for (let i = 0; i + 1 < booker.length; i++) expect(booker[i].end).toBe(booker[i + 1].start);
    expect(booker[4].start).toBe(booker[4].end);
  });

  it('links the work parked while paused to the record that unparked it', () => {
    const t = tree();
    expect(t.parkings.map((p) => [p.from, p.to])).toEqual([[12, 15]]);
    expect(t.parkings[0].toT).toBeGreaterThan(t.parkings[0].fromT);
  });

  it('an open session runs to its last record; a log without sessions has none', () => {
    const c = new Conversation();
    c.add({ kind: 'status', record: id16(1), operation: 'session', task_state: 2, body }, { logTime: ms(1) });
    c.add({ kind: 'event', record: id16(2), body }, { logTime: ms(5) });
    const t = buildTimeline(analyzeRecords(c.records), plain);
    expect(t.sessions.map((s) => s.stretches)).toEqual([[{ state: 'working', start: 0, end: 4000, record: 0 }]]);
    expect(deadlinesVector().timeline.sessions).toEqual([]);
  });
});
