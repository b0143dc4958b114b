// report@1 as UTF-8 text written as it goes, the same bytes JSON.stringify(report, null, 2) encodes
// to: the command line writes a large report (a 16 MB log of one-byte records makes 16 GB of it)
// with its records coming one at a time, never the whole document (nor the records) in memory.
//
// The text goes through one block of bytes handed on when full. The elements of a list (the
// records, the graph's edges) mostly repeat the one before but for a few values (an index, a
// span): each element's text is kept with where its values are, and the next one that has the same
// members is its text with only the values that differ written anew.

/** An array whose elements come one at a time (a generator): written as a JSON array as they come. */
export class StreamedArray<T> {
  constructor(readonly items: Iterable<T>) {}
}

export interface JsonWriterOptions {
  /**
   * Rewrites a string's JSON text (with its quotes) before it is written, keeping its JSON value
   * (the command line escapes what a terminal acts on). Only strings hold characters past ASCII;
   * a string of printable ASCII without `"` or `\` is written as it is, without asking.
   */
  escape?: (json: string) => string;
  /** Bytes gathered before they are handed on (default 1 MiB). */
  blockSize?: number;
}

/** A growable run of bytes. */
class Bytes {
  buf: Uint8Array;
  length = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(size);
  }
  reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** ASCII text, a character a byte. */
  ascii(s: string): void {
    this.reserve(s.length);
    const buf = this.buf;
    let at = this.length;
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
    this.length = at;
  }
  /** A non-negative safe integer's decimal digits. */
  digits(n: number): void {
    this.reserve(16);
    const buf = this.buf;
    if (n < 10) {
      buf[this.length++] = 48 + n;
      return;
    }
    let width = 0;
    for (let m = n; m >= 1; m = Math.floor(m / 10)) width++;
    let at = this.length + width;
    this.length = at;
    for (let m = n; m >= 1; m = Math.floor(m / 10)) buf[--at] = 48 + (m % 10);
  }
}

// Markers of a value's structure, beside its member names (walk).
const OPEN_OBJECT = Symbol('{');
const OPEN_ARRAY = Symbol('[');
const CLOSE = Symbol('}');
const VALUE = Symbol('value');

const utf8 = new TextEncoder();
/** Strings whose text is kept; past it the kept ones are let go (a log's ids repeat rarely). */
const STRING_CACHE = 1 << 14;
const LONG_STRING = 256;

/** A list reused from element to element: `length` counts what is in use. */
class Scratch<T> {
  items: T[] = [];
  length = 0;
  push(v: T): void {
    this.items[this.length++] = v;
  }
  pushPair(a: T, b: T): void {
    this.items[this.length++] = a;
    this.items[this.length++] = b;
  }
}

/**
 * An element's text as last written: its bytes, its structure (member names and markers) and its
 * values with where each one's text is.
 */
class ElementText {
  readonly text = new Bytes(1024);
  readonly shape = new Scratch<unknown>();
  readonly values = new Scratch<unknown>();
  /** Start and end of each value's text in `text`. */
  readonly spans = new Scratch<number>();

  clear(): void {
    this.text.length = 0;
    this.shape.length = 0;
    this.values.length = 0;
    this.spans.length = 0;
  }

  sameShape(other: ElementText): boolean {
    const a = this.shape;
    const b = other.shape;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a.items[i] !== b.items[i]) return false;
    return true;
  }
}

/**
 * Writes values as JSON.stringify(value, null, 2) does (StreamedArray as an array), in UTF-8, into
 * blocks handed to `out`. A block is reused once `out` returns: `out` writes or copies it. Throws
 * where JSON.stringify throws (a bigint; a cycle overflows the stack).
 */
export class JsonWriter {
  private readonly block: Bytes;
  private readonly blockSize: number;
  private readonly escape: ((json: string) => string) | null;
  private readonly strings = new Map<string, Uint8Array>();
  private readonly newlines: Uint8Array[] = [];
  /** The element whose text is being written whole (its values then record where they are). */
  private element: ElementText | null = null;

  constructor(
    private readonly out: (block: Uint8Array) => void,
    options: JsonWriterOptions = {},
  ) {
    this.blockSize = options.blockSize ?? 1 << 20;
    if (!(this.blockSize >= 1)) throw new TypeError('JsonWriter: blockSize must be at least 1');
    this.block = new Bytes(this.blockSize + 4096);
    this.escape = options.escape ?? null;
  }

