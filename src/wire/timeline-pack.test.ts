// The packed timeline reads back as the model it was packed from, and hands over its buffers.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../core/agdx/envelope';
import { inspect } from '../core/inspect';
import { buildTimeline } from '../core/timeline/build';
import { MARK_KINDS } from '../core/timeline/model';
import { Conversation, id16, text } from '../../test/support/graph-helpers';
import { analyzeRecords } from '../core/records';
import {
  DEADLINE,
  LINK,
  MARK,
  PARKING,
  SKEW,
  SPAN,
  STREAM,
  STRETCH,
  packTimeline,
  readDeadline,
  readMark,
  readStream,
  rows,
  timelineBuffers,
} from './timeline-pack';

function model() {
  const result = inspect([{ name: 'deadlines.cborseq', bytes: new Uint8Array(readFileSync('vectors/agdx/made/deadlines.cborseq')) }]);
  // Some verdicts of each sort, to see them cross.
  return buildTimeline(result.log, (i) => (['invalid', 'untrusted', 'trusted', 'unsigned'] as const)[i % 4]);
}

describe('packTimeline', () => {
  it('every list reads back as the model has it', () => {
    const t = model();
    const p = packTimeline(t);
    expect(p.origin).toBe(t.origin!.toString());
    expect([p.start, p.end, p.records, p.untimed]).toEqual([t.start, t.end, t.records, t.untimed]);
    expect(p.lanes).toEqual(t.lanes.map((l) => l.agent));
    expect(p.laneMarks).toEqual(t.lanes.map((l) => l.marks));
    expect(p.laneTracks).toEqual(t.lanes.map((l) => l.tracks));
    expect(rows(p.marks, MARK.STRIDE)).toBe(t.marks.length);
    for (const [i, m] of t.marks.entries()) expect(readMark(p, i)).toEqual({ index: i, ...m });
    for (const [i, d] of t.deadlines.entries()) expect(readDeadline(p, i)).toEqual(d);
    expect(rows(p.deadlines, DEADLINE.STRIDE)).toBe(t.deadlines.length);
    t.streams.forEach((s, i) => {
      const { id: _id, terminal, ...rest } = s;
      expect(readStream(p, i)).toEqual({ ...rest, terminal: terminal ?? 'open' });
    });
    expect(rows(p.streams, STREAM.STRIDE)).toBe(t.streams.length);
    expect(rows(p.spans, SPAN.STRIDE)).toBe(t.spans.length);
    for (const [i, s] of t.spans.entries()) {
      expect(Array.from(p.spans.subarray(i * SPAN.STRIDE, (i + 1) * SPAN.STRIDE))).toEqual([
        s.start,
        s.end,
        s.lane,
        s.answerLane,
        s.command,
        s.answer,
        s.track,
        s.deadline ?? Number.NaN,
      ]);
    }
    // The fixture's two skews (an event 300 ms before its cause, a response 200 ms before its
    // command) and three links (the records that name a cause: two responses and the event).
    expect([t.skews.length, t.links.length]).toEqual([2, 3]);
    expect(rows(p.skews, SKEW.STRIDE)).toBe(t.skews.length);
    expect(rows(p.links, LINK.STRIDE)).toBe(t.links.length);
    for (const [i, s] of t.skews.entries()) {
      expect(Array.from(p.skews.subarray(i * SKEW.STRIDE, (i + 1) * SKEW.STRIDE))).toEqual([
        s.t,
        s.otherT,
        s.lane,
        s.otherLane,
        s.record,
        s.earlierThan,
        s.by,
        s.via === 'cause' ? 0 : 1,
      ]);
    }
    for (const [i, l] of t.links.entries()) {
      expect(Array.from(p.links.subarray(i * LINK.STRIDE, (i + 1) * LINK.STRIDE))).toEqual([l.fromT, l.fromLane, l.toT, l.toLane, l.from, l.to]);
    }
  });

  it('late members of several streams, each read from its own stretch', () => {
    const c = new Conversation();
    const chunk = (channel: number, sequence: number, more: object = {}) => ({
      kind: 'chunk' as const,
      correlation: id16(9),
      channel: id16(channel),
      sequence,
      body: text('x'),
      ...more,
    });
    c.add(chunk(5, 0, { operation: 'chat', last: true }), { logTime: 1_000n });
    c.add(chunk(5, 1), { logTime: 2_000n });
    c.add(chunk(6, 0, { operation: 'chat', last: true }), { logTime: 3_000n });
    c.add(chunk(6, 1), { logTime: 4_000n });
    c.add(chunk(6, 2), { logTime: 5_000n });
    const p = packTimeline(buildTimeline(analyzeRecords(c.records), () => 'unsigned'));
    expect([0, 1].map((i) => readStream(p, i).late)).toEqual([[1_000], [3_000, 4_000]]);
  });

  it('hands over one buffer per list, none shared', () => {
    const p = packTimeline(model());
    const buffers = timelineBuffers(p);
    const lists = [p.marks, p.spans, p.deadlines, p.streams, p.streamLate, p.skews, p.links, p.stretches, p.parkings];
    expect(buffers).toHaveLength(lists.length);
    for (const [i, list] of lists.entries()) expect(buffers[i]).toBe(list.buffer);
    expect(new Set(buffers).size).toBe(buffers.length);
  });

  it("sessions: a row per state and lane, the states named once, and the parked work's link", () => {
    const result = inspect([{ name: 'tree.json', bytes: new Uint8Array(readFileSync('vectors/agdx/sessions/sessions_tree_http_v07.json')) }]);
    const t = buildTimeline(result.log, () => 'unsigned');
    const p = packTimeline(t);
    expect(p.sessionLabels).toEqual(['Trip planning', 'Book flights']);
    expect(p.sessionStates).toEqual(['submitted', 'working', 'completed', 'paused']);
    const packed = Array.from({ length: rows(p.stretches, STRETCH.STRIDE) }, (_, i) =>
      Array.from(p.stretches.subarray(i * STRETCH.STRIDE, (i + 1) * STRETCH.STRIDE)),
    );
    const expected = t.sessions.flatMap((s, session) =>
      s.stretches.flatMap((x) => s.lanes.map((lane) => [x.start, x.end, lane, p.sessionStates.indexOf(x.state), x.record, session])),
    );
    expect(packed).toEqual(expected);
    expect(Array.from(p.parkings)).toEqual(t.parkings.flatMap((x) => [x.fromT, x.fromLane, x.toT, x.toLane, x.from, x.to]));
    expect(rows(p.parkings, PARKING.STRIDE)).toBe(1);
  });

  it('numbers kinds as the decoder names them', () => {
    expect([...MARK_KINDS]).toEqual([...KINDS]);
  });
});
