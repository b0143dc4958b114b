// What the worker keeps of each record's summary beyond its verdict: whether the summary was made
// (the record went to the page), its validity and finding counts with the log's findings counted
// in, and whether its body was blanked. The rest of a summary is the verdict's (summaryOf in
// session-state.ts reads it there). A 100,000-record load kept 100,000 summary objects of 19 fields
// (8.8 MB of the worker's heap); these columns are 9 bytes a record.
import type { RecordSummary } from '../wire/summary-pack';

/** What a record's summary says that its verdict alone does not. */
export type SummaryCounts = Pick<RecordSummary, 'valid' | 'errors' | 'warnings' | 'redacted'>;

const MADE = 1;
const VALID = 2;
const REDACTED = 4;

export class SummaryColumns {
  private flags = new Uint8Array(1024);
  private errorCounts = new Uint32Array(1024);
  private warningCounts = new Uint32Array(1024);
  private size = 0;

  /** One more than the highest key whose summary was made. */
  get length(): number {
    return this.size;
  }

  /** Whether `key`'s summary was made (a record still streaming in has none yet). */
  has(key: number): boolean {
    return key >= 0 && key < this.size && (this.flags[key] & MADE) !== 0;
  }

  /** The counts of `key`'s summary, or undefined when none was made. */
  get(key: number): SummaryCounts | undefined {
    if (!this.has(key)) return undefined;
    const flags = this.flags[key];
    return { valid: (flags & VALID) !== 0, errors: this.errorCounts[key], warnings: this.warningCounts[key], redacted: (flags & REDACTED) !== 0 };
  }

  /** Keeps the counts of a summary at its key. */
  set(s: RecordSummary): void {
    const { key } = s;
    if (!(Number.isInteger(key) && key >= 0)) throw new TypeError(`SummaryColumns.set: bad key ${key}`);
    this.reserve(key + 1);
    this.flags[key] = MADE | (s.valid ? VALID : 0) | (s.redacted ? REDACTED : 0);
    this.errorCounts[key] = s.errors;
    this.warningCounts[key] = s.warnings;
    if (key >= this.size) this.size = key + 1;
  }

  clear(): void {
    this.flags = new Uint8Array(1024);
    this.errorCounts = new Uint32Array(1024);
    this.warningCounts = new Uint32Array(1024);
    this.size = 0;
  }

  private reserve(records: number): void {
    if (records <= this.flags.length) return;
    let capacity = this.flags.length;
    while (capacity < records) capacity *= 2;
    const flags = new Uint8Array(capacity);
    const errorCounts = new Uint32Array(capacity);
    const warningCounts = new Uint32Array(capacity);
    flags.set(this.flags);
    errorCounts.set(this.errorCounts);
    warningCounts.set(this.warningCounts);
    this.flags = flags;
    this.errorCounts = errorCounts;
    this.warningCounts = warningCounts;
  }
}
