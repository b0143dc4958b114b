// The log's columns grow by doubling: one way, for the entries' columns, the sparse ones, the id
// table and the streamed report's columns (cli/report-columns.ts).

// Four kinds at most: Column.push stores into each, and a fifth (a Uint16Array column) made that
// store megamorphic: 1.1 s of a million-record report instead of 0.3.
type Typed = Int32Array | Uint32Array | Float64Array | Uint8Array;

/** A copy of `a` at least `atLeast` long (twice its length, when that is more), its values kept. */
export function grown<T extends Typed>(a: T, atLeast = a.length + 1): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(a.length * 2, atLeast));
  b.set(a as ArrayLike<number>);
  return b;
}

/** A typed array that grows as values are pushed; `done` gives one of the exact length. */
export class Column<T extends Typed> {
  private a: T;
  private n = 0;
  constructor(private readonly make: (length: number) => T) {
    this.a = make(256);
  }
  push(v: number): void {
    if (this.n === this.a.length) this.a = grown(this.a);
    this.a[this.n++] = v;
  }
  /** The values, at their exact length; the column lets its buffer go. */
  done(): T {
    const out = this.a.slice(0, this.n) as T;
    this.a = this.make(0);
    this.n = 0;
    return out;
  }
}
