// The log analysis of a set of inspected records (log/analysis.ts over their entries), and its
// findings put on the records they are about.
import { analyzeLog, type LogAnalysis } from './log/analysis';
import { isValid, locateInTrees, logFactsOf, type RecordResult } from './records';

/** The analysis of the records' log: the graph built once, the folds once. */
export function analyzeRecords(records: readonly RecordResult[]): LogAnalysis {
  return analyzeLog(logFactsOf(records), { locate: locateInTrees(records) });
}

/**
 * Puts the log's findings (the graph's `agdx/graph/*`, the folds' `agdx/fold/*`) on their records,
 * replacing earlier ones of those families: they are redone when records are added or keys change.
 */
export function annotateLog(records: RecordResult[]): LogAnalysis {
  const analysis = analyzeRecords(records);
  records.forEach((r, i) => {
    const add = analysis.findings.get(i);
    if (!add && !r.findings.some(isLogFinding)) return;
    r.findings = [...r.findings.filter((f) => !isLogFinding(f)), ...(add ?? [])];
    r.valid = isValid(r.decoded, r.findings);
  });
  return analysis;
}

const isLogFinding = (f: { rule: string }) => f.rule.startsWith('agdx/graph/') || f.rule.startsWith('agdx/fold/');
