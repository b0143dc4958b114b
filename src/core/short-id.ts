// The one way an id is shortened wherever one is shown (the record list, the detail, graph nodes,
// messages, exports): its start and its end, `01J0Y1…0001`. Ids that differ only in the middle are
// rare for real ULIDs and hashes (the end is random or a counter); the whole id goes in the tooltip
// or the export beside it. A DID keeps more of its start (`shortDid`), a hash may be its start alone
// (`shortHash`).

/** Characters kept from the start and from the end of an id. */
export const SHORT_ID_HEAD = 6;
export const SHORT_ID_TAIL = 4;

/**
 * `head` characters of `id`, `…`, and `tail` characters (none: the start alone, `c9c4b641dc41…`); an
 * id short enough to show whole is returned as it is. Counts code points, so a surrogate pair in a
 * hostile id is never cut in two. The forms below name the lengths; a graph label may choose its own.
 */
export function shortened(id: string, head: number, tail: number): string {
  if (typeof id !== 'string') throw new TypeError('shortId: id must be a string');
  // Fast path for ASCII (every real id): no array of code points.
  const chars = /^[\x00-\x7f]*$/.test(id) ? null : Array.from(id);
  const length = chars ? chars.length : id.length;
  if (length <= head + tail + 1) return id;
  if (!chars) return `${id.slice(0, head)}…${tail > 0 ? id.slice(-tail) : ''}`;
  return `${chars.slice(0, head).join('')}…${tail > 0 ? chars.slice(-tail).join('') : ''}`;
}

/** `01J0Y1ZAG00000000000000001` → `01J0Y1…0001`: a record id, conversation, correlation or channel. */
export const shortId = (id: string): string => shortened(id, SHORT_ID_HEAD, SHORT_ID_TAIL);

/** A DID (or a content hash) in a one-line message or label: more of its start, as DIDs all begin `bafybmi`. */
export const shortDid = (did: string): string => shortened(did, 12, 6);

/** A hash where its start is enough to tell it (a workflow's envelopes, beside their full hashes): `c9c4b641dc41…`. */
export const shortHash = (hash: string): string => shortened(hash, 12, 0);
