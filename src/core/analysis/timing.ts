// Deadlines and clocks (report.md "Rule ids"): every command paired with its answers (the graph's
// correlation pairs of a response or error), deadlines missed and deadlines passed unanswered, and
// records earlier than what they name as their cause or answer. Times are a record's time as the
// log entry has it (log time in µs, else its record id's ULID ms × 1000), compared as recorded and
// never corrected. It rests on no verdict, only on the record-level graph. A record's findings are
// made when they are asked for (RecordTiming: the page's list and details, the command line's
// report as it writes each record); the timeline's pairs and skews when it is drawn (timingLinks).
// Both by the same rules (checkEdge, checkUnanswered).
import type { Kind } from '../agdx/envelope';
import { formatMicros } from '../agdx/tree';
import type { EdgeVia } from '../graph/model';
import { RECORD_EDGE_VIAS, recordIdOf, type CompactRecordGraph } from '../graph/record-graph';
import type { Span } from '../model';
import { finding } from '../rules';
import { formatDuration } from '../time';
import { describeEntry, type EntryTimes, type LocateField, type LogEntry, type LogFacts } from '../log/entry';
import { type Finding, NO_FINDINGS } from '../verdict';

/** A command and one answer of it (a response or error the graph pairs with it by correlation). */
export interface AnswerPair {
  /** Record indices. */
  readonly command: number;
  readonly answer: number;
  /** The answer's time minus the command's (µs), or null when either has no time; negative: skew. */
  readonly latency: bigint | null;
  /** The command's deadline_micros, or null. */
  readonly deadline: bigint | null;
  /** How long after the deadline the answer came (µs, > 0), or null: in time, or no deadline or time. */
  readonly missedBy: bigint | null;
}

/** A command whose deadline passed before the latest time of its input, with no answer in that input. */
export interface UnansweredCommand {
  readonly command: number;
  readonly deadline: bigint;
  /** The latest time of the command's input. */
  readonly latest: bigint;
}

/** A record earlier than the record it names as its cause, or an answer earlier than its command. */
export interface ClockSkew {
  /** Record indices: the later-named one (the child) and what it names. */
  readonly record: number;
  readonly earlierThan: number;
  /** How the child names it: by cause (record id or log position), or as the command it answers. */
  readonly via: 'cause' | 'answer';
  /** How much earlier (µs, > 0). */
  readonly by: bigint;
}

/** What the timeline draws of a log's times: its answer pairs, unanswered commands and clock skews. */
export interface LogTiming {
  /** In log order of the answers. */
  readonly pairs: readonly AnswerPair[];
  readonly unanswered: readonly UnansweredCommand[];
  readonly skews: readonly ClockSkew[];
}

const isAnswer = (kind: Kind) => kind === 'response' || kind === 'error';

/** What the rules read of a record (a log entry has it; so does a node of RecordTiming). */
type Timed = Pick<LogEntry, 'record' | 'kind' | 'time' | 'timeSource' | 'input' | 'index' | 'recordId' | 'deadline' | 'correlation'>;

type TimingRule = 'agdx/deadline/missed' | 'agdx/deadline/unanswered' | 'agdx/graph/clock-skew';

/**
 * Where the rules put what they find: findings always; pairs, skews and unanswered commands when
 * asked. A finding's message is made only if the sink asks for it (the timeline's sink does not).
 */
interface TimingSink {
  finding(e: Timed, rule: TimingRule, path: string | null, message: () => string): void;
  pair?(p: AnswerPair): void;
  skew?(s: ClockSkew): void;
  unanswered?(u: UnansweredCommand): void;
}

/** The field a record's time comes from (its record id for a ULID time; a log time is not in its bytes). */
const timePath = (e: Timed): string | null => (e.timeSource === 'ulid' ? 'record' : null);
const timeWords = (e: Timed) => (e.timeSource === 'log' ? 'log time' : "record id's ULID time");

/** Whether an edge child → parent is an answer's to the command it answers (a correlation pair). */
const answersCommand = (child: Kind, parent: Kind, via: EdgeVia) => via === 'correlation' && isAnswer(child) && parent === 'command';

/** A record earlier than what it names, once per (child, parent) — `skewed` holds the pairs reported. */
function checkSkew(child: Timed, parent: Timed, via: ClockSkew['via'], skewed: Set<string>, sink: TimingSink): void {
  const childTime = child.time;
  const parentTime = parent.time;
  if (childTime === null || parentTime === null || childTime >= parentTime) return;
  const key = `${child.record}>${parent.record}`;
  if (skewed.has(key)) return;
  skewed.add(key);
  const by = parentTime - childTime;
  sink.skew?.({ record: child.record, earlierThan: parent.record, via, by });
  const what = via === 'cause' ? 'the record it names as its cause' : 'the command it answers';
  sink.finding(
    child,
    'agdx/graph/clock-skew',
    timePath(child),
    () =>
      `this ${child.kind} (${timeWords(child)} ${formatMicros(childTime)}) is ${formatDuration(by)} earlier than ${what}, ${parent.kind} ${describeEntry(parent)}, whose ${timeWords(parent)} is ${formatMicros(parentTime)}: their clocks disagree; times are shown as recorded`,
  );
}

