// What the page asks of everything loaded: the list's keys (filter and sort, here where the data
// is), the rules present, the folds at a point of the log, the graph, the timeline and report@1.
// The rule index behind the rule filter is this part's own, made again after the summaries change.
import { foldPrepared, logOrderRecords, toReportFolds } from '../core/folds';
import { reportToMarkdown } from '../core/report-markdown';
import { reportDocument, reportPartsOf } from '../core/report';
import { jsonText } from '../core/report-json';
import { RuleIndex } from '../core/rule-filter';
import { ruleSeverity } from '../core/rules';
import { buildTimeline } from '../core/timeline/build';
import { markVerdict, type Timeline } from '../core/timeline/model';
import { allFindings, hasProblem } from '../core/verdict';
import type { GraphRender } from '../wire/graph';
import { splitGraph } from '../wire/graph-parts';
import { type FoldView, type Handlers, LOG_ORDER, type ListOrder, type RecordFilter, type RulesPresent } from '../wire/protocol';
import { packTimeline, timelineBuffers } from '../wire/timeline-pack';
import { renderGraph } from './graph-render';
import { orderKeys } from './list-order';
import type { SessionState } from './session-state';

/** Nodes (and edges) per message when a graph is sent in parts. */
const GRAPH_PART = 1500;

export class Queries {
  /**
   * Which rule ids the records with a summary carry, by record (findings, the log's included, and
   * decode-error codes): made when first asked after the summaries last changed, not per keystroke.
   */
  private rules: { index: RuleIndex; at: number } | null = null;

  constructor(private readonly state: SessionState) {}

  get size(): number {
    return this.state.records.length;
  }

  /** The keys of the records that match, in log order or `order`: the filter and the sort run here, where the data is. */
  filter(f: RecordFilter, order: ListOrder = LOG_ORDER): Int32Array {
    const state = this.state;
    const out = new Int32Array(state.summaries.length);
    let n = 0;
    const source = f.source?.trim().toLowerCase();
    const conversation = f.conversation?.trim().toUpperCase();
    // The records carrying a rule the words mean, marked once from the index (not a look at every record's findings).
    const rule = f.rule?.trim() ? this.ruleIndex().mark(this.matchRules(f.rule), state.summaries.length) : null;
    // From the verdicts and the counts the summaries keep, not whole summaries: a summary reads a
    // bulk-read record's envelope again (its operation and time), which no filter here needs.
    for (let key = 0; key < state.summaries.length; key++) {
      const counts = state.summaries.get(key);
      if (!counts) continue;
      const v = state.records[key].verdict;
      if (f.kind && (v.kind ?? v.format) !== f.kind) continue;
      if (source && !(v.source ?? '').toLowerCase().includes(source)) continue;
      if (conversation && !(v.conversation ?? '').startsWith(conversation)) continue;
      if (f.validity === 'valid' && !(v.decoded && counts.valid)) continue;
      if (f.validity === 'invalid' && !(v.decoded && !counts.valid)) continue;
      if (f.validity === 'undecoded' && v.decoded) continue;
      if (f.validity === 'problem' && !hasProblem({ decoded: v.decoded, errors: counts.errors, warnings: counts.warnings, signature: v.signature.status }))
        continue;
      if (rule && !rule[key]) continue;
      out[n++] = key;
    }
    return orderKeys(out.slice(0, n), order, (key) => state.summaryOf(key));
  }

  /** The rule ids present that the rule filter's words mean (src/core/rule-filter.ts). */
  matchRules(words: string): string[] {
    return this.ruleIndex().match(words);
  }

  /** The rule ids the records carry, with how many records carry each, and how many have any problem. */
  rulesPresent(): RulesPresent {
    const state = this.state;
    let problems = 0;
    // The kept counts and the verdict, not a summary made per record.
    for (let key = 0; key < state.summaries.length; key++) {
      const c = state.summaries.get(key);
      const v = state.records[key].verdict;
      if (c && hasProblem({ decoded: v.decoded, signature: v.signature.status, ...c })) problems++;
    }
    return { rules: this.ruleIndex().counts(), problems };
  }

  private ruleIndex(): RuleIndex {
    const state = this.state;
    if (this.rules?.at === state.summariesAt) return this.rules.index;
    const index = new RuleIndex();
    for (let key = 0; key < state.summaries.length; key++) {
      const v = state.records[key].verdict;
      index.add(key, allFindings(v, state.logRules(key)));
      if (v.error) index.add(key, [{ rule: v.error.code, severity: ruleSeverity(v.error.code) }]);
    }
    this.rules = { index, at: state.summariesAt };
    return index;
  }

  /** The folds (agents, runs, conversations) as they stood at log position `asOf` (all of it when null). */
  folds(asOf: number | null): FoldView {
    const log = this.state.analysis();
    const result = asOf === null ? log.folds : foldPrepared(log.fold, { asOf });
    return {
      ...toReportFolds(result),
      positions: log.fold.order.length,
      asOf: result.asOf ? { position: result.asOf.position, record: result.asOf.recordIndex, time: result.asOf.time?.toString() ?? null } : null,
      order: logOrderRecords(log.fold),
    };
  }

  /** Both graphs, laid out, as the page draws them: the record-level graph of the load, drawn. */
  graph(expanded: string[]): GraphRender {
    const state = this.state;
    return renderGraph(state.analysis(), state.workflows, (key) => state.summaryOf(key), expanded, {
      findings: (key) => state.logRules(key),
      inputName: (input) => state.inputs[input]?.name ?? '',
    });
  }

  /** The AGDX records on a time axis, each mark drawn with its verdict as the page has it. */
  timeline(): Timeline {
    const state = this.state;
    return buildTimeline(state.analysis(), (i) => markVerdict(state.summaryOf(i) ?? { valid: true, signature: 'unsigned', trusted: false }));
  }

  /** report@1 for everything loaded (the same document the CLI writes), and its Markdown summary. */
  report(): { json: string; markdown: string } {
    const state = this.state;
    state.completeLists(() => true);
    const held = { inputs: state.inputs, records: state.records, workflows: state.workflows, log: state.analysis() };
    // The parts are read once: made again for the summary.
    return { json: jsonText(reportDocument(reportPartsOf(held))), markdown: reportToMarkdown(reportPartsOf(held)) };
  }
}

/** The requests the queries answer; `graphPart`: nodes (and edges) per part of a large graph. */
export function queriesHandlers(queries: Queries, { graphPart = GRAPH_PART }: { graphPart?: number } = {}) {
  return {
    async filter({ filter, order }, ctx) {
      const keys = queries.filter(filter, order);
      ctx.transfer(keys.buffer);
      return { keys, total: queries.size, rules: filter.rule?.trim() ? queries.matchRules(filter.rule) : null };
    },
    async rules() {
      return queries.rulesPresent();
    },
    async graph({ expanded }, ctx) {
      const { parts, shell } = splitGraph(queries.graph(expanded), graphPart);
      for (const part of parts) ctx.part(part);
      return shell;
    },
    async timeline(_, ctx) {
      const pack = packTimeline(queries.timeline());
      ctx.transfer(...timelineBuffers(pack));
      return pack;
    },
    async folds({ asOf }) {
      return queries.folds(asOf);
    },
    async report() {
      return queries.report();
    },
  } satisfies Partial<Handlers>;
}
