// The log's columns grow by doubling: one way, for the entries' columns, the sparse ones and the id table.

type Typed = Int32Array | Uint32Array | Float64Array | Uint8Array;

/** A copy of `a` at least `atLeast` long (twice its length, when that is more), its values kept. */
export function grown<T extends Typed>(a: T, atLeast = a.length + 1): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(a.length * 2, atLeast));
  b.set(a as ArrayLike<number>);
  return b;
}