/**
 * The rules of one edge child → parent (the graph's edges run child → parent): a cause that is
 * later than its child; an answer after its command's deadline, or earlier than its command.
 */
function checkEdge(child: Timed, parent: Timed, via: EdgeVia, skewed: Set<string>, sink: TimingSink): void {
  if (child.record === parent.record) return;
  if (via === 'cause' || via === 'cause_at') {
    checkSkew(child, parent, 'cause', skewed, sink);
    return;
  }
  if (!answersCommand(child.kind, parent.kind, via)) return;
  const latency = child.time !== null && parent.time !== null ? child.time - parent.time : null;
  const missedBy = child.time !== null && parent.deadline !== null && child.time > parent.deadline ? child.time - parent.deadline : null;
  sink.pair?.({ command: parent.record, answer: child.record, latency, deadline: parent.deadline, missedBy });
  if (missedBy !== null) {
    sink.finding(
      child,
      'agdx/deadline/missed',
      timePath(child),
      () =>
        `this ${child.kind} answers command ${describeEntry(parent)} ${formatDuration(missedBy)} after its deadline: deadline_micros ${formatMicros(parent.deadline!)}, this ${child.kind}'s ${timeWords(child)} ${formatMicros(child.time!)}`,
    );
  }
  checkSkew(child, parent, 'answer', skewed, sink);
}

/** A command whose deadline passed before the latest time of its input with no answer there (`answered`: one in its input). */
function checkUnanswered(e: Timed, answered: boolean, latestTimeByInput: ReadonlyMap<number, bigint>, sink: TimingSink): void {
  const deadline = e.deadline;
  if (e.kind !== 'command' || deadline === null || answered) return;
  const latest = latestTimeByInput.get(e.input);
  if (latest === undefined || !(deadline < latest)) return;
  sink.unanswered?.({ command: e.record, deadline, latest });
  sink.finding(
    e,
    'agdx/deadline/unanswered',
    'deadline_micros',
    () =>
      `no response or error in input ${e.input} answers this command${e.correlation !== null ? ` (correlation ${e.correlation})` : ''}, and its deadline ${formatMicros(deadline)} is ${formatDuration(latest - deadline)} before the latest time in the input (${formatMicros(latest)})`,
  );
}

/** Each edge between two records (ghosts left out) as node numbers (node k is entry k), child first, in the graph's order. */
function eachRecordEdge(graph: CompactRecordGraph, fn: (child: number, parent: number, via: EdgeVia) => void): void {
  const { edges, records } = graph;
  for (let e = 0; e < edges.length; e++) {
    const from = edges.from(e);
    const to = edges.to(e);
    if (from < records && to < records) fn(from, to, RECORD_EDGE_VIAS[edges.via(e)]);
  }
}

/**
 * The log's timing without its findings (the timeline's pairs, unanswered commands and skews): a
 * load's findings are made a record at a time (RecordTiming), its messages never all held.
 */
export function timingLinks(facts: LogFacts, graph: CompactRecordGraph): LogTiming {
  const list = facts.entries;

  const pairs: AnswerPair[] = [];
  const skews: ClockSkew[] = [];
  const unanswered: UnansweredCommand[] = [];
  const sink: TimingSink = {
    finding: () => {},
    pair: (p) => pairs.push(p),
    skew: (s) => skews.push(s),
    unanswered: (u) => unanswered.push(u),
  };

  // By node: 1 when a command is answered in its own input.
  const answered = new Uint8Array(list.length);
  const skewed = new Set<string>();
  // The children in log order.
  eachRecordEdge(graph, (c, p, via) => {
    const child = list[c];
    const parent = list[p];
    if (c !== p && answersCommand(child.kind, parent.kind, via) && child.input === parent.input) answered[p] = 1;
    checkEdge(child, parent, via, skewed, sink);
  });
  for (let k = 0; k < list.length; k++) checkUnanswered(list[k], answered[k] === 1, facts.latestTimeByInput, sink);
  return { pairs, unanswered, skews };
}

export interface RecordTimingOptions {
  /** Finds a finding's field in its record's bytes (the page's log); without it, spans are null (the command line locates a record's when it writes it). */
  locate?: LocateField;
}

/**
 * A log's timing findings one record at a time (the command line's report, written as it goes;
 * the page's records as they are shown), made when asked, so a large log's (a fifth of its
 * records may have one) are never all held.
 */
export class RecordTiming {
  /** What the rules read of each node (node k is entry k): the facts' columns, not the facts. */
  private readonly times: EntryTimes;
  /** By node: 1 when a command answered in its own input. */
  private readonly answered: Uint8Array;
  /** Each node's edges to records, in the graph's order: outEdges[outStart[k] .. outStart[k + 1]). */
  private readonly outStart: Int32Array;
  private readonly outEdges: Int32Array;
  private readonly latestTimeByInput: ReadonlyMap<number, bigint>;
  private readonly locate: LocateField | undefined;

