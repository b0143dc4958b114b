// report@1 as text in pieces, the same characters JSON.stringify(report, null, 2) writes: the
// command line writes a large report as it goes, its records coming one at a time, never the
// whole document (nor the whole records array) in memory.

/** An array whose elements come one at a time (a generator): written as a JSON array as they come. */
export class StreamedArray<T> {
  constructor(readonly items: Iterable<T>) {}
}

/**
 * `value` as JSON text in pieces: joined, exactly JSON.stringify(value, null, 2). Objects and
 * arrays down to `depth` levels are written member by member (and a StreamedArray at any level,
 * each element in one piece); below that each value is one JSON.stringify. Throws as JSON.stringify does (a bigint, a cycle).
 */
export function* jsonPieces(value: unknown, depth = 3, indent = ''): Generator<string> {
  if (value instanceof StreamedArray) {
    // Its elements (records) each in one piece.
    yield* arrayPieces(value.items, 1, indent);
    return;
  }
  if (depth > 0 && Array.isArray(value)) {
    yield* arrayPieces(value, depth, indent);
    return;
  }
  if (depth > 0 && isPlainObject(value)) {
    const inner = `${indent}  `;
    let first = true;
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      // JSON.stringify leaves out members it cannot write.
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      yield `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
      first = false;
      yield* jsonPieces(member, depth - 1, inner);
    }
    yield first ? '{}' : `\n${indent}}`;
    return;
  }
  const text = JSON.stringify(value, null, 2);
  // A top-level value JSON.stringify cannot write gives undefined: never the case for a member above.
  if (text === undefined) throw new TypeError('jsonPieces: the value has no JSON text');
  yield indent && text.includes('\n') ? text.replace(/\n/g, `\n${indent}`) : text;
}

function* arrayPieces(items: Iterable<unknown>, depth: number, indent: string): Generator<string> {
  const inner = `${indent}  `;
  let first = true;
  for (const item of items) {
    yield `${first ? '[' : ','}\n${inner}`;
    first = false;
    // JSON.stringify writes null for an element it cannot write.
    yield* jsonPieces(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item, depth - 1, inner);
  }
  yield first ? '[]' : `\n${indent}]`;
}

/** An object JSON.stringify writes member by member itself (no toJSON, not a boxed primitive). */
function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
