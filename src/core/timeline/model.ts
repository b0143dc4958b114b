// The timeline model: the AGDX records of a load on a time axis, one lane per agent (the record's
// source). Pure data, built from the log's analysis (build.ts); the worker packs it for the page
// (src/wire/timeline-pack.ts), which only draws it. Times are drawn as recorded, never corrected:
// a record's time is its log time (µs) when it has one, else its record id's ULID ms × 1000.
//
// Every time here is in microseconds relative to `origin` (the earliest record time), as a float:
// exact over any span shorter than 2^53 µs (285 years); a hostile outlier only costs precision.
import type { Kind } from '../agdx/envelope';
import type { StreamTerminal } from '../graph/model';
import type { SignatureStatus } from '../model';
import { type VerdictClass, verdictClass } from '../verdict';

/**
 * The AGDX kinds, in the order the packed timeline numbers them (agdx-v1.md's order). Written out,
 * not the envelope's KINDS: that module is a decoder's, and the page imports this one (a test
 * holds the two lists equal).
 */
export const MARK_KINDS = ['command', 'response', 'event', 'chunk', 'status', 'error'] as const satisfies readonly Kind[];

/** What a mark's colour and glyph say of its record: the first of these that holds. */
export const MARK_VERDICTS = ['invalid', 'bad-signature', 'unknown-key', 'untrusted', 'trusted', 'unsigned'] as const satisfies readonly VerdictClass[];
export type MarkVerdict = (typeof MARK_VERDICTS)[number];

/** What the verdict of a record needs to say (a record summary has these). */
export interface MarkVerdictSource {
  valid: boolean;
  signature: SignatureStatus;
  trusted: boolean;
}

/**
 * The record's worst verdict as core/verdict.ts orders them for every view (a headline, a badge): a
 * signature that does not hold first (bad-signature), then not valid (its findings or the log's:
 * invalid), a key the registry does not hold (unknown-key), a valid signature it does not back
 * (untrusted), one it backs (trusted); unsigned for anything else.
 */
export function markVerdict(v: MarkVerdictSource): MarkVerdict {
  const c = verdictClass({
    decoded: true,
    valid: v.valid,
    errors: v.valid ? 0 : 1,
    warnings: 0,
    signature: v.signature as SignatureStatus,
    trusted: v.trusted,
  });
  return c === 'undecoded' || c === 'warnings' ? 'invalid' : c;
}

export interface TimelineLane {
  /** The agent (a record's source), as written. */
  agent: string;
  /** Marks in the lane. */
  marks: number;
  /** Tracks its commands' spans and deadlines take (at least 1), so that none overlaps another in time. */
  tracks: number;
}

/** At most this many tracks a lane (beyond, a command shares the track that frees first). */
export const MAX_TRACKS = 6;

/** One record at its time. */
export interface TimelineMark {
  record: number;
  lane: number;
  t: number;
  source: 'log' | 'ulid';
  kind: Kind;
  verdict: MarkVerdict;
  /** What the record is, in a few words: kind, operation, short id, target. */
  label: string;
  /** A chunk or error fed to its stream after the stream had ended. */
  late: boolean;
  /** Earlier than its cause or the command it answers (see `skews`). */
  skewed: boolean;
}

/** A command and one answer (response or error), from the command's time to the answer's. */
export interface TimelineSpan {
  command: number;
  answer: number;
  /** The command's lane (the span is drawn there) and the answer's. */
  lane: number;
  answerLane: number;
  start: number;
  end: number;
  /** end − start (µs); negative when the answer is earlier than its command (skew). */
  latency: number;
  /** The command's deadline, or null. */
  deadline: number | null;
  /** Its command's track in the lane (the command's spans and deadline share it). */
  track: number;
}

/**
 * A command's deadline_micros, drawn on its lane from the command to the deadline: met (every
 * answer before it), missed (an answer after it: agdx/deadline/missed), unanswered (passed with no
 * answer in the input: agdx/deadline/unanswered), or pending (not passed, no answer yet).
 */
