// Each entry's place in its load (LogEntry's record, input and index), by entry number. The places
// follow from the entries' numbers but where a record has no entry (one that did not decode, a
// control frame) and where an input starts, so those changes are what is kept, as runs of entries:
// a run's entries are at record k + skip, in its input, at index record − base. A million-record
// CBOR sequence is one run, where three columns of numbers were 12 MB (120 MB at ten million).
import { Column } from './grow';

const int32 = () => new Column((n) => new Int32Array(n));

export class EntryPlaces {
  /** The run the last lookup found: entries are mostly read in order. */
  private at = 0;

  constructor(
    /** How many entries. */
    readonly length: number,
    /** Per run, ascending: its first entry (the first run's is 0). */
    private readonly first: Int32Array,
    /** Per run: record − entry number, for each of its entries. */
    private readonly skip: Int32Array,
    /** Per run: the input of its entries. */
    private readonly inputs: Int32Array,
    /** Per run: record − index, for each of its entries (its input's first record, when the input's indices count from 0). */
    private readonly base: Int32Array,
  ) {}

  /** Entry k's record number (the report's record index). */
  record(k: number): number {
    return k + this.skip[this.run(k)];
  }

  input(k: number): number {
    return this.inputs[this.run(k)];
  }

  /** Entry k's position in its input. */
  index(k: number): number {
    const i = this.run(k);
    return k + this.skip[i] - this.base[i];
  }

  /** The entry of a record, or −1 when the record has none (entries are in record order). */
  entryOf(record: number): number {
    const runs = this.first.length;
    if (runs === 0 || record < this.skip[0]) return -1;
    // The last run whose first entry's record is at or before this one.
    let lo = 0;
    let hi = runs - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.first[mid] + this.skip[mid] <= record) lo = mid;
      else hi = mid - 1;
    }
    const k = record - this.skip[lo];
    const end = lo + 1 < runs ? this.first[lo + 1] : this.length;
    return k < end ? k : -1;
  }

  private run(k: number): number {
    if (!(k >= 0 && k < this.length)) throw new TypeError(`EntryPlaces: no entry numbered ${k}`);
    const first = this.first;
    const runs = first.length;
    const at = this.at;
    if (first[at] <= k && (at + 1 === runs || first[at + 1] > k)) return at;
    let lo = 0;
    let hi = runs - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (first[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    return (this.at = lo);
  }
}

/** EntryPlaces as a load's entries are added, in record order. */
export class EntryPlacesBuilder {
  private readonly first = int32();
  private readonly skip = int32();
  private readonly inputs = int32();
  private readonly base = int32();
  private count = 0;
  private lastRecord = -1;
  private runSkip = 0;
  private runInput = 0;
  private runBase = 0;

  /** The next entry: its record's number (above the last one's), input and index. */
  add(record: number, input: number, index: number): void {
    if (!(Number.isInteger(record) && record > this.lastRecord)) throw new TypeError(`EntryPlacesBuilder: record ${record} after record ${this.lastRecord}`);
    const k = this.count++;
    this.lastRecord = record;
    const skip = record - k;
    const base = record - index;
    if (k > 0 && skip === this.runSkip && input === this.runInput && base === this.runBase) return;
    this.first.push(k);
    this.skip.push(skip);
    this.inputs.push(input);
    this.base.push(base);
    this.runSkip = skip;
    this.runInput = input;
    this.runBase = base;
  }

  done(): EntryPlaces {
    return new EntryPlaces(this.count, this.first.done(), this.skip.done(), this.inputs.done(), this.base.done());
  }
}
