// What the worker keeps of each record's summary beyond its verdict: whether the summary was made
// (the record went to the page), its validity and finding counts with the log's findings counted
// in, whether its body was blanked, and what it read of the envelope (operation, time). The rest of
// a summary is the verdict's (summaryOf in session-state.ts reads it there). A 100,000-record load
// kept 100,000 summary objects of 19 fields (8.8 MB of the worker's heap); these columns are 21
// bytes a record, and a summary made again needs no envelope (a bulk-read record's is let go).
import { StringTable } from '../core/string-table';
import type { RecordSummary } from '../wire/summary-pack';

/** What a record's summary counts with the log's findings: made again when those change. */
export type SummaryCounts = Pick<RecordSummary, 'valid' | 'errors' | 'warnings' | 'redacted'>;
/** What a record's summary reads of its envelope: made once, when the summary is first made. */
export type EnvelopeSaid = Pick<RecordSummary, 'operation' | 'timeMs' | 'timeFrom'>;
/** What a record's summary says that its verdict alone does not. */
export type SummaryKept = SummaryCounts & EnvelopeSaid;

const MADE = 1;
const VALID = 2;
const REDACTED = 4;
const TIME_FROM_LOG = 8;
const TIME_FROM_ID = 16;

export class SummaryColumns {
  private flags = new Uint8Array(1024);
  private errorCounts = new Uint32Array(1024);
  private warningCounts = new Uint32Array(1024);
  /** NaN: no time. */
  private times = new Float64Array(1024);
  /** Into `operationNames`; -1: none. */
  private operations = new Int32Array(1024);
  /** Operations repeat across a log: each name kept once. */
  private operationNames = new StringTable();
  private size = 0;

  /** One more than the highest key whose summary was made. */
  get length(): number {
    return this.size;
  }

  /** Whether `key`'s summary was made (a record still streaming in has none yet). */
  has(key: number): boolean {
    return key >= 0 && key < this.size && (this.flags[key] & MADE) !== 0;
  }

  /** What `key`'s summary said beyond its verdict, or undefined when none was made. */
  get(key: number): SummaryKept | undefined {
    if (!this.has(key)) return undefined;
    const flags = this.flags[key];
    const time = this.times[key];
    return {
      valid: (flags & VALID) !== 0,
      errors: this.errorCounts[key],
      warnings: this.warningCounts[key],
      redacted: (flags & REDACTED) !== 0,
      operation: this.operationNames.at(this.operations[key]),
      timeMs: Number.isNaN(time) ? null : time,
      timeFrom: flags & TIME_FROM_LOG ? 'log' : flags & TIME_FROM_ID ? 'id' : null,
    };
  }

  /** Keeps what a summary says beyond its verdict at its key. */
  set(s: RecordSummary): void {
    const { key } = s;
    if (!(Number.isInteger(key) && key >= 0)) throw new TypeError(`SummaryColumns.set: bad key ${key}`);
    this.reserve(key + 1);
    const timeFrom = s.timeFrom === 'log' ? TIME_FROM_LOG : s.timeFrom === 'id' ? TIME_FROM_ID : 0;
    this.flags[key] = MADE | (s.valid ? VALID : 0) | (s.redacted ? REDACTED : 0) | timeFrom;
    this.errorCounts[key] = s.errors;
    this.warningCounts[key] = s.warnings;
    this.times[key] = s.timeMs ?? Number.NaN;
    this.operations[key] = this.operationNames.id(s.operation);
    if (key >= this.size) this.size = key + 1;
  }

  clear(): void {
    this.flags = new Uint8Array(1024);
    this.errorCounts = new Uint32Array(1024);
    this.warningCounts = new Uint32Array(1024);
    this.times = new Float64Array(1024);
    this.operations = new Int32Array(1024);
    this.operationNames = new StringTable();
    this.size = 0;
  }

  private reserve(records: number): void {
    if (records <= this.flags.length) return;
    let capacity = this.flags.length;
    while (capacity < records) capacity *= 2;
    const flags = new Uint8Array(capacity);
    const errorCounts = new Uint32Array(capacity);
    const warningCounts = new Uint32Array(capacity);
    const times = new Float64Array(capacity);
    const operations = new Int32Array(capacity);
    flags.set(this.flags);
    errorCounts.set(this.errorCounts);
    warningCounts.set(this.warningCounts);
    times.set(this.times);
    operations.set(this.operations);
    this.flags = flags;
    this.errorCounts = errorCounts;
    this.warningCounts = warningCounts;
    this.times = times;
    this.operations = operations;
  }
}
