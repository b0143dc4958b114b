// report@1 as UTF-8 text written as it goes, the same bytes JSON.stringify(report, null, 2) encodes
// to: the command line writes a large report (a 16 MB log of one-byte records makes 16 GB of it)
// with its records coming one at a time, never the whole document (nor the records) in memory.
//
// The text goes through one block of bytes handed on when full. The objects of a list (records,
// the graph's edges) mostly have the members of the one before: the text before each member's
// value (line break, indentation, name) is made once for those members at that depth and copied.

import { ByteRun } from './bytes/byte-run';
import { sameItems } from './same-items';

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

const utf8 = new TextEncoder();
/** Strings whose text is kept; past it the kept ones are let go (a log's ids repeat rarely). */
const STRING_CACHE = 1 << 14;
/** Distinct frozen objects whose text is kept (JsonWriter.frozen), at most. */
const FROZEN_CACHE = 1 << 12;
/** JsonWriter.frozen's mark for a frozen object whose text cannot be kept (deeplyFrozen said no). */
const NOT_KEPT: Uint8Array[] = [];
const LONG_STRING = 256;
/** How many member lists are kept at each depth (a log's records have a few: signed or not, with a parent or none). */
const RECENT_SHAPES = 8;

/** An object's member names, and the text before each one's value (line break, indentation, name, `: `) at one depth. */
interface Shape {
  readonly keys: readonly string[];
  readonly prefixes: readonly Uint8Array[];
}

/**
 * Writes values as JSON.stringify(value, null, 2) does (StreamedArray as an array), in UTF-8, into
 * blocks handed to `out`. A block is reused once `out` returns: `out` writes or copies it. Throws
 * where JSON.stringify throws (a bigint; a cycle overflows the stack).
 */
export class JsonWriter {
  private readonly block: ByteRun;
  private readonly blockSize: number;
  private readonly escape: ((json: string) => string) | null;
  private readonly strings = new Map<string, Uint8Array>();
  /**
   * The text of objects frozen all the way down, by object and depth (deeplyFrozen): a log's shared
   * signature verdicts are a few objects written once a record each. Only such an object's text
   * can be kept: nothing can change it after it is written.
   */
  private readonly frozen = new Map<object, Uint8Array[]>();
  /** Blocks handed on so far: a text spanning one is not kept. */
  private flushes = 0;
  private readonly newlines: Uint8Array[] = [];
  /** Member lists seen at each depth, most recent first. */
  private readonly shapes: Shape[][] = [];

  constructor(
    private readonly out: (block: Uint8Array) => void,
    options: JsonWriterOptions = {},
  ) {
    this.blockSize = options.blockSize ?? 1 << 20;
    if (!(this.blockSize >= 1)) throw new TypeError('JsonWriter: blockSize must be at least 1');
    this.block = new ByteRun(this.blockSize + 4096);
    this.escape = options.escape ?? null;
  }

