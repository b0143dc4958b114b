// The page's copy of every record summary: Int32Array rows indexed by record key, in chunks of
// 16,384 rows (growing adds a chunk and copies nothing: a doubling array's copies were the page's
// longest tasks at a million records), plus the strings the packs brought. Summary objects are
// made on demand for the rows on screen and cached (bounded), so a 100,000-record log costs the
// page a few MB and no per-record objects.
import { dialectAt, SLOT, STRIDE, STRING_SLOTS, summaryAt, type RecordSummary, type SummaryPack } from '../wire/summary-pack';

/** Summaries made for display are kept up to this many (rows on screen and around them). */
const CACHE_LIMIT = 2048;
/** Rows per chunk (a power of two: a key's chunk is a shift, its row a mask). */
const CHUNK_SHIFT = 14;
const CHUNK_ROWS = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_ROWS - 1;
const newChunk = () => new Int32Array(STRIDE * CHUNK_ROWS);

/** What the page's views read summaries from: the SummaryStore, or a stand-in in a test. */
export type SummarySource = Pick<SummaryStore, 'length' | 'get' | 'inputOf'>;

/** The first record of input `input` (records are stored input after input), or null: a binary search. */
export function firstKeyOf(input: number, store: Pick<SummarySource, 'length' | 'inputOf'>): number | null {
  let lo = 0;
  let hi = store.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (store.inputOf(mid) < input) lo = mid + 1;
    else hi = mid;
  }
  return lo < store.length && store.inputOf(lo) === input ? lo : null;
}

export class SummaryStore {
  private chunks: Int32Array[] = [newChunk()];
  private strings: string[] = [];
  private size = 0;
  private cache = new Map<number, RecordSummary>();
  private seenDialects = new Set<string>();

  /** Records the store has room for before it grows again. */
  get capacity(): number {
    let rows = 0;
    for (const c of this.chunks) rows += c.length / STRIDE;
    return rows;
  }

  /** Records known: one more than the highest key applied. */
  get length(): number {
    return this.size;
  }

  /** Writes each summary of the pack at its key: new keys append, known ones are replaced. */
  apply(pack: SummaryPack): void {
    if (pack.count === 0) return;
    const src = pack.cols;
    let highest = -1;
    for (let n = 0; n < pack.count; n++) {
      const key = src[n * STRIDE + SLOT.KEY];
      if (key < 0) throw new TypeError(`SummaryStore.apply: negative key ${key}`);
      if (key > highest) highest = key;
    }
    this.reserve(highest + 1);
    const base = this.strings.length;
    for (const s of pack.strings) this.strings.push(s);
    // Plain index copies: a subarray per row made this the page's slowest step of a batch.
    const chunks = this.chunks;
    for (let n = 0; n < pack.count; n++) {
      const from = n * STRIDE;
      const key = src[from + SLOT.KEY];
      const dst = chunks[key >>> CHUNK_SHIFT];
      const to = (key & CHUNK_MASK) * STRIDE;
      for (let j = 0; j < STRIDE; j++) dst[to + j] = src[from + j];
      for (let j = 0; j < STRING_SLOTS.length; j++) {
        const at = to + STRING_SLOTS[j];
        if (dst[at] >= 0) dst[at] += base;
      }
      this.cache.delete(key);
      const dialect = dialectAt(src, from, pack.strings);
      if (dialect !== null && !this.seenDialects.has(dialect)) this.seenDialects = new Set([...this.seenDialects, dialect]);
    }
    if (highest >= this.size) this.size = highest + 1;
  }

  /** The AGDX dialects of the records applied since the last clear (a new set when one is added: compare by identity). */
  dialects(): ReadonlySet<string> {
    return this.seenDialects;
  }

  /** The summary of a record, or undefined past the end. The same object until the record changes. */
  get(key: number): RecordSummary | undefined {
    if (key < 0 || key >= this.size) return undefined;
    let s = this.cache.get(key);
    if (!s) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      s = summaryAt(this.chunks[key >>> CHUNK_SHIFT], (key & CHUNK_MASK) * STRIDE, this.strings);
      this.cache.set(key, s);
    }
    return s;
  }

  /** A record's input number, without making its summary (the list's binary searches use it). */
  inputOf(key: number): number {
    return key >= 0 && key < this.size ? this.chunks[key >>> CHUNK_SHIFT][(key & CHUNK_MASK) * STRIDE + SLOT.INPUT] : Infinity;
  }

  /**
   * Lets go of the room grown for records that did not come (a load has ended): the last chunk is
   * cut to the rows used (the first is kept whole), at most one chunk copied.
   */
  trim(): void {
    const last = this.chunks.length - 1;
    if (last === 0) return;
    // The last chunk holds at least one row: reserve adds one only for a key past the others.
    const rows = this.size - last * CHUNK_ROWS;
    if (rows * STRIDE < this.chunks[last].length) this.chunks[last] = this.chunks[last].slice(0, rows * STRIDE);
  }

  clear(): void {
    this.chunks = [newChunk()];
    this.strings = [];
    this.size = 0;
    this.seenDialects = new Set();
    this.cache.clear();
  }

  private reserve(records: number): void {
    const chunks = this.chunks;
    const last = chunks.length - 1;
    // A trimmed last chunk takes its full size again (a copy of at most one chunk).
    if (chunks[last].length < STRIDE * CHUNK_ROWS && records > last * CHUNK_ROWS + chunks[last].length / STRIDE) {
      const whole = newChunk();
      whole.set(chunks[last]);
      chunks[last] = whole;
    }
    while (chunks.length * CHUNK_ROWS < records) chunks.push(newChunk());
  }
}
