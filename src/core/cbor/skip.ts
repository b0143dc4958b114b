// Where a CBOR item ends, and where a map's entry is, without reading the item into a tree: for
// finding one field of an envelope that was read and judged already (import/views.ts
// topLevelFieldSpan), where building the tree again took most of the time.

/** Nesting past this is not followed (the reader's own default limit, reader.ts). */
const MAX_DEPTH = 128;

/**
 * The offset just past the well-formed CBOR item at `pos` of `bytes` (read no further than
 * `end`), or -1 when none ends there: truncated, a reserved head, a break where no item may stand,
 * an indefinite-length string with a chunk of another type, or nested deeper than 128.
 */
export function itemEnd(bytes: Uint8Array, pos: number, end = bytes.length): number {
  if (!Number.isInteger(pos) || pos < 0) throw new TypeError('itemEnd: pos must be a non-negative integer');
  return skip(bytes, pos, Math.min(end, bytes.length), 0);
}

function skip(b: Uint8Array, pos: number, end: number, depth: number): number {
  if (pos >= end || depth > MAX_DEPTH) return -1;
  const initial = b[pos];
  const major = initial >> 5;
  const ai = initial & 31;
  let p = pos + 1;
  // The head's argument; -1 for an indefinite length. A length past 2^53 is not exact, but no such
  // item fits in the bytes, which is all it is compared with.
  let n: number;
  if (ai < 24) n = ai;
  else if (ai <= 27) {
    const size = 1 << (ai - 24);
    if (p + size > end) return -1;
    n = 0;
    for (let i = 0; i < size; i++) n = n * 256 + b[p + i];
    p += size;
  } else if (ai === 31) n = -1;
  else return -1;
  switch (major) {
    case 0:
    case 1:
      return n < 0 ? -1 : p;
    case 2:
    case 3:
      if (n >= 0) return n <= end - p ? p + n : -1;
      // Definite-length chunks of the same type, then a break.
      for (;;) {
        if (p >= end) return -1;
        if (b[p] === 0xff) return p + 1;
        if (b[p] >> 5 !== major || (b[p] & 31) === 31) return -1;
        p = skip(b, p, end, depth + 1);
        if (p < 0) return -1;
      }
    case 4:
    case 5: {
      const per = major === 5 ? 2 : 1;
      if (n >= 0) {
        for (let i = 0; i < n * per; i++) {
          p = skip(b, p, end, depth + 1);
          if (p < 0) return -1;
        }
        return p;
      }
      for (;;) {
        if (p >= end) return -1;
        if (b[p] === 0xff) return p + 1;
        for (let i = 0; i < per; i++) {
          if (i > 0 && b[p] === 0xff) return -1;
          p = skip(b, p, end, depth + 1);
          if (p < 0) return -1;
        }
      }
    }
    case 6:
      return n < 0 ? -1 : skip(b, p, end, depth + 1);
    default:
      // A break stands only inside an indefinite-length item; a one-byte simple value below 32 is not well-formed.
      return n < 0 || (ai === 24 && n < 32) ? -1 : p;
  }
}

/**
 * Where the value of the entry whose key is the text `name` (ASCII) is in the map at `start` of
 * `bytes`: the last such entry's [start, end), as a reader of the map's item finds it; null when
 * the map has none; undefined when this cannot say without reading the item (not a map read
 * plainly: tagged, or a key that is tagged or an indefinite-length text; or not well-formed).
 */
export function mapEntrySpan(bytes: Uint8Array, start: number, end: number, name: string): [number, number] | null | undefined {
  const last = Math.min(end, bytes.length);
  if (start >= last || bytes[start] >> 5 !== 5) return undefined;
  const ai = bytes[start] & 31;
  let p = start + 1;
  let n: number;
  if (ai < 24) n = ai;
  else if (ai <= 27) {
    const size = 1 << (ai - 24);
    if (p + size > last) return undefined;
    n = 0;
    for (let i = 0; i < size; i++) n = n * 256 + bytes[p + i];
    p += size;
  } else if (ai === 31) n = -1;
  else return undefined;
  let found: [number, number] | null = null;
  for (let i = 0; n < 0 || i < n; i++) {
    if (p >= last) return undefined;
    if (n < 0 && bytes[p] === 0xff) break;
    const keyAt = p;
    p = skip(bytes, p, last, 1);
    if (p < 0) return undefined;
    const key = bytes[keyAt];
    if (key >> 5 === 6 || key === 0x7f) return undefined;
    const valueAt = p;
    p = skip(bytes, p, last, 1);
    if (p < 0) return undefined;
    if (key >> 5 === 3 && textIs(bytes, keyAt, valueAt, name)) found = [valueAt, p];
  }
  return found;
}

/** Whether the definite-length text item at `at` (ending at `end`) is `name`, an ASCII text. */
function textIs(bytes: Uint8Array, at: number, end: number, name: string): boolean {
  const from = end - name.length;
  // The head is 1, 2, 3, 5 or 9 bytes: its argument must be the length, which the item's end gives.
  const ai = bytes[at] & 31;
  const head = ai < 24 ? 1 : 1 + (1 << (ai - 24));
  if (from !== at + head) return false;
  for (let i = 0; i < name.length; i++) if (bytes[from + i] !== name.charCodeAt(i)) return false;
  return true;
}
