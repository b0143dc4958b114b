// A CBOR (RFC 8949) reader that keeps what a value-only decoder throws away: every item's byte span,
// whether its head was minimal, definite or indefinite length, and a float's width. Envelopes,
// the hex view, the canonical check and signature inputs are all built on these items.
//
// Strictness is explicit: the reader accepts everything well-formed (non-minimal heads, indefinite
// lengths, tags), as the Rust reference does, and reports the encoding facts so callers decide.
// Every declared length is checked against the bytes left before anything is allocated, and the
// items of one top-level item are counted from their heads before any of them is built.
import { utf8Range } from '../bytes';

export type CborErrorCode = 'cbor/truncated' | 'cbor/invalid' | 'cbor/trailing-bytes' | 'cbor/too-deep' | 'cbor/too-large' | 'cbor/too-many-items';

/**
 * The most data items one top-level item (one record) may hold, itself included: a map entry
 * counts two (key and value), a tag two (itself and its content), a chunk of an indefinite-length
 * string one.
 *
 * Why 65,536: the largest AGDX envelope agdx-v1's caps allow holds about 8,400 items (22 fields,
 * usage, signature, and metadata of 32 entries whose keys plus values fit 8,192 bytes, each list
 * item costing at least one of them); a card of 64 capabilities about 1,700; a chunk body the SDK
 * caps at 64 KiB fewer than 65,536. So 2^16 leaves eight times the room any well-behaved record
 * needs, while the tree of an accepted item stays under ~7 MB (about 100 bytes an item) and a
 * refused one costs nothing: a 16 MB array of 16 million items used to build 1.6 GB of tree.
 */
export const MAX_ITEMS = 65_536;

export interface CborError {
  code: CborErrorCode;
  message: string;
  offset: number;
}

interface ItemBase {
  /** Offset of the item's first byte (its first tag, if tagged). */
  start: number;
  /** Offset just past the item. */
  end: number;
  /** The head is the shortest form for its argument, and the length (if any) is definite. */
  minimal: boolean;
}

export interface CborUint extends ItemBase {
  kind: 'uint';
  value: number | bigint;
}
export interface CborNint extends ItemBase {
  kind: 'nint';
  value: number | bigint;
}
export interface CborBytes extends ItemBase {
  kind: 'bytes';
  value: Uint8Array;
  indefinite: boolean;
  /** Offset of the content bytes (definite length only; -1 for chunked strings). */
  contentStart: number;
}
export interface CborText extends ItemBase {
  kind: 'text';
  value: string;
  indefinite: boolean;
  contentStart: number;
}
export interface CborArray extends ItemBase {
  kind: 'array';
  items: CborItem[];
  indefinite: boolean;
}
export interface CborEntry {
  key: CborItem;
  value: CborItem;
}
export interface CborMap extends ItemBase {
  kind: 'map';
  entries: CborEntry[];
  indefinite: boolean;
}
export interface CborTag extends ItemBase {
  kind: 'tag';
  tag: number | bigint;
  item: CborItem;
}
/** Simple values: 20 false, 21 true, 22 null, 23 undefined, others unassigned. */
export interface CborSimple extends ItemBase {
  kind: 'simple';
  value: number;
}
export interface CborFloat extends ItemBase {
  kind: 'float';
  value: number;
  width: 16 | 32 | 64;
}

export type CborItem = CborUint | CborNint | CborBytes | CborText | CborArray | CborMap | CborTag | CborSimple | CborFloat;

export interface CborReadOptions {
  /** Deepest nesting of arrays, maps and tags accepted (default 128). */
  maxDepth?: number;
  /**
   * A declared length (bytes, or entries of an array or map) beyond this, that the input cannot
   * hold, is a length bomb (`cbor/too-large`) rather than a truncation (default 256 MiB).
   */
  maxDeclaredLength?: number;
  /** Data items one top-level item may hold before it is refused (`cbor/too-many-items`); default MAX_ITEMS. */
  maxItems?: number;
}

export type CborResult<T> = { ok: true; value: T } | { ok: false; error: CborError };

