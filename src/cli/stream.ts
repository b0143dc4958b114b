// `inspect` in bounded memory: the report written as it goes, the same characters as the page's
// (core/report.ts reportPartsOf, JSON.stringify with two spaces), or a readable summary of it
// (summary.ts, core/report-markdown.ts) made from the same parts as they come.
//
// report@1 puts the log's findings (graph, streams, folds, deadlines) inside each record and the
// inputs' digests before the records, so the inputs are read twice. The first pass keeps, per
// record, only the log's compact entry (log/entry.ts; chunk bodies copied out, so no entry holds
// the input's bytes) and hashes each input; the log is analysed once at the end, with no spans
// (locating a field needs the record's bytes). The second pass writes each record as it comes,
// with the log's findings about it (its deadline and clock findings made then, from columns the
// analysis kept), their spans located in its bytes then: a clean input's records from their entries
// and the first pass's columns (report-columns.ts), any other input's read and judged again. A
// large CBOR sequence is read in windows, never whole.
import { createHash } from 'node:crypto';
import type { WorkflowReport } from '../core/agentdna/model';
import { applyKeys } from '../core/agdx/verify';
import { type InputBatch, inspectInputBatches, inspectWindowBatches, type WindowSource } from '../core/inspect';
import type { RegistryEntry } from '../core/keys/keys';
import { analyzeLogForReport } from '../core/analysis/log';
import { LogFactsBuilder } from '../core/log/entry';
import { logSource, spanOfField, type InputResult, type InspectedRecord } from '../core/records';
import {
  type ExitPolicy,
  recordPasses,
  reportDocument,
  type ReportParts,
  type ReportRecord,
  reportHead,
  reportRecord,
  statusOf,
  streamedReportTail,
} from '../core/report';
import type { JsonWriter } from '../core/report-json';
import { cleanRecords, ReportColumns, readFully } from './report-columns';
import type { Finding } from '../core/verdict';

