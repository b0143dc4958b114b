// report@1 (report.md): the public JSON document the CLI and the app's export both write.
import type { Finding, Span } from './model';
import { toReportFolds, type ReportFolds } from './folds';
import { agentDnaInputs, buildAgentDnaGraph, toReportGraph, type ReportGraph } from './graph';
import { toStreamedReportGraph, type StreamedReportGraph } from './graph/report';
import type { CompactRecordGraph } from './graph/record-graph';
import type { FoldResult } from './folds/model';
import type { WorkflowReport } from './agentdna/model';
import type { LogAnalysis } from './log/analysis';
import { analyzeRecords, type InputResult, type InspectResult } from './records';
import { allFindings, isValid, type RecordVerdict } from './verdict';

export const REPORT_SCHEMA = 'envelope-inspector/report@1';
export const GENERATOR = 'envelope-inspector 0.1.0';

/** A record in report@1: its verdict's report fields, its findings (its own and the log's) and its validity. */
export type ReportRecord = Pick<
  RecordVerdict,
  'input' | 'index' | 'format' | 'span' | 'decoded' | 'error' | 'kind' | 'id' | 'conversation' | 'source' | 'target' | 'signature'
> & {
  valid: boolean;
  findings: readonly Finding[];
  input_span?: Span | null;
  log_time_micros?: string | null;
  parent?: number | null;
  /** Added (docs/report.md "Dialects"): the AGDX dialect, what showed it, and the reference's display type. */
  agdx_dialect: string | null;
  agdx_dialect_evidence: readonly string[];
  display_type: string | null;
};

export interface Report {
  schema: typeof REPORT_SCHEMA;
  generator: string;
  inputs: { name: string; bytes: number; sha256: string; format: string }[];
  records: ReportRecord[];
  workflows: unknown[];
  graph: ReportGraph;
  /** Added sections (docs/report.md): the log folded into agents, runs and conversations. */
  agents: ReportFolds['agents'];
  runs: ReportFolds['runs'];
  conversations: ReportFolds['conversations'];
  /** Added (docs/report.md "Sessions"): the 0.7 dialect's sessions. */
  sessions: ReportFolds['sessions'];
}

/** A record as report@1 writes it: its verdict and the log's findings about it (their spans located). */
export function reportRecord(v: RecordVerdict, logFindings: readonly Finding[] | undefined): ReportRecord {
  const out: ReportRecord = {
    input: v.input,
    index: v.index,
    format: v.format,
    span: v.span,
    decoded: v.decoded,
    // The report's error is code, message and offset (report.md); a span is the page's.
    error: v.error && { code: v.error.code, message: v.error.message, offset: v.error.offset },
    kind: v.kind,
    id: v.id,
    conversation: v.conversation,
    source: v.source,
    target: v.target,
    valid: isValid(v, logFindings),
    findings: allFindings(v, logFindings),
    signature: v.signature,
    agdx_dialect: v.dialect,
    agdx_dialect_evidence: v.dialectEvidence,
    display_type: v.displayType,
  };
  if (v.inputSpan) out.input_span = v.inputSpan;
  if (v.logTimeMicros !== null) out.log_time_micros = v.logTimeMicros.toString();
  if (v.parent !== null) out.parent = v.parent;
  return out;
}

/** Node ids in their display form: an AgentDNA envelope is named by its hash, as its record is. */
const displayId = (s: string) => (s.startsWith('dna:') ? s.slice(4) : s);

function withDisplayIds(g: ReportGraph): ReportGraph {
  const id = displayId;
  return {
    ...g,
    edges: g.edges.map((e) => ({ ...e, from: id(e.from), to: id(e.to) })),
    missing: g.missing.map((m) => ({ ...m, from: id(m.from) })),
    cycles: g.cycles.map((c) => c.map(id)),
  };
}

/**
 * report@1 for inspected records. The log's analysis (graph and folds) is the one `inspect` made,
 * when given; made here otherwise.
 */
export function buildReport(result: Omit<InspectResult, 'workflows' | 'log'> & Partial<Pick<InspectResult, 'workflows' | 'log'>>): Report {
  const log = result.log ?? analyzeRecords(result.records);
  const findings = log.findings;
  return {
    ...reportHead(result.inputs),
    records: result.records.map((r, i) => reportRecord(r.verdict, findings.get(i))),
    ...reportTail(log, result.workflows ?? []),
  };
}

/** What report@1 says before its records. */
export function reportHead(inputs: readonly InputResult[]): Pick<Report, 'schema' | 'generator' | 'inputs'> {
  return { schema: REPORT_SCHEMA, generator: GENERATOR, inputs: inputs.map(({ name, bytes, sha256, format }) => ({ name, bytes, sha256, format })) };
}

/** What report@1 says after its records: the workflows, the graph and the folds. */
export function reportTail(
  log: Pick<LogAnalysis, 'graph' | 'folds'>,
  workflows: readonly WorkflowReport[],
): Pick<Report, 'workflows' | 'graph' | 'agents' | 'runs' | 'conversations' | 'sessions'> {
  return {
    workflows: workflows as WorkflowReport[],
    graph: withDisplayIds(toReportGraph(log.graph, buildAgentDnaGraph(agentDnaInputs(workflows)))),
    ...toReportFolds(log.folds),
  };
}

/**
 * reportTail from the compact record-level graph, the graph's edges and correlations made as they
 * are written (core/report-json.ts jsonPieces writes the same text).
 */
export function streamedReportTail(
  log: { graph: CompactRecordGraph; folds: FoldResult },
  workflows: readonly WorkflowReport[],
): Omit<ReturnType<typeof reportTail>, 'graph'> & { graph: StreamedReportGraph } {
  return {
    workflows: workflows as WorkflowReport[],
    graph: toStreamedReportGraph(log.graph, toReportGraph(buildAgentDnaGraph(agentDnaInputs(workflows))), displayId),
    ...toReportFolds(log.folds),
  };
}

/**
 * Exit status per report.md: 0 all decoded, valid, no invalid signature; 1 otherwise. With
 * `requireTrusted`, also 1 unless every record carries a valid signature whose signer is trusted
 * (unsigned, unknown key, unsupported and untrusted all fail it).
 */
export function exitStatus(report: Pick<Report, 'records'>, options: { requireTrusted?: boolean } = {}): 0 | 1 {
  return report.records.every((r) => recordPasses(r, options)) ? 0 : 1;
}

/** Whether one record lets the exit status be 0 (exitStatus: every record must). */
export function recordPasses(r: ReportRecord, options: { requireTrusted?: boolean } = {}): boolean {
  return (
    r.decoded &&
    r.valid &&
    r.signature.status !== 'invalid' &&
    r.signature.status !== 'malformed' &&
    (!options.requireTrusted || (r.signature.status === 'valid' && r.signature.trusted))
  );
}
