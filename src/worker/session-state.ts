// What a session has loaded, shared by its parts (session.ts): the inputs, their records, the
// summaries made of them, the log's analysis, the AgentDNA workflows and a link's claims of
// redaction. Each part (loading, keys, sharing, views, queries) reads and changes this; what only one
// part needs (the key registry, the rule index, the background checks) that part keeps itself.
import type { WorkflowReport } from '../core/agentdna/model';
import { completeWorkflow } from '../core/agentdna/signature';
import { refoldLog, type LogAnalysis } from '../core/analysis/log';
import { withVerdicts } from '../core/log/entry';
import { analyzeRecords, type InspectedRecord } from '../core/records';
import { isValid, type Finding } from '../core/verdict';
import type { InputSummary } from '../wire/protocol';
import type { RecordSummary } from '../wire/summary-pack';
import { SummaryColumns } from './summary-columns';
import { summaryFrom } from './summarize';

export class SessionState {
  inputs: InputSummary[] = [];
  records: InspectedRecord[] = [];
  /** The records as they are now, for the log analysis to find a finding's field in (not the array it was made from). */
  readonly currentRecords = () => this.records;
  /** What each record's summary says beyond its verdict (summaryOf makes the summary). */
  readonly summaries = new SummaryColumns();
  /** Record key of the first record of each input, so a record's global input number is known. */
  inputOf: number[] = [];
  /** The bytes of each input as loaded, for sharing. */
  inputBytes: Uint8Array[] = [];
  /** The log's analysis (record-level graph, folds, their findings): made once per load, folded again per key change. */
  log: LogAnalysis | null = null;
  /** AgentDNA workflows, `record` being the record key. */
  workflows: WorkflowReport[] = [];
  /** Inputs of a link or bundle that says its bodies were redacted (the sender's word). */
  readonly redactedInputs = new Set<number>();
  /** Records of those inputs whose bytes read as redaction leaves them (the claim holds for them). */
  readonly blanked = new Set<number>();
  /** Counts changes to the summaries: what is worked out from them (the rule index) is made again after one. */
  private summaryChanges = 0;

  /** Marks the summaries changed (made, re-judged or cleared). */
  summariesChanged(): void {
    this.summaryChanges++;
  }

  /** Which change of the summaries they are at: equal numbers, the same summaries. */
  get summariesAt(): number {
    return this.summaryChanges;
  }

  /**
   * Loads, link openings and key changes run one at a time, in the order asked: each awaits (the
   * pool, the page, a cancel), and two interleaved would mix their records (the list expects each
   * input's records together) or verify against the wrong registry.
   */
  private queue: Promise<unknown> = Promise.resolve();
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    // Only the turn is kept, not the task's result: a load's result held its summaries until the next task.
    this.queue = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  /** A record's summary as last made (undefined until it went to the page): its verdict's fields (in `records`) and the counts kept. */
  summaryOf(key: number, records: readonly InspectedRecord[] = this.records): RecordSummary | undefined {
    const counts = this.summaries.get(key);
    return counts && summaryFrom(key, records[key], counts);
  }

  /** The log's analysis as of the last load (made now when nothing was loaded since the last clear). */
  analysis(): LogAnalysis {
    return (this.log ??= analyzeRecords(this.records, this.currentRecords));
  }

  /** The log's findings about a record, as of the last load. */
  logFindings(key: number): readonly Finding[] | undefined {
    return this.log?.findings.get(key);
  }

  /** The same findings without looking for their spans: enough to count them or read their rules. */
  logRules(key: number): readonly Finding[] | undefined {
    return this.log?.findings.get(key, false);
  }

  /** The analysis after the verdicts changed: the same graph, folded again (all of it anew when there is none of these records). */
  refold(): LogAnalysis {
    const log = this.log;
    if (!log || log.facts.records !== this.records.length) return analyzeRecords(this.records, this.currentRecords);
    return refoldLog(
      log,
      withVerdicts(log.facts, (i) => ({ signature: this.records[i].verdict.signature, invalid: !isValid(this.records[i].verdict) })),
    );
  }

  /**
   * The lists of candidate keys the quick checks left for later, completed here and now for the
   * workflows `which` picks: new workflows take those workflows' places.
   */
  completeLists(which: (w: WorkflowReport) => boolean): void {
    this.workflows = this.workflows.map((w) => (which(w) ? completeWorkflow(w) : w));
  }

  clear(): void {
    this.inputs = [];
    this.records = [];
    this.summaries.clear();
    this.inputOf = [];
    this.inputBytes = [];
    this.workflows = [];
    this.log = null;
    this.summariesChanged();
    this.redactedInputs.clear();
    this.blanked.clear();
  }
}