const DEFAULTS = { maxDepth: 128, maxDeclaredLength: 256 * 1024 * 1024, maxItems: MAX_ITEMS };

class Failure {
  constructor(readonly error: CborError) {}
}

function fail(code: CborErrorCode, message: string, offset: number): never {
  throw new Failure({ code, message, offset });
}

// What the innermost open container of the head walk (Reader.overCapAt) still expects: a count of
// items (>= 0), or until a break for an indefinite array or map, or for the chunks of a string.
const UNTIL_BREAK = -1;
const BYTE_CHUNKS = -2;
const TEXT_CHUNKS = -3;

const MAJOR_NAMES = ['unsigned integer', 'negative integer', 'byte string', 'text string', 'array', 'map', 'tag', 'simple/float'];
// ignoreBOM: a leading U+FEFF is text content, not a byte order mark to strip.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

class Reader {
  pos: number;
  private view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    start: number,
    readonly maxDepth: number,
    readonly maxDeclaredLength: number,
    readonly maxItems: number,
  ) {
    this.pos = start;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Reads a head's argument for additional info `ai`; returns -1 for indefinite (ai 31). */
  private argument(ai: number, headStart: number): { arg: number | bigint; minimal: boolean } {
    const b = this.bytes;
    if (ai < 24) return { arg: ai, minimal: true };
    const need = ai === 24 ? 1 : ai === 25 ? 2 : ai === 26 ? 4 : ai === 27 ? 8 : 0;
    if (need === 0) {
      if (ai === 31) return { arg: -1, minimal: true };
      fail('cbor/invalid', `reserved additional information ${ai} in the head`, headStart);
    }
    if (this.pos + need > b.length) fail('cbor/truncated', `head needs ${need} more bytes, ${b.length - this.pos} left`, headStart);
    const p = this.pos;
    this.pos += need;
    if (need === 1) {
      const v = b[p];
      return { arg: v, minimal: v >= 24 };
    }
    if (need === 2) {
      const v = this.view.getUint16(p);
      return { arg: v, minimal: v > 0xff };
    }
    if (need === 4) {
      const v = this.view.getUint32(p);
      return { arg: v, minimal: v > 0xffff };
    }
    const hi = this.view.getUint32(p);
    const lo = this.view.getUint32(p + 4);
    const minimal = hi !== 0;
    if (hi < 0x200000) return { arg: hi * 0x100000000 + lo, minimal };
    return { arg: (BigInt(hi) << 32n) | BigInt(lo), minimal };
  }

  private checkLength(len: number | bigint, unit: number, what: string, headStart: number, container = false): number {
    const left = this.bytes.length - this.pos;
    // Every byte of content (or each entry, at least `unit` bytes) must still be there.
    if (typeof len === 'bigint' || len * unit > left) {
      const big = typeof len === 'bigint' || len > this.maxDeclaredLength;
      // A short array or map is left to fail at its first missing item, so that a misplaced
      // break inside it (81 ff, a1 ff) is reported as invalid rather than truncated.
      if (big || !container)
        fail(big ? 'cbor/too-large' : 'cbor/truncated', `${what} declares ${len} ${container ? 'entries' : 'bytes'}, only ${left} bytes left`, headStart);
    }
    return len as number;
  }

  /** One top-level item: its items are counted from the heads first, and built only within the cap. */
  top(): CborItem {
    // An item holds at most one item per byte, so one that fits in maxItems bytes needs no count.
    if (this.bytes.length - this.pos > this.maxItems) {
      const at = this.overCapAt();
      if (at >= 0)
        fail(
          'cbor/too-many-items',
          `the item starting at byte ${this.pos} holds more than ${this.maxItems} items (counted from the heads; nothing was built)`,
          at,
        );
    }
    return this.item(0);
  }

  /**
   * Walks the heads of the item at `pos` without building anything (no allocation per item) and
   * counts its data items. A definite array or map adds its declared count at its head, so a bomb
   * is refused at once; an indefinite one counts each item as its head is met. Returns the offset
   * of the head that takes the count past maxItems, or -1: within the cap, or malformed in a way
   * the heads show (truncated, reserved, a misplaced break, too deep, a length bomb), which `item`
   * then reports as it always has. Contents are skipped, not checked (a text's UTF-8 is `item`'s).
   */
  private overCapAt(): number {
    const b = this.bytes;
    const cap = this.maxItems;
    const open: number[] = [];
    let expect = 1;
    let count = 1;
    let pos = this.pos;
    if (count > cap) return pos;
    for (;;) {
      if (expect === 0) {
        if (open.length === 0) return -1;
        expect = open.pop()!;
        continue;
      }
      if (pos >= b.length) return -1;
      const headAt = pos;
      const ib = b[pos++];
      if (expect < 0) {
        if (ib === 0xff) {
          expect = open.pop()!;
          continue;
        }
        if (++count > cap) return headAt;
        // A chunk must be a definite string of the same major type.
        if (expect !== UNTIL_BREAK && (ib >> 5 !== (expect === BYTE_CHUNKS ? 2 : 3) || (ib & 31) === 31)) return -1;
      } else expect--;
      const major = ib >> 5;
      const ai = ib & 31;
      let arg: number;
      if (ai < 24) arg = ai;
      else if (ai < 28) {
        const need = 1 << (ai - 24);
        if (pos + need > b.length) return -1;
        arg = 0;
        for (let i = 0; i < need; i++) arg = arg * 256 + b[pos + i];
        pos += need;
      } else if (ai === 31) arg = -1;
      else return -1;
      if (major === 7) {
        if (ai === 31) return -1;
        continue;
      }
      if (arg === -1 && (major < 2 || major === 6)) return -1;
      if (major < 2) continue;
      if (major < 4) {
        if (arg === -1) {
          open.push(expect);
          expect = major === 2 ? BYTE_CHUNKS : TEXT_CHUNKS;
        } else {
          if (arg > b.length - pos) return -1;
          pos += arg;
        }
        continue;
      }
      if (open.length >= this.maxDepth) return -1;
      open.push(expect);
      if (major === 6) {
        // The tag's content is an item of its own (as a tag chain is bounded by maxDepth anyway).
        if (++count > cap) return headAt;
        expect = 1;
      } else if (arg === -1) {
        expect = UNTIL_BREAK;
      } else {
        const items = major === 5 ? arg * 2 : arg;
        if (items > b.length - pos && arg > this.maxDeclaredLength) return -1;
        count += items;
        if (count > cap) return headAt;
        expect = items;
      }
    }
  }

  item(depth: number): CborItem {
    const b = this.bytes;
    const start = this.pos;
    if (start >= b.length) fail('cbor/truncated', 'expected a data item, found the end of the input', start);
    const ib = b[this.pos++];
    const major = ib >> 5;
    const ai = ib & 31;
    if (major === 7) return this.simpleOrFloat(ai, start);
    const { arg, minimal } = this.argument(ai, start);
    const indefinite = arg === -1;
    if (indefinite && (major === 0 || major === 1 || major === 6)) {
      fail('cbor/invalid', `indefinite length is not allowed for a ${MAJOR_NAMES[major]}`, start);
    }
    switch (major) {
      case 0:
        return { kind: 'uint', value: arg, start, end: this.pos, minimal };
      case 1:
        return { kind: 'nint', value: typeof arg === 'number' && arg < Number.MAX_SAFE_INTEGER ? -1 - arg : -1n - BigInt(arg), start, end: this.pos, minimal };
      case 2:
      case 3:
        return indefinite ? this.chunkedString(major, start) : this.definiteString(major, arg, start, minimal);
      case 4:
        return this.array(arg, start, minimal, depth);
      case 5:
        return this.map(arg, start, minimal, depth);
      default: {
        if (depth >= this.maxDepth) fail('cbor/too-deep', `nesting deeper than ${this.maxDepth}`, start);
        const inner = this.item(depth + 1);
        return { kind: 'tag', tag: arg, item: inner, start, end: this.pos, minimal };
      }
    }
  }

  private definiteString(major: number, arg: number | bigint, start: number, minimal: boolean): CborBytes | CborText {
    const len = this.checkLength(arg, 1, MAJOR_NAMES[major], start);
    const contentStart = this.pos;
    this.pos += len;
    if (major === 2)
      return { kind: 'bytes', value: this.bytes.subarray(contentStart, this.pos), indefinite: false, contentStart, start, end: this.pos, minimal };
    // Decoded where it is (short text, keys above all, shared with the last read of the same bytes).
    const text = utf8Range(this.bytes, contentStart, this.pos);
    if (text === null) fail('cbor/invalid', 'text string is not valid UTF-8', contentStart);
    return { kind: 'text', value: text, indefinite: false, contentStart, start, end: this.pos, minimal };
  }

  private chunkedString(major: number, start: number): CborBytes | CborText {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      if (this.pos >= this.bytes.length) fail('cbor/truncated', `indefinite ${MAJOR_NAMES[major]} has no break`, start);
      const ib = this.bytes[this.pos];
      if (ib === 0xff) {
        this.pos++;
        break;
      }
      const chunkStart = this.pos;
      this.pos++;
      if (ib >> 5 !== major) fail('cbor/invalid', `a chunk of an indefinite ${MAJOR_NAMES[major]} must be a ${MAJOR_NAMES[major]}`, chunkStart);
      const { arg } = this.argument(ib & 31, chunkStart);
      if (arg === -1) fail('cbor/invalid', 'indefinite strings cannot nest', chunkStart);
      const len = this.checkLength(arg, 1, MAJOR_NAMES[major], chunkStart);
      const chunk = this.bytes.subarray(this.pos, this.pos + len);
      // RFC 8949 3.2.3: each text chunk is valid UTF-8 on its own.
      if (major === 3) decodeText(chunk, this.pos);
      chunks.push(chunk);
      total += len;
      this.pos += len;
    }
    const joined = new Uint8Array(total);
    let o = 0;
    for (const c of chunks) {
      joined.set(c, o);
      o += c.length;
    }
    if (major === 2) return { kind: 'bytes', value: joined, indefinite: true, contentStart: -1, start, end: this.pos, minimal: false };
    return { kind: 'text', value: decodeText(joined, start), indefinite: true, contentStart: -1, start, end: this.pos, minimal: false };
  }

  private array(arg: number | bigint, start: number, minimal: boolean, depth: number): CborArray {
    if (depth >= this.maxDepth) fail('cbor/too-deep', `nesting deeper than ${this.maxDepth}`, start);
    const items: CborItem[] = [];
    if (arg === -1) {
      while (!this.atBreak(start, 'array')) items.push(this.item(depth + 1));
      return { kind: 'array', items, indefinite: true, start, end: this.pos, minimal: false };
    }
    const count = this.checkLength(arg, 1, 'array', start, true);
    for (let i = 0; i < count; i++) items.push(this.item(depth + 1));
    return { kind: 'array', items, indefinite: false, start, end: this.pos, minimal };
  }

  private map(arg: number | bigint, start: number, minimal: boolean, depth: number): CborMap {
    if (depth >= this.maxDepth) fail('cbor/too-deep', `nesting deeper than ${this.maxDepth}`, start);
    const entries: CborEntry[] = [];
    if (arg === -1) {
      while (!this.atBreak(start, 'map')) {
        const key = this.item(depth + 1);
        if (this.bytes[this.pos] === 0xff) fail('cbor/invalid', 'map ends after a key without its value', this.pos);
        entries.push({ key, value: this.item(depth + 1) });
      }
      return { kind: 'map', entries, indefinite: true, start, end: this.pos, minimal: false };
    }
    const count = this.checkLength(arg, 2, 'map', start, true);
    for (let i = 0; i < count; i++) {
      const key = this.item(depth + 1);
      entries.push({ key, value: this.item(depth + 1) });
    }
    return { kind: 'map', entries, indefinite: false, start, end: this.pos, minimal };
  }

  private atBreak(start: number, what: string): boolean {
    if (this.pos >= this.bytes.length) fail('cbor/truncated', `indefinite ${what} has no break`, start);
    if (this.bytes[this.pos] === 0xff) {
      this.pos++;
      return true;
    }
    return false;
  }

  private simpleOrFloat(ai: number, start: number): CborSimple | CborFloat {
    const b = this.bytes;
    if (ai < 24) return { kind: 'simple', value: ai, start, end: this.pos, minimal: true };
    if (ai === 24) {
      if (this.pos >= b.length) fail('cbor/truncated', 'simple value needs 1 more byte', start);
      const v = b[this.pos++];
      if (v < 32) fail('cbor/invalid', `simple value ${v} must use the one-byte form`, start);
      return { kind: 'simple', value: v, start, end: this.pos, minimal: true };
    }
    if (ai === 31) fail('cbor/invalid', 'break (0xff) outside an indefinite-length item', start);
    if (ai > 27) fail('cbor/invalid', `reserved additional information ${ai} in the head`, start);
    const width = ai === 25 ? 16 : ai === 26 ? 32 : 64;
    const need = width / 8;
    if (this.pos + need > b.length) fail('cbor/truncated', `float${width} needs ${need} bytes, ${b.length - this.pos} left`, start);
    const p = this.pos;
    this.pos += need;
    const value = width === 16 ? halfToNumber(this.view.getUint16(p)) : width === 32 ? this.view.getFloat32(p) : this.view.getFloat64(p);
    return { kind: 'float', value, width, start, end: this.pos, minimal: true };
  }
}

