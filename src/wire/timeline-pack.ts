// The timeline as it crosses from the worker to the page: each list of the model (core/timeline)
// packed into one Float64Array of fixed-size rows, transferred, not copied, plus the few strings
// (agents, mark labels). A 10,000-record timeline as objects was tens of thousands of objects to
// deserialize on the page's main thread; packed, it is a handful of buffers, and the page draws
// straight from them.
import { MARK_KINDS, MARK_VERDICTS, type MarkVerdict, type Timeline, type TimelineDeadline } from '../core/timeline/model';

/** Row layouts (slots of a row, and the row's stride). */
export const MARK = { T: 0, RECORD: 1, LANE: 2, VERDICT: 3, KIND: 4, FLAGS: 5, STRIDE: 6 } as const;
/** Mark flags. */
export const MARK_FLAG = { LATE: 1, SKEWED: 2, LOG_TIME: 4 } as const;
export const SPAN = { START: 0, END: 1, LANE: 2, ANSWER_LANE: 3, COMMAND: 4, ANSWER: 5, TRACK: 6, DEADLINE: 7, STRIDE: 8 } as const;
export const DEADLINE = { START: 0, AT: 1, LANE: 2, COMMAND: 3, STATE: 4, MISSED_BY: 5, ANSWER: 6, TRACK: 7, ROOM: 8, STRIDE: 9 } as const;
export const STREAM = {
  START: 0,
  END: 1,
  LANE: 2,
  RECORD: 3,
  TERMINAL: 4,
  GAP_AT: 5,
  ABANDONED_AT: 6,
  LATE_FROM: 7,
  LATE_COUNT: 8,
  CHUNKS: 9,
  DUPLICATES: 10,
  STRIDE: 11,
} as const;
export const SKEW = { T: 0, OTHER_T: 1, LANE: 2, OTHER_LANE: 3, RECORD: 4, EARLIER_THAN: 5, BY: 6, VIA: 7, STRIDE: 8 } as const;
export const LINK = { FROM_T: 0, FROM_LANE: 1, TO_T: 2, TO_LANE: 3, FROM: 4, TO: 5, STRIDE: 6 } as const;
/** A session's stretch of one state on one of its lanes (STATE: its index in sessionStates; SESSION: in sessionLabels). */
export const STRETCH = { START: 0, END: 1, LANE: 2, STATE: 3, RECORD: 4, SESSION: 5, STRIDE: 6 } as const;
/** Parked work to the record that unparked it. */
export const PARKING = { FROM_T: 0, FROM_LANE: 1, TO_T: 2, TO_LANE: 3, FROM: 4, TO: 5, STRIDE: 6 } as const;

export const DEADLINE_STATES = ['met', 'missed', 'unanswered', 'pending'] as const satisfies readonly TimelineDeadline['state'][];
/** Stream terminals by code; `open` for none. */
export const STREAM_TERMINALS = ['last', 'error', 'gap', 'abandoned', 'open'] as const;
export type StreamEnd = (typeof STREAM_TERMINALS)[number];

export interface TimelinePack {
  /** Epoch µs the times count from (decimal), or null when nothing has a time. */
  origin: string | null;
  start: number;
  end: number;
  /** Agents, by lane, how many marks each lane has, and how many tracks its spans take. */
  lanes: string[];
  laneMarks: number[];
  laneTracks: number[];
  records: number;
  untimed: number;
  /** Rows by time (MARK), and each mark's label (same order). */
  marks: Float64Array;
  labels: string[];
  spans: Float64Array;
  deadlines: Float64Array;
  streams: Float64Array;
  /** Each stream's purpose (or null) and missing sequence numbers, by stream. */
  streamPurposes: (string | null)[];
  streamGaps: number[][];
  /** Late members' times of every stream, in stream order (STREAM.LATE_FROM / LATE_COUNT index it). */
  streamLate: Float64Array;
  skews: Float64Array;
  links: Float64Array;
  /** Sessions' stretches (STRETCH) by session then state, and each session's label and the states' names. */
  stretches: Float64Array;
  sessionLabels: (string | null)[];
  sessionStates: string[];
  parkings: Float64Array;
}

/** How many rows a packed list holds. */
export const rows = (data: Float64Array, stride: number) => data.length / stride;

const orNaN = (v: number | null) => (v === null ? Number.NaN : v);
const orNull = (v: number) => (Number.isNaN(v) ? null : v);

function table<T>(list: readonly T[], stride: number, write: (row: Float64Array, at: number, item: T) => void): Float64Array {
  const data = new Float64Array(list.length * stride);
  for (let i = 0; i < list.length; i++) write(data, i * stride, list[i]);
  return data;
}