  /**
   * Where each finding's field was found, by path then record: located when first asked (building
   * a record's views to find a field took most of a 100,000-record load), then kept.
   */
  private readonly located = new Map<string, Map<number, Span | null>>();

  constructor(
    facts: LogFacts,
    private readonly graph: CompactRecordGraph,
    options: RecordTimingOptions = {},
  ) {
    const n = graph.records;
    if (facts.places.length !== n) throw new TypeError('RecordTiming: the graph is not that of these facts');
    const times = facts.times;
    this.times = times;
    this.locate = options.locate;
    this.latestTimeByInput = facts.latestTimeByInput;

    const { edges } = graph;
    this.answered = new Uint8Array(n);
    this.outStart = new Int32Array(n + 1);
    let count = 0;
    for (let e = 0; e < edges.length; e++) {
      const from = edges.from(e);
      const to = edges.to(e);
      if (to >= n) continue;
      this.outStart[from + 1]++;
      count++;
      const via = RECORD_EDGE_VIAS[edges.via(e)];
      if (from !== to && answersCommand(times.kind(from), times.kind(to), via) && graph.places.input(from) === graph.places.input(to)) this.answered[to] = 1;
    }
    for (let k = 0; k < n; k++) this.outStart[k + 1] += this.outStart[k];
    this.outEdges = new Int32Array(count);
    const next = this.outStart.slice(0, n);
    for (let e = 0; e < edges.length; e++) if (edges.to(e) < n) this.outEdges[next[edges.from(e)]++] = e;
  }

  /**
   * The timing findings about a record (by its record index): its edges' in the graph's order, then
   * its unanswered deadline; with
   * `spans` false their spans are null (enough to count them or read their rules, and cheaper).
   */
  findingsOf(record: number, spans = true): readonly Finding[] {
    const k = this.graph.places.entryOf(record);
    if (k < 0 || !this.mayFind(k)) return NO_FINDINGS;
    const out: Finding[] = [];
    const sink: TimingSink = {
      finding: (_e, rule, path, message) => out.push(finding(rule, path, message(), spans && path !== null ? this.spanOf(record, path) : null)),
    };
    const child = this.node(k);
    const skewed = new Set<string>();
    const { edges } = this.graph;
    for (let i = this.outStart[k]; i < this.outStart[k + 1]; i++) {
      const e = this.outEdges[i];
      checkEdge(child, this.node(edges.to(e)), RECORD_EDGE_VIAS[edges.via(e)], skewed, sink);
    }
    checkUnanswered(child, this.answered[k] === 1, this.latestTimeByInput, sink);
    return out;
  }

  private node(k: number): Timed {
    const { graph: g, times } = this;
    return {
      record: g.places.record(k),
      kind: times.kind(k),
      time: times.time(k),
      timeSource: times.timeSource(k),
      input: g.places.input(k),
      index: g.places.index(k),
      recordId: recordIdOf(g, k),
      deadline: times.deadline(k),
      correlation: times.correlation(k),
    };
  }

  /**
   * Whether node k can have a timing finding, read from the columns alone: false only where the
   * rules (checkEdge, checkUnanswered) surely find nothing, so most records of a large log build no
   * nodes (an object and up to four bigints each). A time or deadline too large for a number: true.
   */
  private mayFind(k: number): boolean {
    const { times } = this;
    const { edges, places } = this.graph;
    const kind = times.kind(k);
    if (kind === 'command' && this.answered[k] !== 1 && times.plainDeadline(k) !== null) return true;
    const time = times.plainTime(k);
    if (time === undefined) return true;
    if (time === null) return false; // no rule fires without the child's time
    for (let i = this.outStart[k]; i < this.outStart[k + 1]; i++) {
      const e = this.outEdges[i];
      const p = edges.to(e);
      if (places.record(p) === places.record(k)) continue;
      const via = RECORD_EDGE_VIAS[edges.via(e)];
      const cause = via === 'cause' || via === 'cause_at';
      if (!cause && !answersCommand(kind, times.kind(p), via)) continue;
      const parentTime = times.plainTime(p);
      if (parentTime === undefined || (parentTime !== null && time < parentTime)) return true;
      if (cause) continue;
      const deadline = times.plainDeadline(p);
      if (deadline === undefined || (deadline !== null && time > deadline)) return true;
    }
    return false;
  }

  private spanOf(record: number, path: string): Span | null {
    if (!this.locate) return null;
    let byRecord = this.located.get(path);
    if (!byRecord) this.located.set(path, (byRecord = new Map()));
    let span = byRecord.get(record);
    if (span === undefined) byRecord.set(record, (span = this.locate(record, path)));
    return span;
  }
}
