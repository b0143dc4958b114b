// Builds the timeline model (model.ts) from a load's log analysis: the entries' times and agents,
// the timing's command/answer pairs, deadlines and skews (analysis/timing.ts), and the record-level
// graph's streams and causal edges. Linear in the records (plus one sort by time); built in the
// worker for each Timeline request, since mark verdicts change with the keys.
import { RECORD_EDGE_VIAS } from '../graph/record-graph';
import type { LogAnalysis } from '../analysis/log';
import type { LogEntry } from '../log/entry';
import { shortId } from '../short-id';
import {
  MAX_TRACKS,
  type MarkVerdict,
  type Timeline,
  type TimelineDeadline,
  type TimelineLane,
  type TimelineLink,
  type TimelineMark,
  type TimelineParking,
  type TimelineSession,
  type TimelineSkew,
  type TimelineSpan,
  type TimelineStream,
} from './model';

/** Missing sequence numbers a stream keeps for its label. */
const GAPS_SHOWN = 8;

/** What a mark says of its record, in a few words. */
export function markLabel(e: Pick<LogEntry, 'kind' | 'operation' | 'recordId' | 'target'>): string {
  return `${e.kind}${e.operation !== null ? ` ${e.operation}` : ''} ${e.recordId !== null ? shortId(e.recordId) : '(no record id)'}${e.target !== null ? ` → ${e.target}` : ''}`;
}