function decodeText(content: Uint8Array, offset: number): string {
  // Fast path for short ASCII, the common case for keys and ids.
  if (content.length < 32) {
    let ascii = true;
    for (let i = 0; i < content.length; i++) {
      if (content[i] > 0x7f) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, content as unknown as number[]);
  }
  try {
    return utf8.decode(content);
  } catch {
    return fail('cbor/invalid', 'text string is not valid UTF-8', offset);
  }
}

export function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

function run<T>(fn: () => T): CborResult<T> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, error: e.error };
    // A RangeError from the engine (e.g. out of memory) still becomes a verdict, never a crash.
    return { ok: false, error: { code: 'cbor/invalid', message: `unexpected failure: ${String(e)}`, offset: 0 } };
  }
}

function reader(bytes: Uint8Array, offset: number, options?: CborReadOptions): Reader {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('CBOR input must be a Uint8Array');
  return new Reader(
    bytes,
    offset,
    options?.maxDepth ?? DEFAULTS.maxDepth,
    options?.maxDeclaredLength ?? DEFAULTS.maxDeclaredLength,
    options?.maxItems ?? DEFAULTS.maxItems,
  );
}

/** Reads one item starting at `offset`; bytes after it are left for the caller. */
export function readItemAt(bytes: Uint8Array, offset: number, options?: CborReadOptions): CborResult<CborItem> {
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`CBOR offset must be a non-negative integer, got ${offset}`);
  const r = reader(bytes, offset, options);
  return run(() => r.top());
}

