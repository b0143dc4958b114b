// The log analysis: everything the inspector concludes from the log as a whole rather than from
// one record — the record-level AGDX graph, deadlines and clocks, and the folds, and their findings
// (agdx/graph/*, agdx/deadline/*, agdx/fold/*) by record. One pass per load over the log's entries;
// after a key change only the folds run again (quarantine facts rest on signatures; the graph and
// the times rest on none).
import type { PreparedLog } from '../folds/fold';
import { foldPrepared, prepareFold } from '../folds/fold';
import type { FoldFinding, FoldResult } from '../folds/model';
import { buildCompactRecordGraph, recordGraphOf, type CompactRecordGraph } from '../graph/record-graph';
import type { GraphFinding, RecordGraph } from '../graph/model';
import type { Finding } from '../model';
import type { LogFindings } from '../verdict';
import type { LocateField, LogFacts } from './entry';
import { analyzeTiming, RecordTiming, type LogTiming } from './timing';

export interface LogAnalysis {
  readonly facts: LogFacts;
  /** The record-level AGDX graph in numbers, kept for the whole load (links and times read it). */
  readonly compact: CompactRecordGraph;
  /**
   * The same graph as objects, for drawing (graph/draw.ts): made the first time it is asked for
   * (the Graph or Timeline tab), then kept; a load nobody draws never holds an object per record.
   */
  readonly graph: RecordGraph;
  /** Commands paired with their answers, deadlines missed or passed unanswered, clock skew (timing.ts). */
  readonly timing: LogTiming;
  /** The log prepared for folding (the folds at any position: foldPrepared). */
  readonly fold: PreparedLog;
  /** The folds over the whole log (the report's agents, runs and conversations). */
  readonly folds: FoldResult;
  /** By record: the graph's findings, the timing's, then the folds' (over the whole log). */
  readonly findings: LogFindings;
}

export interface AnalyzeOptions {
  /** Where a finding's field is in its record's bytes (log findings have no span without it). */
  locate?: LocateField;
}

/** The whole analysis of a load: the graph built once, its times checked once, the folds once. */
export function analyzeLog(facts: LogFacts, options: AnalyzeOptions = {}): LogAnalysis {
  const compact = buildCompactRecordGraph(facts, { locate: options.locate });
  return withFolds(facts, compact, lazyObjects(compact, facts), analyzeTiming(facts, compact, { locate: options.locate }), options.locate);
}

/** The objects of `compact`, made once when first asked for. */
function lazyObjects(compact: CompactRecordGraph, facts: LogFacts): () => RecordGraph {
  let graph: RecordGraph | null = null;
  return () => (graph ??= recordGraphOf(compact, facts.entries));
}

/**
 * What a report written as it goes needs of the log (the CLI): the findings about a record (the
 * graph's, the deadlines' and clocks', the folds'), the record-level graph in numbers (no objects
 * per record, nothing to draw) and the folds. The folds come first, then `between` (a full
 * collection, say: folding lets go of much), then the graph and the timing's columns. The timing
 * findings are made when a record's are asked for (a large log has too many to hold at once).
 */
export function analyzeLogForReport(
  facts: LogFacts,
  between?: () => void,
): { graph: CompactRecordGraph; folds: FoldResult; findingsOf: (record: number) => readonly Finding[] | undefined } {
  const folds = foldPrepared(prepareFold(facts));
  between?.();
  const graph = buildCompactRecordGraph(facts, { notes: false });
  const timing = new RecordTiming(facts, graph);
  const graphFindings = byRecord(graph.findings);
  const foldFindings = byRecord(folds.findings);
  // As byRecord over the three lists gives them: undefined for a record with none.
  const findingsOf = (record: number) => {
    const graphs = graphFindings.get(record);
    const times = timing.findingsOf(record);
    const folded = foldFindings.get(record);
    if (!graphs && times.length === 0 && !folded) return undefined;
    return [...(graphs ?? []), ...times, ...(folded ?? [])];
  };
  return { graph, folds, findingsOf };
}

/**
 * The analysis after the entries' verdicts changed (the keys did): the same record-level graph and timing,
 * the folds again over `facts` (the same entries, their verdict part renewed: log/entry withVerdicts).
 */
export function refoldLog(analysis: LogAnalysis, facts: LogFacts): LogAnalysis {
  if (facts.entries.length !== analysis.facts.entries.length) throw new TypeError('refoldLog: the facts are not those of this analysis');
  // The objects, made or not, are the same graph's: the first facts' entries (a renewed entry's
  // verdict is not in the graph).
  const objects = () => analysis.graph;
  return withFolds(facts, analysis.compact, objects, analysis.timing, analysis.fold.locate);
}

function withFolds(facts: LogFacts, compact: CompactRecordGraph, objects: () => RecordGraph, timing: LogTiming, locate: LocateField | undefined): LogAnalysis {
  const fold = prepareFold(facts, locate);
  const folds = foldPrepared(fold);
  return {
    facts,
    compact,
    get graph() {
      return objects();
    },
    timing,
    fold,
    folds,
    findings: byRecord(compact.findings, timing.findings, folds.findings),
  };
}

function byRecord(...lists: (readonly (GraphFinding | FoldFinding)[])[]): LogFindings {
  const out = new Map<number, Finding[]>();
  for (const list of lists) {
    for (const { recordIndex, finding } of list) {
      const fs = out.get(recordIndex);
      if (fs) fs.push(finding);
      else out.set(recordIndex, [finding]);
    }
  }
  return out;
}