export function packTimeline(t: Timeline): TimelinePack {
  const states: string[] = [];
  const stretchRows = t.sessions.flatMap((s, session) =>
    s.stretches.flatMap((x) => {
      let state = states.indexOf(x.state);
      if (state < 0) state = states.push(x.state) - 1;
      return s.lanes.map((lane) => ({ ...x, lane, state, session }));
    }),
  );
  const kindCode = new Map<string, number>(MARK_KINDS.map((k, i) => [k, i]));
  const verdictCode = new Map<string, number>(MARK_VERDICTS.map((v, i) => [v, i]));
  const late: number[] = [];
  const streams = table(t.streams, STREAM.STRIDE, (d, o, s) => {
    d[o + STREAM.START] = s.start;
    d[o + STREAM.END] = s.end;
    d[o + STREAM.LANE] = s.lane;
    d[o + STREAM.RECORD] = s.record;
    d[o + STREAM.TERMINAL] = STREAM_TERMINALS.indexOf(s.terminal ?? 'open');
    d[o + STREAM.GAP_AT] = orNaN(s.gapAt);
    d[o + STREAM.ABANDONED_AT] = orNaN(s.abandonedAt);
    d[o + STREAM.LATE_FROM] = late.length;
    d[o + STREAM.LATE_COUNT] = s.late.length;
    d[o + STREAM.CHUNKS] = s.chunks;
    d[o + STREAM.DUPLICATES] = s.duplicates;
    for (const x of s.late) late.push(x);
  });
  return {
    origin: t.origin === null ? null : t.origin.toString(),
    start: t.start,
    end: t.end,
    lanes: t.lanes.map((l) => l.agent),
    laneMarks: t.lanes.map((l) => l.marks),
    laneTracks: t.lanes.map((l) => l.tracks),
    records: t.records,
    untimed: t.untimed,
    marks: table(t.marks, MARK.STRIDE, (d, o, m) => {
      d[o + MARK.T] = m.t;
      d[o + MARK.RECORD] = m.record;
      d[o + MARK.LANE] = m.lane;
      d[o + MARK.VERDICT] = verdictCode.get(m.verdict)!;
      d[o + MARK.KIND] = kindCode.get(m.kind)!;
      d[o + MARK.FLAGS] = (m.late ? MARK_FLAG.LATE : 0) | (m.skewed ? MARK_FLAG.SKEWED : 0) | (m.source === 'log' ? MARK_FLAG.LOG_TIME : 0);
    }),
    labels: t.marks.map((m) => m.label),
    spans: table(t.spans, SPAN.STRIDE, (d, o, s) => {
      d[o + SPAN.START] = s.start;
      d[o + SPAN.END] = s.end;
      d[o + SPAN.LANE] = s.lane;
      d[o + SPAN.ANSWER_LANE] = s.answerLane;
      d[o + SPAN.COMMAND] = s.command;
      d[o + SPAN.ANSWER] = s.answer;
      d[o + SPAN.TRACK] = s.track;
      d[o + SPAN.DEADLINE] = orNaN(s.deadline);
    }),
    deadlines: table(t.deadlines, DEADLINE.STRIDE, (d, o, x) => {
      d[o + DEADLINE.START] = x.start;
      d[o + DEADLINE.AT] = x.at;
      d[o + DEADLINE.LANE] = x.lane;
      d[o + DEADLINE.COMMAND] = x.command;
      d[o + DEADLINE.STATE] = DEADLINE_STATES.indexOf(x.state);
      d[o + DEADLINE.MISSED_BY] = orNaN(x.missedBy);
      d[o + DEADLINE.ANSWER] = x.answer ?? -1;
      d[o + DEADLINE.TRACK] = x.track;
      d[o + DEADLINE.ROOM] = orNaN(x.room);
    }),
    streams,
    streamPurposes: t.streams.map((s) => s.purpose),
    streamGaps: t.streams.map((s) => s.gaps),
    streamLate: Float64Array.from(late),
    skews: table(t.skews, SKEW.STRIDE, (d, o, s) => {
      d[o + SKEW.T] = s.t;
      d[o + SKEW.OTHER_T] = s.otherT;
      d[o + SKEW.LANE] = s.lane;
      d[o + SKEW.OTHER_LANE] = s.otherLane;
      d[o + SKEW.RECORD] = s.record;
      d[o + SKEW.EARLIER_THAN] = s.earlierThan;
      d[o + SKEW.BY] = s.by;
      d[o + SKEW.VIA] = s.via === 'cause' ? 0 : 1;
    }),
    links: table(t.links, LINK.STRIDE, (d, o, l) => {
      d[o + LINK.FROM_T] = l.fromT;
      d[o + LINK.FROM_LANE] = l.fromLane;
      d[o + LINK.TO_T] = l.toT;
      d[o + LINK.TO_LANE] = l.toLane;
      d[o + LINK.FROM] = l.from;
      d[o + LINK.TO] = l.to;
    }),
    stretches: table(stretchRows, STRETCH.STRIDE, (d, o, x) => {
      d[o + STRETCH.START] = x.start;
      d[o + STRETCH.END] = x.end;
      d[o + STRETCH.LANE] = x.lane;
      d[o + STRETCH.STATE] = x.state;
      d[o + STRETCH.RECORD] = x.record;
      d[o + STRETCH.SESSION] = x.session;
    }),
    sessionLabels: t.sessions.map((s) => s.label),
    sessionStates: states,
    parkings: table(t.parkings, PARKING.STRIDE, (d, o, x) => {
      d[o + PARKING.FROM_T] = x.fromT;
      d[o + PARKING.FROM_LANE] = x.fromLane;
      d[o + PARKING.TO_T] = x.toT;
      d[o + PARKING.TO_LANE] = x.toLane;
      d[o + PARKING.FROM] = x.from;
      d[o + PARKING.TO] = x.to;
    }),
  };
}

