// Values that some of a log's entries have (a chunk's sequence, a command's deadline, a response's
// usage), by entry number, set in increasing entry order: the entries that have one in a column of
// numbers with the values beside, 8 to 12 bytes an entry that has one once trimmed. A Map took
// about 30 (its table is one large object per field: 9 MB a field for a million-record log).
import { grown } from './grow';

abstract class SparseKeys {
  protected keys = new Int32Array(16);
  protected n = 0;
  /** Where the last lookup ended: entries are mostly read in order. */
  private at = 0;

  get size(): number {
    return this.n;
  }

  /** The place of a new entry `k` (after every other), the columns grown to hold it. */
  protected place(k: number): number {
    if (!(Number.isInteger(k) && k >= 0)) throw new TypeError(`sparse column: entry ${k} is not an entry number`);
    if (this.n > 0 && k <= this.keys[this.n - 1]) throw new TypeError(`sparse column: entry ${k} set after entry ${this.keys[this.n - 1]}`);
    if (this.n === this.keys.length) {
      this.keys = grown(this.keys);
      this.grow();
    }
    this.keys[this.n] = k;
    return this.n++;
  }

  protected abstract grow(): void;

  /** No more values: the columns kept at their length (they grow by doubling: up to half of them is room). */
  trim(): void {
    if (this.keys.length > this.n) this.keys = this.keys.slice(0, this.n);
    this.trimValues();
  }

  protected abstract trimValues(): void;

  /** Where entry `k`'s value is, or −1. */
  protected find(k: number): number {
    const keys = this.keys;
    const at = this.at;
    if (at < this.n && keys[at] === k) return at;
    if (at + 1 < this.n && keys[at + 1] === k) return (this.at = at + 1);
    let lo = 0;
    let hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const key = keys[mid];
      if (key < k) lo = mid + 1;
      else if (key > k) hi = mid - 1;
      else return (this.at = mid);
    }
    return -1;
  }
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether a double holds `v` as a 32-bit integer would (−0 is not one). */
const isInt32 = (v: number) => (v | 0) === v && !Object.is(v, -0);

/**
 * Integers by entry: 32-bit ones in a column of those (most: sequences, small counts) until one
 * does not fit, then those a double holds exactly as doubles, any other (a hostile export's) as a
 * bigint beside (a bigint is an object of its own).
 */
export class SparseIntegers extends SparseKeys {
  private values: Int32Array | Float64Array = new Int32Array(16);
  private readonly big = new Map<number, bigint>();

  set(k: number, v: number | bigint): void {
    const i = this.place(k);
    if (typeof v === 'bigint' && !(v >= -MAX_EXACT && v <= MAX_EXACT)) {
      this.wide()[i] = Number.NaN;
      this.big.set(i, v);
      return;
    }
    const x = Number(v);
    if (this.values instanceof Int32Array && isInt32(x)) this.values[i] = x;
    else this.wide()[i] = x;
  }

  /** The values as doubles, from here on. */
  private wide(): Float64Array {
    if (this.values instanceof Float64Array) return this.values;
    const wide = new Float64Array(this.values.length);
    wide.set(this.values);
    this.values = wide;
    return wide;
  }

  /** Entry k's integer as a number while exact, else as a bigint; undefined when it has none. */
  get(k: number): number | bigint | undefined {
    const i = this.find(k);
    if (i < 0) return undefined;
    const v = this.values[i];
    return Number.isNaN(v) ? this.big.get(i) : v;
  }

  /** Entry k's integer as a bigint, or null when it has none. */
  bigint(k: number): bigint | null {
    const v = this.get(k);
    return v === undefined ? null : BigInt(v);
  }

  protected grow(): void {
    this.values = grown(this.values);
  }

  protected trimValues(): void {
    if (this.values.length > this.size) this.values = this.values.slice(0, this.size);
  }
}

/** Any values by entry. */
export class SparseValues<V> extends SparseKeys {
  private readonly values: V[] = [];

  set(k: number, v: V): void {
    this.values[this.place(k)] = v;
  }

  get(k: number): V | undefined {
    const i = this.find(k);
    return i < 0 ? undefined : this.values[i];
  }

  protected grow(): void {}

  protected trimValues(): void {}
}