  /** Writes `value` as a whole document (throws for a value JSON.stringify gives no text for). */
  write(value: unknown): void {
    const v = jsonValue(value, '');
    if (v === undefined) throw new TypeError('JsonWriter: the value has no JSON text');
    this.value(v, 0);
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
    this.flushes++;
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

  private string(to: ByteRun, s: string): void {
    // Printable ASCII but `"` and `\` is its own JSON text in quotes, which `escape` is not asked
    // about (see JsonWriterOptions): ids and names mostly are, and most are written once.
    if (s.length <= LONG_STRING) {
      // Copied as it is checked (one pass); the first character that is not plain leaves what was
      // copied to be written over.
      to.reserve(s.length + 2);
      const buf = to.buf;
      let at = to.length;
      buf[at++] = 0x22;
      let i = 0;
      for (; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) break;
        buf[at++] = c;
      }
      if (i === s.length) {
        buf[at++] = 0x22;
        to.length = at;
        return;
      }
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

  /** The text before each member's value, for members `keys` of an object at `depth`: made once for a list of names. */
  private shapeOf(keys: readonly string[], depth: number): Shape {
    const recent = (this.shapes[depth] ??= []);
    for (let at = 0; at < recent.length; at++) {
      const shape = recent[at];
      if (sameItems(shape.keys, keys)) {
        if (at > 0) {
          recent.splice(at, 1);
          recent.unshift(shape);
        }
        return shape;
      }
    }
    const text = new ByteRun(64);
    const prefixes = keys.map((key) => {
      text.length = 0;
      text.bytes(this.newline(depth + 1));
      this.string(text, key);
      text.ascii(': ');
      return text.buf.slice(0, text.length);
    });
    const shape = { keys, prefixes };
    recent.unshift(shape);
    if (recent.length > RECENT_SHAPES) recent.pop();
    return shape;
  }

  /** A value (already through jsonValue) at `depth` levels of indentation. */
  private value(v: unknown, depth: number): void {
    const to = this.block;
    if (v === null || typeof v !== 'object') {
      this.leaf(to, v);
      return;
    }
    if (Object.isFrozen(v) && this.writeFrozen(v, depth)) return;
    this.container(v, depth);
  }

  /** A frozen object's text kept from its first writing at this depth, or made and kept now; false when it is not frozen all the way down. */
  private writeFrozen(v: object, depth: number): boolean {
    const texts = this.frozen.get(v);
    if (texts === NOT_KEPT) return false;
    const text = texts?.[depth];
    if (text !== undefined) {
      this.block.bytes(text);
      return true;
    }
    if (texts === undefined && this.frozen.size >= FROZEN_CACHE) this.frozen.clear();
    if (!deeplyFrozen(v)) {
      // Asked once: a frozen object with something that can change inside is written as any other.
      this.frozen.set(v, NOT_KEPT);
      return false;
    }
    const start = this.block.length;
    const flushes = this.flushes;
    this.container(v, depth);
    if (this.flushes !== flushes) return true;
    const kept = texts ?? [];
    kept[depth] = this.block.buf.slice(start, this.block.length);
    this.frozen.set(v, kept);
    return true;
  }

  /** An array or an object (not a leaf) at `depth`. */
  private container(v: object, depth: number): void {
    const to = this.block;
    if (v instanceof StreamedArray || Array.isArray(v)) {
      this.array(v instanceof StreamedArray ? v.items : v, depth);
      return;
    }
    // Members by for-in, which makes no array of names or values (a million records made several
    // each) and lists a plain object's own names in Object.keys' order; any other object's own
    // members are copied into a plain one first (for-in would list what its prototypes add). The
    // text before each value is the last shape's at this depth while its names match.
    const proto = Object.getPrototypeOf(v);
    const o: Record<string, unknown> = proto === Object.prototype || proto === null ? (v as Record<string, unknown>) : Object.fromEntries(Object.entries(v));
    let shape: Shape | undefined = this.shapes[depth]?.[0];
    let first = true;
    let i = 0;
    for (const key in o) {
      if (shape === undefined || shape.keys[i] !== key) shape = this.shapeOf(Object.keys(o), depth);
      const member = jsonValue(o[key], key);
      i++;
      // JSON.stringify leaves out members it cannot write.
      if (member === undefined) continue;
      to.ascii(first ? '{' : ',');
      first = false;
      to.bytes(shape.prefixes[i - 1]);
      this.value(member, depth + 1);
    }
    if (first) to.ascii('{}');
    else {
      to.bytes(this.newline(depth));
      to.ascii('}');
    }
  }

  /** A string, number, boolean or null. */
  private leaf(to: ByteRun, v: unknown): void {
    if (typeof v === 'string') this.string(to, v);
    else if (typeof v === 'number') {
      if (Number.isSafeInteger(v) && v >= 0) to.digits(v);
      else to.ascii(Number.isFinite(v) ? JSON.stringify(v) : 'null');
    } else if (v === true) to.ascii('true');
    else if (v === false) to.ascii('false');
    else if (v === null) to.ascii('null');
    else if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    else throw new TypeError(`JsonWriter: cannot write a ${typeof v}`);
  }

  private array(items: Iterable<unknown>, depth: number): void {
    const to = this.block;
    let first = true;
    let i = 0;
    for (const item of items) {
      to.ascii(first ? '[' : ',');
      first = false;
      to.bytes(this.newline(depth + 1));
      this.value(jsonValue(item, i++) ?? null, depth + 1);
      // Handed on between elements: a streamed list's elements are never all in the block.
      this.flushIfFull();
    }
    if (first) to.ascii('[]');
    else {
      to.bytes(this.newline(depth));
      to.ascii(']');
    }
  }
}

/**
 * Whether `v` is a plain object or array frozen all the way down: every member a data property
 * (no getter, whose value could change) holding a string, number, boolean, null, or such an object,
 * and none a toJSON. Its text can then never change.
 */
function deeplyFrozen(v: object): boolean {
  if (!Object.isFrozen(v)) return false;
  if (!Array.isArray(v)) {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    if ('toJSON' in v) return false;
  }
  for (const d of Object.values(Object.getOwnPropertyDescriptors(v))) {
    if (!('value' in d)) return false;
    const member: unknown = d.value;
    if (member === null) continue;
    const type = typeof member;
    if (type === 'object') {
      if (!deeplyFrozen(member as object)) return false;
    } else if (type !== 'string' && type !== 'number' && type !== 'boolean') return false;
  }
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