/** Reads exactly one item: bytes after it are `cbor/trailing-bytes`. */
export function readSingle(bytes: Uint8Array, options?: CborReadOptions): CborResult<CborItem> {
  const r = reader(bytes, 0, options);
  return run(() => {
    const item = r.top();
    if (r.pos !== bytes.length) fail('cbor/trailing-bytes', `${bytes.length - r.pos} bytes after the item`, r.pos);
    return item;
  });
}

/**
 * Reads an RFC 8742 CBOR sequence: items back to back until the end. A malformed item ends the
 * sequence (there is no way to resynchronise), but the items before it are kept.
 */
export function readSequence(bytes: Uint8Array, options?: CborReadOptions): { items: CborItem[]; error: CborError | null } {
  const r = reader(bytes, 0, options);
  const items: CborItem[] = [];
  while (r.pos < bytes.length) {
    const res = run(() => r.top());
    if (!res.ok) return { items, error: res.error };
    items.push(res.value);
  }
  return { items, error: null };
}

/** The item under any tags (the Rust reference skips tags). */
export function untag(item: CborItem): CborItem {
  while (item.kind === 'tag') item = item.item;
  return item;
}

export function isNull(item: CborItem): boolean {
  const inner = untag(item);
  return inner.kind === 'simple' && (inner.value === 22 || inner.value === 23);
}
