// The log's columns grow: one way, for the entries' columns, the sparse ones, the id table, the
// folds' lists and the streamed report's columns (cli/report-columns.ts).

// Four kinds at most: Column.push stores into each, and a fifth (a Uint16Array column) made that
// store megamorphic: 1.1 s of a million-record report instead of 0.3 (see Column.push).
type Typed = Int32Array | Uint32Array | Float64Array | Uint8Array;

// The most a column's resizable buffer may reach (Column.grow); a reservation of address space, not
// memory: a browser's V8 keeps every buffer in one terabyte, so a column asks for 256 MiB, not V8's
// largest (4 GiB).
const MAX_RESIZABLE_BYTES = 2 ** 28;

/** A copy of `a` at least `atLeast` long (twice its length, when that is more), its values kept. */
export function grown<T extends Typed>(a: T, atLeast = a.length + 1): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(a.length * 2, atLeast));
  b.set(a as ArrayLike<number>);
  return b;
}

/**
 * A typed array that grows as values are pushed; `done` gives one of the exact length. It grows
 * in place, in a resizable buffer: doubling into new buffers freed the old ones to the allocator,
 * which kept them (a million-record report held about 100 MB of freed columns), and the exact copy
 * `done` makes is the only one. A column past the buffer's largest size grows by copying.
 */
export class Column<T extends Typed> {
  private a: T;
  private buffer: ArrayBuffer | null;
  private n = 0;
  /**
   * `maxBytes`: how large its resizable buffer may grow before it grows by copying (0: it copies
   * from the start, for the many small lists where a reservation each would be too much);
   * `initial`: its first length.
   */
  constructor(
    private readonly make: (length: number) => T,
    { maxBytes = MAX_RESIZABLE_BYTES, initial = 256 }: { maxBytes?: number; initial?: number } = {},
  ) {
    const type = make(0).constructor as unknown as { new (b: ArrayBuffer): T; BYTES_PER_ELEMENT: number };
    this.maxBytes = maxBytes;
    this.buffer = resizable(initial * type.BYTES_PER_ELEMENT, maxBytes);
    this.a = this.buffer === null ? make(initial) : new type(this.buffer);
  }
  private readonly maxBytes: number;
  push(v: number): void {
    if (this.n === this.a.length) this.grow();
    // Two stores, so each sees four kinds at most: a resizable buffer's typed arrays are kinds of
    // their own, and the plain ones (the folds' lists, a column past the resizable size) a fifth.
    if (this.buffer !== null) this.a[this.n++] = v;
    else this.a[this.n++] = v;
  }
  private grow(): void {
    const b = this.buffer;
    if (b !== null && b.byteLength * 2 <= this.maxBytes) b.resize(b.byteLength * 2);
    else {
      // Past the resizable size (or none could be had): plain arrays from here on.
      this.a = grown(this.a);
      b?.resize(0);
      this.buffer = null;
    }
  }
  /** The values, at their exact length; the column lets its buffer go. */
  done(): T {
    const out = this.a.slice(0, this.n) as T;
    this.buffer?.resize(0);
    this.buffer = null;
    this.a = this.make(0);
    this.n = 0;
    return out;
  }
}

/** A resizable buffer of `bytes` bytes, or null where the runtime will not reserve one. */
function resizable(bytes: number, maxBytes: number): ArrayBuffer | null {
  if (bytes === 0 || bytes > maxBytes) return null;
  try {
    return new ArrayBuffer(bytes, { maxByteLength: maxBytes });
  } catch {
    return null;
  }
}