/** `verdictOf(record)`: the verdict a record's mark is drawn with (its summary's, as the page has it). */
export function buildTimeline(analysis: LogAnalysis, verdictOf: (record: number) => MarkVerdict): Timeline {
  // The graph in numbers, not its objects: a load drawn only as a timeline never makes them.
  const { facts, timing, compact } = analysis;
  const timed = facts.entries.filter((e) => e.time !== null);
  timed.sort((a, b) => (a.time! < b.time! ? -1 : a.time! > b.time! ? 1 : a.record - b.record));
  const origin = timed.length > 0 ? timed[0].time! : null;
  const rel = (t: bigint) => Number(t - origin!);

  const late = new Set<number>();
  for (const s of compact.streams) for (const i of s.lateIndices) late.add(i);
  const skewed = new Set(timing.skews.map((s) => s.record));

  // Lanes in the order their agents first appear in time.
  const lanes: TimelineLane[] = [];
  const laneOf = new Map<string, number>();
  const markAt = new Int32Array(facts.records).fill(-1);
  const marks: TimelineMark[] = timed.map((e, i) => {
    let lane = laneOf.get(e.source);
    if (lane === undefined) {
      lane = lanes.push({ agent: e.source, marks: 0, tracks: 1 }) - 1;
      laneOf.set(e.source, lane);
    }
    lanes[lane].marks++;
    markAt[e.record] = i;
    return {
      record: e.record,
      lane,
      t: rel(e.time!),
      source: e.timeSource === 'log' ? 'log' : 'ulid',
      kind: e.kind,
      verdict: verdictOf(e.record),
      label: markLabel(e),
      late: late.has(e.record),
      skewed: skewed.has(e.record),
    };
  });
  const mark = (record: number): TimelineMark | null => (record < markAt.length && markAt[record] >= 0 ? marks[markAt[record]] : null);

  const spans: TimelineSpan[] = [];
  const answersOf = new Map<number, { answer: number; missedBy: bigint | null; timed: boolean }[]>();
  for (const p of timing.pairs) {
    const list = answersOf.get(p.command);
    const entry = { answer: p.answer, missedBy: p.missedBy, timed: p.latency !== null };
    if (list) list.push(entry);
    else answersOf.set(p.command, [entry]);
    const c = mark(p.command);
    const a = mark(p.answer);
    if (c && a)
      spans.push({
        command: p.command,
        answer: p.answer,
        lane: c.lane,
        answerLane: a.lane,
        start: c.t,
        end: a.t,
        latency: a.t - c.t,
        deadline: p.deadline === null ? null : rel(p.deadline),
        track: 0,
      });
  }

  const unanswered = new Set(timing.unanswered.map((u) => u.command));
  const deadlines: TimelineDeadline[] = [];
  for (const e of timed) {
    if (e.kind !== 'command' || e.deadline === null) continue;
    const c = mark(e.record)!;
    const answers = answersOf.get(e.record) ?? [];
    let worst: { answer: number; missedBy: bigint } | null = null;
    for (const a of answers) if (a.missedBy !== null && (worst === null || a.missedBy > worst.missedBy)) worst = { answer: a.answer, missedBy: a.missedBy };
    const met = answers.find((a) => a.timed);
    const state: TimelineDeadline['state'] = worst ? 'missed' : unanswered.has(e.record) ? 'unanswered' : met ? 'met' : 'pending';
    deadlines.push({
      command: e.record,
      lane: c.lane,
      start: c.t,
      at: rel(e.deadline),
      state,
      missedBy: worst ? Number(worst.missedBy) : null,
      answer: worst ? worst.answer : state === 'met' ? met!.answer : null,
      track: 0,
      room: null,
    });
  }
  assignTracks(lanes, spans, deadlines);

  const streams: TimelineStream[] = [];
  for (const s of compact.streams) {
    const members = [...s.recordIndices, ...s.errorIndices].map(mark).filter((m) => m !== null);
    if (members.length === 0) continue;
    const opening = mark(s.applied[0] ?? s.recordIndices[0] ?? -1) ?? members.reduce((x, y) => (y.t < x.t ? y : x));
    const lateTimes = s.lateIndices
      .map(mark)
      .filter((m) => m !== null)
      .map((m) => m.t);
    const gapAt = s.gapIndex !== null ? (mark(s.gapIndex)?.t ?? null) : null;
    const abandonedAt = s.terminal === 'abandoned' && s.deadline_micros !== null && origin !== null ? rel(s.deadline_micros) : null;
    const terminal = s.terminalIndex !== null ? mark(s.terminalIndex) : null;
    const inStream = members.filter((m) => !m.late);
    const last = (inStream.length > 0 ? inStream : members).reduce((x, y) => (y.t > x.t ? y : x)).t;
    const end = terminal?.t ?? gapAt ?? (abandonedAt !== null && abandonedAt >= opening.t ? abandonedAt : last);
    streams.push({
      id: s.id,
      lane: opening.lane,
      record: opening.record,
      start: opening.t,
      end: Math.max(end, opening.t),
      terminal: s.terminal,
      purpose: s.purpose,
      chunks: s.chunks,
      gapAt,
      gaps: s.gaps.slice(0, GAPS_SHOWN),
      abandonedAt,
      late: lateTimes,
      duplicates: s.duplicates,
    });
  }

  const skews: TimelineSkew[] = [];
  for (const s of timing.skews) {
    const r = mark(s.record);
    const o = mark(s.earlierThan);
    if (r && o)
      skews.push({ record: s.record, earlierThan: s.earlierThan, lane: r.lane, otherLane: o.lane, t: r.t, otherT: o.t, by: Number(s.by), via: s.via });
  }

  const links: TimelineLink[] = [];
  const { edges, records, places } = compact;
  const linked = new Set<string>();
  for (let e = 0; e < edges.length; e++) {
    const via = RECORD_EDGE_VIAS[edges.via(e)];
    if (via !== 'cause' && via !== 'cause_at') continue;
    // Edges to ghosts (a cause not loaded) have no mark.
    const f = edges.from(e);
    const t = edges.to(e);
    if (f >= records || t >= records) continue;
    const from = mark(places.record(f));
    const to = mark(places.record(t));
    if (!from || !to || from === to) continue;
    const key = `${from.record}>${to.record}`;
    if (linked.has(key)) continue;
    linked.add(key);
    links.push({ from: from.record, to: to.record, fromLane: from.lane, toLane: to.lane, fromT: from.t, toT: to.t });
  }

  const { sessions, parkings } = sessionBands(analysis, mark);

  return {
    origin,
    start: 0,
    end: marks.length > 0 ? marks[marks.length - 1].t : 0,
    lanes,
    marks,
    spans,
    deadlines,
    streams,
    skews,
    links,
    sessions,
    parkings,
    records: facts.entries.length,
    untimed: facts.entries.length - timed.length,
  };
}

