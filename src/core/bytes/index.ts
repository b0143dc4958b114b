// Byte helpers shared by every decoder: hex, base64, Crockford base32 ids, UTF-8 and spans.

/** A half-open byte range `[start, end)` into the bytes a record was read from. */
export type Span = [number, number];

const HEX_DIGITS = '0123456789abcdef';
/** Each byte's two hex digits as character codes. */
const HIGH_DIGIT = Uint8Array.from({ length: 256 }, (_, i) => HEX_DIGITS.charCodeAt(i >> 4));
const LOW_DIGIT = Uint8Array.from({ length: 256 }, (_, i) => HEX_DIGITS.charCodeAt(i & 15));
/** Digits of up to this many bytes are written here (toHex is synchronous and never re-entered). */
const HEX_SCRATCH_BYTES = 4096;
const hexScratch = new Uint8Array(2 * HEX_SCRATCH_BYTES);

/**
 * Lower-case hex: the digits' character codes written out, then decoded at once (utf8Lossy; they
 * are ASCII) into a flat string. Appended two digits at a time it was a rope of cons cells, about
 * 1 KB for 32 bytes against 80 flat, which every hash, key and scalar a report keeps held (and a
 * structured clone flattened again); and 3–4× slower to make.
 */
export function toHex(bytes: Uint8Array): string {
  const n = bytes.length;
  const digits = n <= HEX_SCRATCH_BYTES ? hexScratch : new Uint8Array(2 * n);
  for (let i = 0; i < n; i++) {
    digits[2 * i] = HIGH_DIGIT[bytes[i]];
    digits[2 * i + 1] = LOW_DIGIT[bytes[i]];
  }
  return utf8Lossy(digits.subarray(0, 2 * n));
}

/** Parses hex, ignoring whitespace and an optional 0x prefix; null when it is not hex. */
export function fromHex(text: string): Uint8Array | null {
  let clean = text.replace(/\s+/g, '');
  if (clean.startsWith('0x') || clean.startsWith('0X')) clean = clean.slice(2);
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.substr(i * 2, 2), 16);
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_LOOKUP = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[B64.charCodeAt(i)] = i;
  t['-'.charCodeAt(0)] = 62; // base64url
  t['_'.charCodeAt(0)] = 63;
  return t;
})();

export function toBase64(bytes: Uint8Array, url = false): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += B64[n >> 18] + B64[(n >> 12) & 63] + (url ? '' : '==');
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + (url ? '' : '=');
  }
  return url ? out.replace(/\+/g, '-').replace(/\//g, '_') : out;
}

