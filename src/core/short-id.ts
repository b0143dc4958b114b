// The one short form of an id wherever one is shown (the record list, the detail, graph nodes,
// exports): its start and its end, `01J0Y1…0001`. Ids that differ only in the middle are rare for
// real ULIDs and hashes (the end is random or a counter); the whole id goes in the tooltip or the
// export beside it.

/** Characters kept from the start and from the end of an id. */
export const SHORT_ID_HEAD = 6;
export const SHORT_ID_TAIL = 4;

/**
 * `01J0Y1ZAG00000000000000001` → `01J0Y1…0001`; an id short enough to show whole is returned as it
 * is. Counts code points, so a surrogate pair in a hostile id is never cut in two.
 */
export function shortId(id: string): string {
  if (typeof id !== 'string') throw new TypeError('shortId: id must be a string');
  // Fast path for ASCII (every real id): no array of code points.
  const chars = /^[\x00-\x7f]*$/.test(id) ? null : Array.from(id);
  const length = chars ? chars.length : id.length;
  if (length <= SHORT_ID_HEAD + SHORT_ID_TAIL + 1) return id;
  if (!chars) return `${id.slice(0, SHORT_ID_HEAD)}…${id.slice(-SHORT_ID_TAIL)}`;
  return `${chars.slice(0, SHORT_ID_HEAD).join('')}…${chars.slice(-SHORT_ID_TAIL).join('')}`;
}