/** The buffers a pack hands over (each belongs to the pack alone). */
export function timelineBuffers(p: TimelinePack): ArrayBuffer[] {
  return [p.marks, p.spans, p.deadlines, p.streams, p.streamLate, p.skews, p.links, p.stretches, p.parkings].map((a) => a.buffer as ArrayBuffer);
}

/** One mark read back (for lists, tooltips and announcements; drawing reads the rows directly). */
export interface PackedMark {
  index: number;
  t: number;
  record: number;
  lane: number;
  verdict: MarkVerdict;
  kind: (typeof MARK_KINDS)[number];
  late: boolean;
  skewed: boolean;
  source: 'log' | 'ulid';
  label: string;
}

export function readMark(p: TimelinePack, index: number): PackedMark {
  const o = index * MARK.STRIDE;
  const flags = p.marks[o + MARK.FLAGS];
  return {
    index,
    t: p.marks[o + MARK.T],
    record: p.marks[o + MARK.RECORD],
    lane: p.marks[o + MARK.LANE],
    verdict: MARK_VERDICTS[p.marks[o + MARK.VERDICT]],
    kind: MARK_KINDS[p.marks[o + MARK.KIND]],
    late: (flags & MARK_FLAG.LATE) !== 0,
    skewed: (flags & MARK_FLAG.SKEWED) !== 0,
    source: flags & MARK_FLAG.LOG_TIME ? 'log' : 'ulid',
    label: p.labels[index],
  };
}

export interface PackedDeadline {
  start: number;
  at: number;
  lane: number;
  command: number;
  state: TimelineDeadline['state'];
  missedBy: number | null;
  answer: number | null;
  track: number;
  room: number | null;
}

export function readDeadline(p: TimelinePack, index: number): PackedDeadline {
  const d = p.deadlines;
  const o = index * DEADLINE.STRIDE;
  return {
    start: d[o + DEADLINE.START],
    at: d[o + DEADLINE.AT],
    lane: d[o + DEADLINE.LANE],
    command: d[o + DEADLINE.COMMAND],
    state: DEADLINE_STATES[d[o + DEADLINE.STATE]],
    missedBy: orNull(d[o + DEADLINE.MISSED_BY]),
    answer: d[o + DEADLINE.ANSWER] < 0 ? null : d[o + DEADLINE.ANSWER],
    track: d[o + DEADLINE.TRACK],
    room: orNull(d[o + DEADLINE.ROOM]),
  };
}

export interface PackedStream {
  start: number;
  end: number;
  lane: number;
  record: number;
  terminal: StreamEnd;
  gapAt: number | null;
  abandonedAt: number | null;
  late: number[];
  chunks: number;
  duplicates: number;
  purpose: string | null;
  gaps: number[];
}

export function readStream(p: TimelinePack, index: number): PackedStream {
  const d = p.streams;
  const o = index * STREAM.STRIDE;
  const from = d[o + STREAM.LATE_FROM];
  return {
    start: d[o + STREAM.START],
    end: d[o + STREAM.END],
    lane: d[o + STREAM.LANE],
    record: d[o + STREAM.RECORD],
    terminal: STREAM_TERMINALS[d[o + STREAM.TERMINAL]],
    gapAt: orNull(d[o + STREAM.GAP_AT]),
    abandonedAt: orNull(d[o + STREAM.ABANDONED_AT]),
    late: Array.from(p.streamLate.subarray(from, from + d[o + STREAM.LATE_COUNT])),
    chunks: d[o + STREAM.CHUNKS],
    duplicates: d[o + STREAM.DUPLICATES],
    purpose: p.streamPurposes[index],
    gaps: p.streamGaps[index],
  };
}
