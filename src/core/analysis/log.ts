// The log analysis: everything the inspector concludes from the log as a whole rather than from
// one record — the record-level AGDX graph, deadlines and clocks, and the folds, and their findings
// (agdx/graph/*, agdx/deadline/*, agdx/fold/*) by record. One pass per load over the log's entries;
// after a key change only the folds run again (quarantine facts rest on signatures; the graph and
// the times rest on none).
import type { PreparedLog } from '../folds/fold';
import { foldPrepared, prepareFold } from '../folds/fold';
import type { FoldFinding, FoldResult } from '../folds/model';
import { buildCompactRecordGraph, type CompactRecordGraph } from '../graph/record-graph';
import type { GraphFinding } from '../graph/model';
import type { LogFindings, Finding } from '../verdict';
import type { LocateField, LogFacts } from '../log/entry';
import { StructureFindings } from './structure';
import { RecordTiming, timingLinks, type LogTiming } from './timing';

export interface LogAnalysis {
  readonly facts: LogFacts;
  /** The record-level AGDX graph in numbers, kept for the whole load (links, times, the drawing and the report read it). */
  readonly compact: CompactRecordGraph;
  /**
   * Commands paired with their answers, deadlines passed unanswered, clock skew (timing.ts), for the
   * timeline: made the first time it is asked for, then kept. The timing's findings are made a
   * record at a time (in `findings`), never all held.
   */
  readonly timing: LogTiming;
  /** The log prepared for folding (the folds at any position: foldPrepared). */
  readonly fold: PreparedLog;
  /** The folds over the whole log (the report's agents, runs and conversations). */
  readonly folds: FoldResult;
  /**
   * By record: the graph's findings, the timing's, then the folds' (over the whole log). The
   * timing's are made when a record's are asked for: a fifth of a large log's records may have one,
   * and their messages were most of the page worker's memory beyond the records.
   */
  readonly findings: LogFindings;
}

export interface AnalyzeOptions {
  /** Where a finding's field is in its record's bytes (log findings have no span without it). */
  locate?: LocateField;
}

/** The whole analysis of a load: the graph built once, its times checked once, the folds once. */
export function analyzeLog(facts: LogFacts, options: AnalyzeOptions = {}): LogAnalysis {
  const { locate } = options;
  const compact = buildCompactRecordGraph(facts, { locate });
  return withFolds(
    facts,
    {
      compact,
      graphFindings: byRecord(compact.findings),
      recordTiming: new RecordTiming(facts, compact, { locate }),
      structure: new StructureFindings(compact, facts.inRecordOrder(), locate),
      times: once(() => timingLinks(facts, compact)),
    },
    locate,
  );
}

/**
 * What a key change leaves as it is (the graph and the times rest on no verdict): the graph in
 * numbers, the timing's findings a record at a time, and the timeline's times, made when first
 * asked for. Made once per load and shared by its refolded analyses.
 */
interface LogBase {
  readonly compact: CompactRecordGraph;
  /** The graph's findings by record (they rest on no verdict either). */
  readonly graphFindings: ReadonlyMap<number, readonly Finding[]>;
  readonly recordTiming: RecordTiming;
  /** Streams' gaps, duplicates and late records, repeated ids, cycles, missing causes: made when asked. */
  readonly structure: StructureFindings;
  readonly times: () => LogTiming;
}

/**
 * Each analysis's base, for refoldLog. Kept beside the analysis rather than reached through it: a
 * refolded analysis that read the base through the one before held that one (its facts and folds),
 * and so every analysis since the load, one more per key change.
 */
const bases = new WeakMap<LogAnalysis, LogBase>();

/** `make`'s value, made the first time it is asked for. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

/**
 * What a report written as it goes needs of the log (the CLI): the findings about a record (the
 * graph's, the deadlines' and clocks', the folds'), the record-level graph in numbers (no objects
 * per record, nothing to draw) and the folds. The folds come first, then the graph, each
 * followed by `between` (a full collection, say: each lets go of much), then the timing's columns. The timing
 * findings are made when a record's are asked for (a large log has too many to hold at once).
 */
export function analyzeLogForReport(
  facts: LogFacts,
  between?: () => void,
): { graph: CompactRecordGraph; folds: FoldResult; findingsOf: (record: number) => readonly Finding[] | undefined } {
  const folds = foldPrepared(prepareFold(facts));
  between?.();
  const graph = buildCompactRecordGraph(facts, { notes: false });
  between?.();
  const findings = logFindings(
    facts.records,
    byRecord(graph.findings),
    new RecordTiming(facts, graph),
    new StructureFindings(graph, facts.inRecordOrder()),
    folds.findings,
  );
  return { graph, folds, findingsOf: (record) => findings.get(record) };
}

/**
 * The analysis after the entries' verdicts changed (the keys did): the same record-level graph and timing,
 * the folds again over `facts` (the same entries, their verdict part renewed: log/entry withVerdicts).
 */
export function refoldLog(analysis: LogAnalysis, facts: LogFacts): LogAnalysis {
  if (facts.entries.length !== analysis.facts.entries.length) throw new TypeError('refoldLog: the facts are not those of this analysis');
  const base = bases.get(analysis);
  if (!base) throw new TypeError('refoldLog: not an analysis analyzeLog or refoldLog made');
  return withFolds(facts, base, analysis.fold.locate);
}

function withFolds(facts: LogFacts, base: LogBase, locate: LocateField | undefined): LogAnalysis {
  const fold = prepareFold(facts, locate);
  const folds = foldPrepared(fold);
  const { compact, times, recordTiming } = base;
  const analysis: LogAnalysis = {
    facts,
    compact,
    get timing() {
      return times();
    },
    fold,
    folds,
    findings: logFindings(facts.records, base.graphFindings, recordTiming, base.structure, folds.findings),
  };
  bases.set(analysis, base);
  return analysis;
}

/**
 * A record's log findings in one order: the graph's, its structure's and the timing's (both made
 * when asked), the folds'; undefined for a record with none.
 */
function logFindings(
  records: number,
  graphs: ReadonlyMap<number, readonly Finding[]>,
  timing: RecordTiming,
  structure: StructureFindings,
  folds: readonly FoldFinding[],
): LogFindings {
  const folded = byRecord(folds);
  const get = (record: number, spans = true): readonly Finding[] | undefined => {
    const g = graphs.get(record);
    const st = structure.findingsOf(record, spans);
    const t = timing.findingsOf(record, spans);
    const f = folded.get(record);
    if (!g && st.length === 0 && t.length === 0 && !f) return undefined;
    if (!f && st.length === 0 && t.length === 0) return g;
    return [...(g ?? []), ...st, ...t, ...(f ?? [])];
  };
  return {
    get,
    *[Symbol.iterator]() {
      for (let record = 0; record < records; record++) {
        const found = get(record);
        if (found) yield [record, found] as const;
      }
    },
  };
}

function byRecord(list: readonly (GraphFinding | FoldFinding)[]): Map<number, Finding[]> {
  const out = new Map<number, Finding[]>();
  for (const { recordIndex, finding } of list) {
    const fs = out.get(recordIndex);
    if (fs) fs.push(finding);
    else out.set(recordIndex, [finding]);
  }
  return out;
}
