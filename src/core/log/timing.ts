// Deadlines and clocks (report.md "Rule ids"): every command paired with its answers (the graph's
// correlation pairs of a response or error), deadlines missed and deadlines passed unanswered, and
// records earlier than what they name as their cause or answer. Times are a record's time as the
// log entry has it (log time in µs, else its record id's ULID ms × 1000), compared as recorded and
// never corrected. Made once per load with the record-level graph (it rests on no verdict); the
// timeline draws the same pairs and skews.
import { formatMicros } from '../agdx/tree';
import type { EdgeVia, GraphFinding, RecordGraph } from '../graph/model';
import { RECORD_EDGE_VIAS, type CompactRecordGraph } from '../graph/record-graph';
import { finding } from '../rules';
import { formatDuration } from '../time';
import { describeEntry, type LocateField, type LogEntry, type LogFacts } from './entry';

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

export interface LogTiming {
  /** In log order of the answers. */
  readonly pairs: readonly AnswerPair[];
  readonly unanswered: readonly UnansweredCommand[];
  readonly skews: readonly ClockSkew[];
  /** agdx/deadline/missed, agdx/deadline/unanswered and agdx/graph/clock-skew, by record index ascending. */
  readonly findings: readonly GraphFinding[];
}

const isAnswer = (e: LogEntry) => e.kind === 'response' || e.kind === 'error';

/** The field a record's time comes from (its record id for a ULID time; a log time is not in its bytes). */
const timePath = (e: LogEntry): string | null => (e.timeSource === 'ulid' ? 'record' : null);
const timeWords = (e: LogEntry) => (e.timeSource === 'log' ? 'log time' : "record id's ULID time");

/**
 * Each edge between two records (ghosts left out) as record indices, child first, in the graph's
 * order: the page's graph of objects and the command line's graph in numbers give the same edges.
 */
function eachRecordEdge(graph: RecordGraph | CompactRecordGraph, fn: (child: number, parent: number, via: EdgeVia) => void): void {
  if ('kind' in graph) {
    const recordOfNode = new Map<string, number>();
    for (const r of graph.records) recordOfNode.set(r.id, r.recordIndex);
    for (const edge of graph.edges) {
      const c = recordOfNode.get(edge.from);
      const p = recordOfNode.get(edge.to);
      if (c !== undefined && p !== undefined) fn(c, p, edge.via);
    }
    return;
  }
  const { edges, records, recordIndex } = graph;
  for (let e = 0; e < edges.length; e++) {
    const from = edges.from(e);
    const to = edges.to(e);
    if (from < records && to < records) fn(recordIndex[from], recordIndex[to], RECORD_EDGE_VIAS[edges.via(e)]);
  }
}

export interface TimingOptions {
  locate?: LocateField;
  /** false: only the findings (a report needs no pairs, unanswered list or skews to draw). Default true. */
  keep?: boolean;
}

export function analyzeTiming(facts: LogFacts, graph: RecordGraph | CompactRecordGraph, options: TimingOptions = {}): LogTiming {
  const { locate, keep = true } = options;
  const entryOf: (LogEntry | undefined)[] = new Array(facts.records);
  for (const e of facts.entries) entryOf[e.record] = e;

  const findings: GraphFinding[] = [];
  const add = (e: LogEntry, rule: 'agdx/deadline/missed' | 'agdx/deadline/unanswered' | 'agdx/graph/clock-skew', path: string | null, message: string) =>
    findings.push({ recordIndex: e.record, finding: finding(rule, path, message, path === null ? null : (locate?.(e.record, path) ?? null)) });

  const pairs: AnswerPair[] = [];
  const skews: ClockSkew[] = [];
  const answeredInInput = new Set<number>();
  const skewed = new Set<string>();
  const skew = (child: LogEntry, parent: LogEntry, via: ClockSkew['via']) => {
    if (child.time === null || parent.time === null || child.time >= parent.time) return;
    const key = `${child.record}>${parent.record}`;
    if (skewed.has(key)) return;
    skewed.add(key);
    const by = parent.time - child.time;
    if (keep) skews.push({ record: child.record, earlierThan: parent.record, via, by });
    const what = via === 'cause' ? 'the record it names as its cause' : 'the command it answers';
    add(
      child,
      'agdx/graph/clock-skew',
      timePath(child),
      `this ${child.kind} (${timeWords(child)} ${formatMicros(child.time)}) is ${formatDuration(by)} earlier than ${what}, ${parent.kind} ${describeEntry(parent)}, whose ${timeWords(parent)} is ${formatMicros(parent.time)}: their clocks disagree; times are shown as recorded`,
    );
  };

  // The graph's edges run child → parent, the children in log order.
  eachRecordEdge(graph, (c, p, via) => {
    if (c === p) return;
    const child = entryOf[c]!;
    const parent = entryOf[p]!;
    if (via === 'cause' || via === 'cause_at') {
      skew(child, parent, 'cause');
      return;
    }
    if (via !== 'correlation' || !isAnswer(child) || parent.kind !== 'command') return;
    const latency = child.time !== null && parent.time !== null ? child.time - parent.time : null;
    const missedBy = child.time !== null && parent.deadline !== null && child.time > parent.deadline ? child.time - parent.deadline : null;
    if (keep) pairs.push({ command: p, answer: c, latency, deadline: parent.deadline, missedBy });
    if (child.input === parent.input) answeredInInput.add(p);
    if (missedBy !== null) {
      add(
        child,
        'agdx/deadline/missed',
        timePath(child),
        `this ${child.kind} answers command ${describeEntry(parent)} ${formatDuration(missedBy)} after its deadline: deadline_micros ${formatMicros(parent.deadline!)}, this ${child.kind}'s ${timeWords(child)} ${formatMicros(child.time!)}`,
      );
    }
    skew(child, parent, 'answer');
  });

  const unanswered: UnansweredCommand[] = [];
  for (const e of facts.entries) {
    if (e.kind !== 'command' || e.deadline === null || answeredInInput.has(e.record)) continue;
    const latest = facts.latestTimeByInput.get(e.input);
    if (latest === undefined || !(e.deadline < latest)) continue;
    if (keep) unanswered.push({ command: e.record, deadline: e.deadline, latest });
    add(
      e,
      'agdx/deadline/unanswered',
      'deadline_micros',
      `no response or error in input ${e.input} answers this command${e.correlation !== null ? ` (correlation ${e.correlation})` : ''}, and its deadline ${formatMicros(e.deadline)} is ${formatDuration(latest - e.deadline)} before the latest time in the input (${formatMicros(latest)})`,
    );
  }

  findings.sort((x, y) => x.recordIndex - y.recordIndex);
  return { pairs, unanswered, skews, findings };
}