/** A file read at any position, not whole. */
export interface RandomAccessFile {
  readonly size: number;
  /** Reads up to `length` bytes at `position` into `buffer` at `offset`; returns how many it read. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): number;
  close(): void;
}

/** An input of the streamed report: its bytes whole, or a file read in windows (a CBOR sequence). */
export type StreamInput = { name: string; bytes: Uint8Array } | { name: string; file: RandomAccessFile };

/** The keys, what fails the exit status (report.ts ExitPolicy) and how the input is read. */
export interface StreamOptions extends ExitPolicy {
  keys: readonly RegistryEntry[];
  /** Bytes of a CBOR sequence read at a time (default 8 MiB); a window grows for an item larger than it. */
  window?: number;
  /**
   * Read and judge every record again in the second pass, as an input that is not clean always is
   * (report-columns.ts); the report is the same either way (default false: clean inputs are
   * written from the first pass's columns).
   */
  reread?: boolean;
  /**
   * A full garbage collection, when the runtime offers one: run after the first pass's reading,
   * after the folds, after the graph, and after the analysis, so what each step let go is gone
   * before the next allocates (otherwise the heap grows past it first, and a million-record log's
   * entries linger into the second pass).
   */
  collect?: () => void;
}

/**
 * Records per batch of a windowed read: a batch is alive until it is written, and what is alive
 * when the young generation is collected is copied (at 1,000 a batch, a million-record report
 * spent 2.4 s in those collections; at 100, 1.9 s; at 50, 1.8 s).
 */
const BATCH = 100;
export const DEFAULT_WINDOW = 8 << 20;

/**
 * An input's records in batches, as inspectInputBatches gives them (whole), or read in windows;
 * hashed when `digest` (the first pass: the second reads the records again, not the digest).
 */
function inputBatches(index: number, input: StreamInput, keys: readonly RegistryEntry[], window: number, digest: boolean): Iterable<InputBatch> {
  // In batches, not whole: a batch's records are let go before the next is read.
  if ('bytes' in input) return inspectInputBatches(index, input, keys, BATCH, { digest });
  // node:crypto's hash: native, where the pure one was 6% of a large report's time.
  const hash = digest ? createHash('sha256') : null;
  const hasher = hash && { update: (bytes: Uint8Array) => void hash.update(bytes), hex: () => hash.digest('hex') };
  return inspectWindowBatches(index, input.name, fileWindows(input.file), { window, batchSize: BATCH, hasher });
}

/** A file's windows, each read when asked for into a buffer of the input's length (the pages before it are never written, so they cost no memory). */
function fileWindows(file: RandomAccessFile): WindowSource {
  return {
    size: file.size,
    window(from, to) {
      const view = new Uint8Array(to);
      const done = from + readFully((b, o, l, p) => file.read(b, o, l, p), view, from, to - from, from);
      if (done < to) throw new Error(`the file ended at byte ${done}, before its size (${file.size}): did it change while read?`);
      return view;
    },
  };
}

/** What takes the streamed report: the JSON writer (jsonSink) or a readable summary (summary.ts). */
export type ReportSink = (parts: ReportParts) => void;

/** report@1 as JSON text, through `out`. */
function jsonSink(out: JsonWriter): ReportSink {
  return (parts) => out.write(reportDocument(parts));
}

/** Streams report@1 for the inputs into `sink` (jsonSink(out) for a JsonWriter); returns the exit status (report.ts exitStatus). */
export function streamReport(inputs: readonly StreamInput[], options: StreamOptions, out: JsonWriter | ReportSink): 0 | 1 {
  const sink = typeof out === 'function' ? out : jsonSink(out);
  const window = options.window ?? DEFAULT_WINDOW;
  if (!(window >= 1)) throw new TypeError('streamReport: window must be at least 1');
  const withKeys = (records: InspectedRecord[]) => (options.keys.length ? applyKeys(records, options.keys) : records);

  // Pass 1: the log's entries, the inputs' digests and formats, the workflows; then the analysis
  // (the entries let go once it is made, unless a clean input is written from them) and what is
  // written after the records.
  const { results, count, findingsOf, tail, columns, entries } = firstPass(inputs, options, window, withKeys);
  options.collect?.();
  const written = tail.workflows;

  // Pass 2: the records again, each written as it comes: a clean input's from the columns, any
  // other's read and judged again.
  let status: 0 | 1 = 0;
  let read = false;
  function* reportRecords(): Generator<ReportRecord> {
    let k = 0;
    for (let i = 0; i < inputs.length; i++) {
      const input = inputs[i];
      const clean = columns.clean(i);
      if (clean && entries && 'file' in input) {
        for (const out of cleanRecords(i, clean, entries, findingsOf, (b, o, l, p) => input.file.read(b, o, l, p), window)) {
          k++;
          if (!recordPasses(out, options)) status = 1;
          yield out;
        }
        continue;
      }
      for (const batch of inputBatches(i, input, options.keys, window, false)) {
        for (const w of batch.workflows) written.push({ ...w, record: w.record + k });
        for (const r of withKeys(batch.records)) {
          const found = findingsOf(k++);
          const out = reportRecord(r.verdict, found && located(r, found));
          if (!recordPasses(out, options)) status = 1;
          yield out;
        }
      }
    }
    if (k !== count) throw new Error(`the inputs gave ${count} records, then ${k}: did a file change while read?`);
    read = true;
  }
  sink({ head: reportHead(results), records: reportRecords(), tail });
  // The status and the check that the inputs did not change are made as the records are read.
  if (!read) throw new Error('streamReport: the sink did not read every record');
  return statusOf(status === 0, count, options);
}

/** Pass 1 and the log's analysis: the inputs' results, the record count, the log's findings by record and what follows the records. */
function firstPass(inputs: readonly StreamInput[], options: StreamOptions, window: number, withKeys: (records: InspectedRecord[]) => InspectedRecord[]) {
  const facts = new LogFactsBuilder({ copyBodies: true, shareSignatures: true });
  const columns = new ReportColumns();
  const results: InputResult[] = [];
  const workflows: WorkflowReport[] = [];
  let count = 0;
  let entryCount = 0;
  let anyClean = false;
  inputs.forEach((input, i) => {
    columns.begin(i, 'file' in input && !options.reread, count, entryCount);
    for (const batch of inputBatches(i, input, options.keys, window, true)) {
      // A workflow's `record` indexes its batch: make it index all records.
      for (const w of batch.workflows) workflows.push({ ...w, record: w.record + count });
      for (const r of withKeys(batch.records)) {
        const source = logSource(r);
        facts.add(source);
        const hasEntry = source.envelope !== null;
        if (hasEntry) entryCount++;
        columns.add(r, hasEntry);
        count++;
      }
      if (batch.input) results.push(batch.input);
    }
    if (columns.end()) anyClean = true;
  });
  options.collect?.();
  const logFacts = facts.facts();
  // The entries are kept through pass 2 only when a clean input is written from them.
  const entries = anyClean ? logFacts.reportParts() : null;
  const log = analyzeLogForReport(logFacts, options.collect);
  // The tail holds the graph and the folds (their report objects are made as they are written);
  // the rest of the analysis is not held past here.
  const tail = streamedReportTail(log, workflows);
  // The workflows are written after the records, and pass 2 makes each one again as it reads its
  // record: those are the ones written (the sink reads tail.workflows after the records), so pass
  // 1's are not held through pass 2 (a workflow of 500,000 parents lists 500,000 paths and spans).
  tail.workflows.length = 0;
  return { results, count, findingsOf: log.findingsOf, tail, columns, entries };
}

/** The log's findings about a record with their spans, as analyzeRecords' locate gives them: the field's bytes by its tree. */
function located(record: InspectedRecord, found: readonly Finding[]): Finding[] {
  return found.map((f) => ({ ...f, span: f.path === null ? f.span : spanOfField(record, f.path) }));
}