  /** Writes `value` as a whole document (throws for a value JSON.stringify gives no text for). */
  write(value: unknown): void {
    const v = jsonValue(value, '');
    if (v === undefined) throw new TypeError('JsonWriter: the value has no JSON text');
    this.value(this.block, v, 0);
    this.flushIfFull();
  }

  /** Writes ASCII text as it is (a line break after the document). */
  text(s: string): void {
    this.block.ascii(s);
    this.flushIfFull();
  }

  /** Hands on what is left. */
  end(): void {
    if (this.block.length > 0) this.out(this.block.buf.subarray(0, this.block.length));
    this.block.length = 0;
  }

  private flushIfFull(): void {
    if (this.block.length < this.blockSize) return;
    this.out(this.block.buf.subarray(0, this.block.length));
    this.block.length = 0;
  }

  /** A line break and the indentation of `depth` levels. */
  private newline(depth: number): Uint8Array {
    let n = this.newlines[depth];
    if (!n) {
      n = utf8.encode(`\n${'  '.repeat(depth)}`);
      this.newlines[depth] = n;
    }
    return n;
  }

  private string(to: Bytes, s: string): void {
    // Printable ASCII but `"` and `\` is its own JSON text in quotes, which `escape` is not asked
    // about (see JsonWriterOptions): ids and names mostly are, and most are written once.
    if (s.length <= LONG_STRING && plainAscii(s)) {
      to.reserve(s.length + 2);
      to.buf[to.length++] = 0x22;
      to.ascii(s);
      to.buf[to.length++] = 0x22;
      return;
    }
    let b = this.strings.get(s);
    if (b === undefined) {
      const json = JSON.stringify(s);
      b = utf8.encode(this.escape ? this.escape(json) : json);
      if (s.length <= LONG_STRING) {
        if (this.strings.size >= STRING_CACHE) this.strings.clear();
        this.strings.set(s, b);
      }
    }
    to.bytes(b);
  }

  /** A value (already through jsonValue) at `depth` levels of indentation. */
  private value(to: Bytes, v: unknown, depth: number): void {
    if (v === null || typeof v !== 'object') {
      this.leaf(to, v);
      return;
    }
    if (v instanceof StreamedArray || Array.isArray(v)) {
      this.array(to, v instanceof StreamedArray ? v.items : v, depth);
      return;
    }
    let first = true;
    for (const key of Object.keys(v)) {
      const member = jsonValue((v as Record<string, unknown>)[key], key);
      // JSON.stringify leaves out members it cannot write.
      if (member === undefined) continue;
      to.ascii(first ? '{' : ',');
      first = false;
      to.bytes(this.newline(depth + 1));
      this.string(to, key);
      to.ascii(': ');
      this.value(to, member, depth + 1);
    }
    if (first) to.ascii('{}');
    else {
      to.bytes(this.newline(depth));
      to.ascii('}');
    }
  }

  /** A string, number, boolean or null; where its text is, when written into an element's. */
  private leaf(to: Bytes, v: unknown): void {
    const start = to.length;
    if (typeof v === 'string') this.string(to, v);
    else if (typeof v === 'number') {
      if (Number.isSafeInteger(v) && v >= 0) to.digits(v);
      else to.ascii(Number.isFinite(v) ? JSON.stringify(v) : 'null');
    } else if (v === true) to.ascii('true');
    else if (v === false) to.ascii('false');
    else if (v === null) to.ascii('null');
    else if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    else throw new TypeError(`JsonWriter: cannot write a ${typeof v}`);
    const element = this.element;
    if (element !== null && to === element.text) element.spans.pushPair(start, to.length);
  }

  private array(to: Bytes, items: Iterable<unknown>, depth: number): void {
    // Inside an element its arrays are part of its text; elsewhere each element is compared with
    // the last ones written of its structure (a log's records take a few: signed or not, with
    // findings or none), kept most recent first.
    const recent: ElementText[] = [];
    let next = this.element === null ? new ElementText() : null;
    let first = true;
    let i = 0;
    for (const item of items) {
      const element = jsonValue(item, i++) ?? null;
      to.ascii(first ? '[' : ',');
      to.bytes(this.newline(depth + 1));
      if (next === null) this.value(to, element, depth + 1);
      else {
        next.clear();
        if (walk(element, next.shape, next.values)) {
          let at = 0;
          while (at < recent.length && !recent[at].sameShape(next)) at++;
          const last = at < recent.length ? recent[at] : null;
          this.elementText(element, depth + 1, last, next);
          to.bytes(next.text.buf.subarray(0, next.text.length));
          // `next` takes its structure's place at the front; what it replaces is the next one to fill.
          if (last !== null) recent.splice(at, 1);
          recent.unshift(next);
          next = last ?? (recent.length > RECENT_SHAPES ? recent.pop()! : new ElementText());
        } else {
          // Too large to compare (a workflow of 100,000 envelopes): written as it is, its own lists compared within it.
          next.clear();
          this.value(to, element, depth + 1);
        }
        if (to === this.block) this.flushIfFull();
      }
      first = false;
    }
    if (first) to.ascii('[]');
    else {
      to.bytes(this.newline(depth));
      to.ascii(']');
    }
  }