/** Parses standard or url-safe base64 (padding optional, whitespace ignored); null when invalid. */
export function fromBase64(text: string): Uint8Array | null {
  // Trailing padding is cut by a loop: the regex /=+$/ backtracks quadratically on a long run of
  // '=' that is not at the end (300 KB of it took 38 s).
  let clean = text.replace(/\s+/g, '');
  let end = clean.length;
  while (end > 0 && clean.charCodeAt(end - 1) === 0x3d) end--;
  if (end < clean.length) clean = clean.slice(0, end);
  if (clean.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    const v = c < 128 ? B64_LOOKUP[c] : -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CROCKFORD_CODES = Uint16Array.from(CROCKFORD, (ch) => ch.charCodeAt(0));
// The character codes of a 16-byte id: every record of a log shows its id this way, and a report
// names most records several times (its id, each edge's ends). Made into one string by a call with
// the 26 codes as arguments: fromCharCode.apply over a typed array copies it into an arguments
// array first (three times the time and most of the garbage of a million-record report's ids).
const crockford26 = new Uint16Array(26);

/** A 16-byte id as 26 Crockford base32 characters (the ULID display form); of `bytes[start, end)` when given (no view made). */
export function toCrockford(bytes: Uint8Array, start = 0, end = bytes.length): string {
  // Big-endian bits, read 5 at a time from the right end (the first character takes what is left).
  const chars = Math.ceil(((end - start) * 8) / 5);
  // Any other length (only a malformed id has one) in slices, which fromCharCode takes at any size.
  const out = chars === 26 ? crockford26 : new Uint16Array(chars);
  let acc = 0;
  let bits = 0;
  let c = chars - 1;
  for (let i = end - 1; i >= start; i--) {
    acc |= bytes[i] << bits;
    bits += 8;
    while (bits >= 5) {
      out[c--] = CROCKFORD_CODES[acc & 31];
      acc >>>= 5;
      bits -= 5;
    }
  }
  while (c >= 0) {
    out[c--] = CROCKFORD_CODES[acc & 31];
    acc >>>= 5;
  }
  if (chars === 26) {
    const o = out;
    // biome-ignore format: the 26 codes, in order
    return String.fromCharCode(o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15], o[16], o[17], o[18], o[19], o[20], o[21], o[22], o[23], o[24], o[25]);
  }
  let text = '';
  for (let i = 0; i < chars; i += 4096) text += String.fromCharCode.apply(null, out.subarray(i, i + 4096) as unknown as number[]);
  return text;
}

// Each character's value in toCrockford's alphabet, by character code (−1: not one it writes).
const CROCKFORD_VALUE = Int8Array.from({ length: 128 }, (_, c) => CROCKFORD.indexOf(String.fromCharCode(c)));

/**
 * The 16 bytes of an id as toCrockford writes one (26 of its characters, upper case, the first at
 * most 7) into `out[at, at + 16)`, and true; false for any other text (`out` then holds no meaning).
 * Exactly toCrockford's inverse: it is true only for text toCrockford gives back unchanged.
 */
export function crockfordToBytes(id: string, out: Uint8Array, at: number): boolean {
  if (id.length !== 26) return false;
  let acc = 0;
  let bits = 0;
  let b = at + 15;
  // From the right, 5 bits a character, a byte out whenever 8 have gathered.
  for (let i = 25; i > 0; i--) {
    const c = id.charCodeAt(i);
    const v = c < 128 ? CROCKFORD_VALUE[c] : -1;
    if (v < 0) return false;
    acc |= v << bits;
    bits += 5;
    if (bits >= 8) {
      out[b--] = acc & 255;
      acc >>>= 8;
      bits -= 8;
    }
  }
  // The first character carries the top 3 bits (26 × 5 = 130: its top two are always zero).
  const c = id.charCodeAt(0);
  const v = c < 128 ? CROCKFORD_VALUE[c] : -1;
  if (v < 0 || v > 7) return false;
  out[b] = acc | (v << bits);
  return true;
}

/** The 16 bytes of a 26-character Crockford id in either case (a header's, a person's), or null when the text is not one. */
export function crockfordBytes(id: string): Uint8Array | null {
  const bytes = new Uint8Array(16);
  return crockfordToBytes(id.toUpperCase(), bytes, 0) ? bytes : null;
}

/** Hex of a Crockford base32 id, in either case (the inverse of toCrockford for 16-byte ids); null when it is not one. */
export function crockfordToHex(id: string): string | null {
  const bytes = crockfordBytes(id);
  return bytes && toHex(bytes);
}

/** The UTF-8 byte length of a string, without encoding it (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The millisecond timestamp in a ULID's first 48 bits, of the id at `start` to `end` (a hint only: ids need not be ULIDs). */
export function ulidTimeMs(id: Uint8Array, start = 0, end = id.length): number {
  let ms = 0;
  for (let i = start; i < start + 6 && i < end; i++) ms = ms * 256 + id[i];
  return ms;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/** Decodes UTF-8, or returns null when the bytes are not valid UTF-8. */
export function utf8OrNull(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Decodes UTF-8, replacing invalid sequences with U+FFFD (for display only). */
export function utf8Lossy(bytes: Uint8Array): string {
  return lenientUtf8.decode(bytes);
}

// Exact text (a leading U+FEFF is kept, as the CBOR reader keeps it), strict.
const exactUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Short texts repeat across the records of a log (agent ids, operations, metadata keys and values):
// a direct-mapped cache keyed by their bytes hands back the string already made for the same bytes,
// so a bulk decode neither decodes nor allocates it again. Strings are immutable, so sharing one is
// invisible; the cache holds copies of the bytes (never a view of an input) and at most a few
// hundred short strings.
const INTERN_MAX_BYTES = 32;
const INTERN_SLOTS = 1024;
const internBytes = new Uint8Array(INTERN_SLOTS * INTERN_MAX_BYTES);
const internLength = new Int8Array(INTERN_SLOTS).fill(-1);
const internText: string[] = new Array<string>(INTERN_SLOTS).fill('');

/**
 * The UTF-8 text of `bytes[start, end)` exactly as a strict decoder reads it (a BOM kept), or null
 * when it is not valid UTF-8. Made for bulk decoding: ASCII without a TextDecoder call, and short
 * texts interned (the same bytes give the same string).
 */
export function utf8Range(bytes: Uint8Array, start: number, end: number): string | null {
  const n = end - start;
  if (n > INTERN_MAX_BYTES) return utf8Uncached(bytes, start, end);
  let h = n;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  const slot = (h ^ (h >>> 15)) & (INTERN_SLOTS - 1);
  const at = slot * INTERN_MAX_BYTES;
  if (internLength[slot] === n) {
    let i = 0;
    while (i < n && internBytes[at + i] === bytes[start + i]) i++;
    if (i === n) return internText[slot];
  }
  const text = utf8Uncached(bytes, start, end);
  if (text === null) return null;
  for (let i = 0; i < n; i++) internBytes[at + i] = bytes[start + i];
  internLength[slot] = n;
  internText[slot] = text;
  return text;
}

function utf8Uncached(bytes: Uint8Array, start: number, end: number): string | null {
  if (end - start < 64) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (bytes[i] > 0x7f) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  try {
    return exactUtf8.decode(bytes.subarray(start, end));
  } catch {
    return null;
  }
}

export function utf8Encode(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Index of the first differing byte, or -1 when equal. A length difference counts at the shorter end. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  return joinBytes(parts);
}

/** The parts one after another; a list, not arguments: a long one (a stream's chunks, a log) would overflow the stack as arguments. */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Reads an unsigned big-endian integer of any width as a bigint. */
export function readUintBE(bytes: Uint8Array, start = 0, end = bytes.length): bigint {
  // A long one through one hex string: a shift per byte makes a bigint each (a signature's r and s
  // took 3.6 µs so, 0.5 through hex).
  if (end - start > 8) return BigInt(`0x${toHex(bytes.subarray(start, end))}`);
  let n = 0n;
  for (let i = start; i < end; i++) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

/** Reads an unsigned little-endian integer of any width as a bigint. */
export function readUintLE(bytes: Uint8Array, start = 0, end = bytes.length): bigint {
  let n = 0n;
  for (let i = end - 1; i >= start; i--) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

/** Whether a string holds a control character (C0, DEL or C1), which agent ids may not. */
export function hasControlChar(text: string): boolean {
  // A loop, not a regular expression: agent ids are short and every record has one or two.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/** Where a character of a text is: its byte offset in the text's UTF-8, and its 1-based line and column (in characters). */
export interface TextPlace {
  offset: number;
  line: number;
  column: number;
}

/** The place of UTF-16 index `at` of `text` (a parser's position, for a message a person can find). */
export function textPlace(text: string, at: number): TextPlace {
  if (typeof text !== 'string' || !Number.isInteger(at)) throw new TypeError('textPlace: a text and an index');
  let offset = 0;
  let line = 1;
  let column = 1;
  for (let i = 0; i < at && i < text.length; i++) {
    const c = text.charCodeAt(i);
    const low = c >= 0xdc00 && c <= 0xdfff;
    if (c === 0x0a) {
      line++;
      column = 1;
    } else if (!low) column++;
    offset += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : low ? 0 : 3;
  }
  return { offset, line, column };
}

/** The place of byte `offset` of UTF-8 `bytes` (an error's offset into pasted text). */
export function bytePlace(bytes: Uint8Array, offset: number): TextPlace {
  if (!(bytes instanceof Uint8Array) || !Number.isInteger(offset)) throw new TypeError('bytePlace: bytes and an offset');
  let line = 1;
  let column = 1;
  const end = Math.min(Math.max(0, offset), bytes.length);
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if (b === 0x0a) {
      line++;
      column = 1;
    } else if ((b & 0xc0) !== 0x80) column++;
  }
  return { offset: end, line, column };
}
