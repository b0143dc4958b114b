// report@1 (report.md): the public JSON document the CLI and the app's export both write.
import type { Span } from './model';
import { gatheredFolds, streamedReportFolds, type ReportFolds, type StreamedReportFolds } from './folds';
import { agentDnaInputs, buildAgentDnaGraph, type ReportGraph } from './graph';
import { toReportGraph, type StreamedReportGraph } from './graph/report';
import { StreamedArray } from './report-json';
import type { CompactRecordGraph } from './graph/record-graph';
import type { FoldResult } from './folds/model';
import type { WorkflowReport } from './agentdna/model';
import { analyzeRecords, type InputResult, type InspectResult } from './records';
import { trustNote } from './keys/trust-note';
import { allFindings, hasProblem, isBadlySigned, isUnreadableInput, isValid, type RecordVerdict, type VerdictFacts, type Finding } from './verdict';
import { plural } from './plural';

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

/** What report@1 writes of a record's verdict: all of it but its one-line summary. */
export type ReportedVerdict = Omit<RecordVerdict, 'summary'>;

/** A record as report@1 writes it: its verdict and the log's findings about it (their spans located). */
export function reportRecord(v: ReportedVerdict, logFindings: readonly Finding[] | undefined): ReportRecord {
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

/** What report@1 says before its records. */
export function reportHead(inputs: readonly InputResult[]): Pick<Report, 'schema' | 'generator' | 'inputs'> {
  return { schema: REPORT_SCHEMA, generator: GENERATOR, inputs: inputs.map(({ name, bytes, sha256, format }) => ({ name, bytes, sha256, format })) };
}

/**
 * What report@1 says after its records: its graph's edges and correlations and its folds' agents,
 * runs, conversations and sessions made as they are written (report-json.ts StreamedArray).
 */
export type ReportTail = Pick<Report, 'workflows'> & { graph: StreamedReportGraph } & StreamedReportFolds;

/** The tail from the compact record-level graph and the folds: the workflows, the graph and the folds. */
export function streamedReportTail(log: { graph: CompactRecordGraph; folds: FoldResult }, workflows: readonly WorkflowReport[]): ReportTail {
  return {
    workflows: workflows as WorkflowReport[],
    graph: toReportGraph(log.graph, buildAgentDnaGraph(agentDnaInputs(workflows))),
    ...streamedReportFolds(log.folds),
  };
}

/**
 * report@1 in the order it is written (cli/stream.ts streamReport): the inputs, then the records one
 * at a time, each final (the log's findings about it, made from every record, are in it), then the
 * log-level parts, made before the records come, so a reader may take them first.
 */
export interface ReportParts {
  head: ReturnType<typeof reportHead>;
  /**
   * Read once. Streamed, they come in input order, each let go once the reader has taken the next;
   * records held whole (reportPartsOf) come in their order, not necessarily by input.
   */
  records: Iterable<ReportRecord>;
  /** Streamed, its `workflows` fill as the records are read (the second pass makes them again): read them after the records. */
  tail: ReportTail;
}

/** Inspected records held whole, with their workflows and the log's analysis when made already. */
export type HeldRecords = Omit<InspectResult, 'workflows' | 'log'> & Partial<Pick<InspectResult, 'workflows' | 'log'>>;

/**
 * The parts of report@1 for records held whole (the page's export): the parts streamReport writes,
 * from the log's analysis `inspect` or the session made (made here otherwise). Each record is made
 * as it is read. Read once: ask again for another reader.
 */
export function reportPartsOf(held: HeldRecords): ReportParts {
  const log = held.log ?? analyzeRecords(held.records);
  const { findings } = log;
  function* records(): Generator<ReportRecord> {
    for (let i = 0; i < held.records.length; i++) yield reportRecord(held.records[i].verdict, findings.get(i));
  }
  return { head: reportHead(held.inputs), records: records(), tail: streamedReportTail({ graph: log.compact, folds: log.folds }, held.workflows ?? []) };
}

/** The document the parts make, for a JsonWriter (its records and the graph's edges written as they come). */
export function reportDocument({ head, records, tail }: ReportParts): unknown {
  return { ...head, records: new StreamedArray(records), ...tail };
}

/** report@1 as one object, reportPartsOf's parts gathered (for code that reads a report whole: tests). */
export function buildReport(held: HeldRecords): Report {
  const { head, records, tail } = reportPartsOf(held);
  const { graph } = tail;
  return {
    ...head,
    records: [...records],
    ...tail,
    ...gatheredFolds(tail),
    graph: { ...graph, edges: [...graph.edges.items], correlations: [...graph.correlations.items] },
  };
}

/** An input's records as they come (recordsByInput). */
export interface InputRecords {
  input: number;
  /**
   * The one record of an input nothing could be read from (a PNG, an empty file: a single record
   * of format `unknown`, not decoded, as the app tells them apart), else null.
   * It stays in report@1 (`input/unrecognized`), but such an input is an input, not a record, in
   * every count.
   */
  unreadable: ReportRecord | null;
  /** The input's records (none when it is unreadable), read before the next input is given. */
  records: Iterable<ReportRecord>;
}

/**
 * The records of `inputs` inputs, which come in input order, input by input (every input, with
 * records or not): an input's first record is held until the next one tells whether the input is
 * unreadable (a single record of format `unknown`, not decoded). Reads one record ahead.
 */
export function* recordsByInput(inputs: number, records: Iterable<ReportRecord>): Generator<InputRecords> {
  const it = records[Symbol.iterator]();
  let next = it.next();
  for (let i = 0; i < inputs; i++) {
    const first = !next.done && next.value.input === i ? next.value : undefined;
    if (first) next = it.next();
    if (first && (next.done || next.value.input !== i) && isUnreadableInput(1, first)) {
      yield { input: i, unreadable: first, records: [] };
      continue;
    }
    const input = i;
    const rest = (function* () {
      if (first) yield first;
      while (!next.done && next.value.input === input) {
        const r = next.value;
        next = it.next();
        yield r;
      }
    })();
    yield { input: i, unreadable: null, records: rest };
    // What the reader left of the input.
    for (const _ of rest);
  }
  if (!next.done) throw new Error(`recordsByInput: a record of input ${next.value.input} out of input order, or of no input`);
}

/** What makes the exit status 1 (report.md "Command line"): the default, `error`; `warning` adds warnings; `untrusted` is `--require-trusted`. */
export const FAIL_ON = ['error', 'warning', 'untrusted'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export interface ExitPolicy {
  failOn?: FailOn;
  /** The older spelling of `failOn: 'untrusted'`; either one asks for it. */
  requireTrusted?: boolean;
}

/**
/**
 * Exit status per report.md: 0 when every record passes the policy (recordPasses), 1 otherwise.
 * With the default policy: all decoded, valid, no invalid or malformed signature. When the policy
 * asks for trust (`failOn: 'untrusted'`, `requireTrusted`), also 1 when there is no record at all
 * (an Iggy export with no messages, an empty file): nothing to trust is not trusted.
 */
export function exitStatus(report: Pick<Report, 'records'>, options: ExitPolicy = {}): 0 | 1 {
  return statusOf(
    report.records.every((r) => recordPasses(r, options)),
    report.records.length,
    options,
  );
}

/** The exit status of `records` records of which every one passed (recordPasses), or not. */
export function statusOf(everyPassed: boolean, records: number, options: ExitPolicy = {}): 0 | 1 {
  const asksTrust = options.failOn === 'untrusted' || options.requireTrusted === true;
  return everyPassed && (records > 0 || !asksTrust) ? 0 : 1;
}

/** Whether a record's signature is valid and its signer trusted (what `--fail-on untrusted` asks of every record). */
export const isTrusted = (r: Pick<ReportRecord, 'signature'>) => r.signature.status === 'valid' && r.signature.trusted;

/**
 * Whether one record lets the exit status be 0 (exitStatus: every record must): decoded, valid and
 * not badly signed; with `warning`, also no warning finding; with `untrusted` (or `requireTrusted`),
 * also a valid signature whose signer is trusted (unsigned, unknown key, unsupported and untrusted
 * all fail it).
 */
export function recordPasses(r: ReportRecord, options: ExitPolicy = {}): boolean {
  const failOn = options.failOn ?? 'error';
  if (!FAIL_ON.includes(failOn)) throw new TypeError(`recordPasses: failOn must be one of ${FAIL_ON.join(', ')}`);
  if (!(r.decoded && r.valid && !isBadlySigned(r.signature.status))) return false;
  if (failOn === 'warning' && r.findings.some((f) => f.severity === 'warning')) return false;
  return !(failOn === 'untrusted' || options.requireTrusted) || isTrusted(r);
}

/** What the readable summary's last line counts (report.md "Command line"), each apart. */
export interface ReportCounts {
  /** Records, those of unreadable inputs aside. */
  records: number;
  inputs: number;
  unreadable: number;
  valid: number;
  /** Invalid or not decoded (unreadable inputs aside). */
  invalid: number;
  /** Signature invalid or malformed. */
  badlySigned: number;
  /** No valid signature your registry trusts (unsigned ones included): what `--fail-on untrusted` fails on. */
  untrusted: number;
  errors: number;
  warnings: number;
}

/** The counts of `inputs` inputs before any record. */
export function noCounts(inputs: number): ReportCounts {
  return { records: 0, inputs, unreadable: 0, valid: 0, invalid: 0, badlySigned: 0, untrusted: 0, errors: 0, warnings: 0 };
}

/** Adds a record (not an unreadable input's) to the counts; with `by` -1, takes one counted already away. */
export function countRecord(c: ReportCounts, r: ReportRecord, by: 1 | -1 = 1): void {
  c.records += by;
  if (r.decoded && r.valid) c.valid += by;
  else c.invalid += by;
  if (isBadlySigned(r.signature.status)) c.badlySigned += by;
  if (!isTrusted(r)) c.untrusted += by;
  for (const f of r.findings) {
    if (f.severity === 'error') c.errors += by;
    else if (f.severity === 'warning') c.warnings += by;
  }
}

/** The summary line: `12 records in 3 inputs (1 unreadable): 9 valid, 2 invalid or undecoded, 1 badly signed, 4 untrusted; 3 errors, 14 warnings`. */
export function countsLine(c: ReportCounts): string {
  return `${plural(c.records, 'record')} in ${plural(c.inputs, 'input')}${c.unreadable ? ` (${c.unreadable} unreadable)` : ''}: ${c.valid} valid, ${c.invalid} invalid or undecoded, ${c.badlySigned} badly signed, ${c.untrusted} untrusted; ${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}`;
}

/**
 * Text that names a record by its input's number (`input 2, index 5`, `in input 2`), with the
 * input's file name instead (report.md "Command line, as implemented"). Numbers that are no input
 * of the report are left alone.
 */
export function withInputNames(text: string, names: readonly string[]): string {
  return text.replace(/\binput (\d+)(, index (\d+))?/g, (all, n: string, _i, index: string | undefined) => {
    const name = names[Number(n)];
    if (name === undefined) return all;
    return index === undefined ? name : `${name} #${index}`;
  });
}

/** Whether a record is a problem (verdict.ts hasProblem: undecoded, an error or warning finding, badly signed), or fails the policy. */
export function isProblem(r: ReportRecord, policy: ExitPolicy = {}): boolean {
  return hasProblem(recordFacts(r)) || !recordPasses(r, policy);
}

/** A report record's verdict facts (verdict.ts VerdictFacts), for its headline and badges. */
export function recordFacts(r: ReportRecord): VerdictFacts {
  let errors = 0;
  let warnings = 0;
  for (const f of r.findings) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
  }
  return {
    decoded: r.decoded,
    errorCode: r.error?.code ?? null,
    valid: r.valid,
    errors,
    warnings,
    signature: r.signature.status,
    trusted: r.signature.trusted,
    trustNote: trustNote(r.signature),
  };
}