  /**
   * An element's text, into `next` (walked already): the last element's text with the values that
   * differ written anew when both have the same structure, else written whole.
   */
  private elementText(v: unknown, depth: number, last: ElementText | null, next: ElementText): void {
    if (last === null || !last.sameShape(next)) {
      this.element = next;
      try {
        this.value(next.text, v, depth);
      } finally {
        this.element = null;
      }
      return;
    }
    const text = next.text;
    const from = last.text.buf;
    const spans = last.spans.items;
    const lastValues = last.values.items;
    const values = next.values.items;
    // Bytes of `last` up to `copied` are in `text`; the rest from there is copied in one go at the
    // next value that differs (or the end), so a value kept lands `text.length - copied` further.
    let copied = 0;
    for (let k = 0; k < next.values.length; k++) {
      const start = spans[2 * k];
      const end = spans[2 * k + 1];
      const value = values[k];
      if (value === lastValues[k]) {
        next.spans.pushPair(text.length + start - copied, text.length + end - copied);
        continue;
      }
      text.bytes(from.subarray(copied, start));
      const at = text.length;
      this.leaf(text, value);
      next.spans.pushPair(at, text.length);
      copied = end;
    }
    text.bytes(from.subarray(copied, last.text.length));
  }
}

/** Whether every character of `s` is printable ASCII other than `"` and `\`. */
function plainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** How many structures of an array's elements are kept to compare the next element with. */
const RECENT_SHAPES = 8;

/** The most markers, names and values an element compared with the one before has. */
const ELEMENT_SHAPE = 4096;

/**
 * A value's structure (member names, markers) and its values, in the order they are written;
 * false when it has more than ELEMENT_SHAPE of them (then they are left incomplete).
 */
function walk(v: unknown, shape: Scratch<unknown>, values: Scratch<unknown>): boolean {
  if (shape.length > ELEMENT_SHAPE) return false;
  if (v === null || typeof v !== 'object') {
    shape.push(VALUE);
    values.push(v);
    return true;
  }
  if (v instanceof StreamedArray) {
    // Read once, when written: never the same structure as another's.
    shape.push(Symbol('streamed'));
    return true;
  }
  if (Array.isArray(v)) {
    shape.push(OPEN_ARRAY);
    for (let i = 0; i < v.length; i++) if (!walk(jsonValue(v[i], i) ?? null, shape, values)) return false;
    shape.push(CLOSE);
    return true;
  }
  shape.push(OPEN_OBJECT);
  for (const key of Object.keys(v)) {
    const member = jsonValue((v as Record<string, unknown>)[key], key);
    if (member === undefined) continue;
    shape.push(key);
    if (!walk(member, shape, values)) return false;
  }
  shape.push(CLOSE);
  return true;
}

/**
 * What JSON.stringify writes for a value under `key` (a member's name, an element's index): its
 * toJSON's result, a boxed primitive unboxed; undefined for what it leaves out (undefined, a
 * function, a symbol).
 */
function jsonValue(v: unknown, key: string | number): unknown {
  if (v === null) return v;
  const type = typeof v;
  if (type === 'string' || type === 'number' || type === 'boolean') return v;
  if (type === 'undefined' || type === 'function' || type === 'symbol') return undefined;
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') v = toJSON.call(v, String(key));
  if (typeof v === 'object' && v !== null) {
    if (v instanceof Number) return Number(v);
    if (v instanceof String) return String(v);
    if (v instanceof Boolean || v instanceof BigInt) return v.valueOf();
  }
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  return v;
}

/** A value's JSON text, as JSON.stringify(value, null, 2) gives it, written by a JsonWriter (a StreamedArray as it comes). */
export function jsonText(value: unknown): string {
  const utf8 = new TextDecoder();
  const pieces: string[] = [];
  const out = new JsonWriter((block) => pieces.push(utf8.decode(block, { stream: true })));
  out.write(value);
  out.end();
  pieces.push(utf8.decode());
  return pieces.join('');
}