/**
 * The sessions' lifecycles as stretches of state between their timed statuses (a status after the
 * session's end changes nothing, as in the fold), along the lanes of those statuses; and the parked
 * work that was unparked, as links.
 */
function sessionBands(analysis: LogAnalysis, mark: (record: number) => TimelineMark | null): { sessions: TimelineSession[]; parkings: TimelineParking[] } {
  const sessions: TimelineSession[] = [];
  const parkings: TimelineParking[] = [];
  for (const s of analysis.folds.sessions) {
    const steps = s.history
      .filter((h) => !h.afterEnd)
      .flatMap((h) => {
        const m = mark(h.recordIndex);
        return m ? [{ state: h.state, m }] : [];
      });
    if (steps.length > 0) {
      // An open session's last state runs to its last timed record.
      let last = steps[steps.length - 1].m.t;
      for (const r of s.records) last = Math.max(last, mark(r)?.t ?? last);
      const lanes: number[] = [];
      for (const { m } of steps) if (!lanes.includes(m.lane)) lanes.push(m.lane);
      sessions.push({
        conversation: s.conversation,
        label: s.label,
        lanes,
        terminal: s.terminal,
        stretches: steps.map(({ state, m }, i) => ({
          state,
          start: m.t,
          end: i + 1 < steps.length ? Math.max(m.t, steps[i + 1].m.t) : s.terminal !== null ? m.t : Math.max(m.t, last),
          record: m.record,
        })),
      });
    }
    for (const p of s.parked) {
      const from = mark(p.sourceRecord ?? p.parkedRecord ?? -1);
      const to = p.unparkedRecord === null ? null : mark(p.unparkedRecord);
      if (from && to) parkings.push({ from: from.record, to: to.record, fromLane: from.lane, toLane: to.lane, fromT: from.t, toT: to.t });
    }
  }
  return { sessions, parkings };
}

/**
 * Each command's stretch (from the earliest of it and its answers to the latest of its answers
 * and its deadline) gets a track of its lane, the first one free by then, so spans and deadline
 * flags do not overlap; at most MAX_TRACKS a lane (past that, the track that frees first is shared).
 * A deadline learns how much room it has before the next stretch on its track (for its words).
 */
function assignTracks(lanes: TimelineLane[], spans: TimelineSpan[], deadlines: TimelineDeadline[]): void {
  interface Stretch {
    command: number;
    lane: number;
    start: number;
    end: number;
    track: number;
    next: number | null;
  }
  const byCommand = new Map<number, Stretch>();
  const stretch = (command: number, lane: number, a: number, b: number) => {
    const s = byCommand.get(command);
    if (s) {
      s.start = Math.min(s.start, a, b);
      s.end = Math.max(s.end, a, b);
    } else byCommand.set(command, { command, lane, start: Math.min(a, b), end: Math.max(a, b), track: 0, next: null });
  };
  for (const s of spans) stretch(s.command, s.lane, s.start, s.end);
  for (const d of deadlines) stretch(d.command, d.lane, d.start, d.at);
  const all = [...byCommand.values()].sort((x, y) => x.start - y.start || x.command - y.command);
  // Per lane: the last stretch on each track.
  const lastOn = new Map<number, Stretch[]>();
  for (const s of all) {
    let tracks = lastOn.get(s.lane);
    if (!tracks) lastOn.set(s.lane, (tracks = []));
    let k = tracks.findIndex((t) => t.end < s.start);
    if (k < 0 && tracks.length < MAX_TRACKS) k = tracks.length;
    if (k < 0) k = tracks.reduce((best, t, i) => (t.end < tracks[best].end ? i : best), 0);
    const before = tracks[k];
    if (before) before.next = s.start;
    tracks[k] = s;
    s.track = k;
    lanes[s.lane].tracks = Math.max(lanes[s.lane].tracks, k + 1);
  }
  for (const s of spans) s.track = byCommand.get(s.command)!.track;
  for (const d of deadlines) {
    const s = byCommand.get(d.command)!;
    d.track = s.track;
    d.room = s.next === null ? null : s.next - d.at;
  }
}
