// The ids a log names (record ids and the causes that name them), each kept once as its bytes and
// named by a number: a large log has a million record ids, and a Crockford string each (about 56
// bytes with its pointer, twice more where the graph indexed them) was most of what the log's
// analysis held per record. The string is made when asked for (a finding, a node drawn).
import { toCrockford, ulidTimeMs } from '../bytes';
import { grown } from './grow';

/** FNV-1a over the bytes. */
function hashOf(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

export class IdTable {
  /** Every id's bytes, one after another; id n is `bytes[start(n) … start(n + 1))`. */
  private bytes = new Uint8Array(4096);
  /**
   * Where each id starts, once ids of more than one length are met; until then (every AGDX id is
   * 16 bytes) id n starts at n · width, and a large log does without these 4 bytes an id.
   */
  private starts: Int32Array | null = null;
  /** The length of every id while `starts` is null (that of the first id; 0 before it). */
  private width = 0;
  private count = 0;
  /** Open addressing: per slot, id + 1, or 0 when empty; never more than half full. Null once sealed. */
  private table: Int32Array | null = new Int32Array(512);

  /** How many distinct ids. */
  get size(): number {
    return this.count;
  }

  /** The number of these bytes, given one now when new (the bytes are copied). */
  intern(id: Uint8Array): number {
    const table = this.open('intern');
    const slot = this.slot(id, table);
    const known = table[slot] - 1;
    if (known >= 0) return known;
    const n = this.count;
    if (n === 0) this.width = id.length;
    else if (this.starts === null && id.length !== this.width) {
      // The first id of another length: every start from here on is kept.
      const starts = new Int32Array(Math.max(257, 2 * n + 2));
      for (let k = 0; k <= n; k++) starts[k] = k * this.width;
      this.starts = starts;
    }
    const at = this.start(n);
    this.count++;
    if (at + id.length > this.bytes.length) this.bytes = grown(this.bytes, at + id.length);
    this.bytes.set(id, at);
    if (this.starts !== null) {
      if (n + 2 > this.starts.length) this.starts = grown(this.starts, n + 2);
      this.starts[n + 1] = at + id.length;
    }
    table[slot] = n + 1;
    if (this.count * 2 > table.length) this.rehash(table);
    return n;
  }

  /** The number of these bytes, or −1 when they are not in the table. */
  find(id: Uint8Array): number {
    const table = this.open('find');
    return table[this.slot(id, table)] - 1;
  }

  /**
   * No more ids: the index for finding them by their bytes is let go, and the bytes kept at their
   * length (a million-record log's index was 8 MB). Numbers still give their bytes and text.
   */
  seal(): void {
    if (this.table === null) return;
    this.table = null;
    this.bytes = this.bytes.slice(0, this.start(this.count));
    if (this.starts !== null) this.starts = this.starts.slice(0, this.count + 1);
  }

  private open(what: string): Int32Array {
    if (this.table === null) throw new TypeError(`IdTable.${what}: the table is sealed`);
    return this.table;
  }

  /** Id n's bytes (a view: never written). */
  bytesOf(n: number): Uint8Array {
    this.check(n);
    return this.bytes.subarray(this.start(n), this.start(n + 1));
  }

  /** Where id n starts in `bytes` (for n = count, where the next would). */
  private start(n: number): number {
    return this.starts === null ? n * this.width : this.starts[n];
  }

  /** Id n's ULID time in ms (bytes/index.ts ulidTimeMs, read in place), 0 for an id shorter than 6 bytes (as log/entry.ts timeOf has it). */
  ulidMs(n: number): number {
    this.check(n);
    const start = this.start(n);
    const end = this.start(n + 1);
    return end - start < 6 ? 0 : ulidTimeMs(this.bytes, start, end);
  }

  /** Id n in Crockford base32, as the report and the page show ids; null for −1 (no id). */
  text(n: number): string | null {
    if (n < 0) return null;
    this.check(n);
    return toCrockford(this.bytes, this.start(n), this.start(n + 1));
  }

  private check(n: number): void {
    if (!(Number.isInteger(n) && n >= 0 && n < this.count)) throw new TypeError(`IdTable: no id numbered ${n}`);
  }

  private slot(id: Uint8Array, table: Int32Array): number {
    const mask = table.length - 1;
    for (let i = hashOf(id) & mask; ; i = (i + 1) & mask) {
      const n = table[i] - 1;
      if (n < 0 || this.holds(n, id)) return i;
    }
  }

  /** Whether id n is these bytes (compared in place: no view made per probe). */
  private holds(n: number, id: Uint8Array): boolean {
    const start = this.start(n);
    if (this.start(n + 1) - start !== id.length) return false;
    const bytes = this.bytes;
    for (let i = 0; i < id.length; i++) if (bytes[start + i] !== id[i]) return false;
    return true;
  }

  private rehash(old: Int32Array): void {
    const table = new Int32Array(old.length * 2);
    for (let n = 0; n < this.count; n++) table[this.slot(this.bytes.subarray(this.start(n), this.start(n + 1)), table)] = n + 1;
    this.table = table;
  }
}