export interface TimelineDeadline {
  command: number;
  lane: number;
  start: number;
  at: number;
  state: 'met' | 'missed' | 'unanswered' | 'pending';
  /** The latest answer's lateness (µs) when missed, else null. */
  missedBy: number | null;
  /** The answer that missed it by most (missed), or the first answer (met), else null. */
  answer: number | null;
  /** Its command's track in the lane. */
  track: number;
  /** Time from the deadline to the next command's stretch on the same track (room for words), or null: none follows. */
  room: number | null;
}

/** A chunk stream from its opening to its terminal, drawn as a bar on the lane of its first chunk. */
export interface TimelineStream {
  id: string;
  lane: number;
  /** The record the stream selects (its opening chunk, else its first chunk). */
  record: number;
  start: number;
  /** The terminal's time; without one, the last timed member's (the bar is open-ended). */
  end: number;
  terminal: StreamTerminal;
  purpose: string | null;
  /** Chunk records in the stream (duplicates and late ones included). */
  chunks: number;
  /** When the chunk that revealed the gap came (terminal gap), or null. */
  gapAt: number | null;
  /** The missing sequence numbers (at most the first few) for a gap. */
  gaps: number[];
  /** The opening chunk's deadline when the stream was abandoned (it passed with no terminal), else null. */
  abandonedAt: number | null;
  /** Times of the chunks and errors that came after the stream ended. */
  late: number[];
  duplicates: number;
}

/** A record earlier than what it names (its cause), or an answer earlier than its command. */
export interface TimelineSkew {
  record: number;
  earlierThan: number;
  lane: number;
  /** The lane of what it names. */
  otherLane: number;
  /** The record's time, and the time of what it names (later). */
  t: number;
  otherT: number;
  /** How much earlier (µs). */
  by: number;
  via: 'cause' | 'answer';
}

/** A causal link (cause or cause_at) between two timed records: child → parent. */
export interface TimelineLink {
  from: number;
  to: number;
  fromLane: number;
  toLane: number;
  fromT: number;
  toT: number;
}

/** One state of a session's lifecycle, from the status that entered it to the next one (the terminal state: an instant). */
export interface TimelineStretch {
  state: string;
  start: number;
  end: number;
  /** The session status that entered it. */
  record: number;
}

/**
 * A session (folds/sessions.ts) drawn as a band along the lanes of its statuses' agents: its states
 * in order, the last open one running to the session's last record (a session not ended).
 */
export interface TimelineSession {
  conversation: string;
  label: string | null;
  /** The lanes its session statuses are on, in order of first use. */
  lanes: number[];
  stretches: TimelineStretch[];
  /** The terminal state reached, or null while open. */
  terminal: string | null;
}

/** Work parked while its session was paused, to the record that unparked it. */
export interface TimelineParking {
  /** The parked work (the record the SessionParking names), else the session_parked event. */
  from: number;
  /** The session_unparked event. */
  to: number;
  fromLane: number;
  toLane: number;
  fromT: number;
  toT: number;
}

export interface Timeline {
  /** The epoch µs that times count from (the earliest record time), or null when nothing has a time. */
  origin: bigint | null;
  /** The earliest and latest time drawn (marks, deadlines), relative to the origin. */
  start: number;
  end: number;
  lanes: TimelineLane[];
  /** By time, then record. */
  marks: TimelineMark[];
  spans: TimelineSpan[];
  deadlines: TimelineDeadline[];
  streams: TimelineStream[];
  skews: TimelineSkew[];
  links: TimelineLink[];
  /** Sessions with at least one timed status, first seen first. */
  sessions: TimelineSession[];
  /** Parked work that was unparked, both records timed. */
  parkings: TimelineParking[];
  /** AGDX records with an envelope in the load, and those of them without a time (not drawn). */
  records: number;
  untimed: number;
}
