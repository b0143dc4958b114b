// Lossless JSON reader for hostile records.
//
// JSON.parse throws away what an inspector needs: where each value sits in the bytes, the exact
// text of a number (`1.0`, `1e5`, integers beyond 2^53), duplicate keys, and lone surrogate
// escapes. This reader keeps all of it. It is a pure module (no DOM, no Node APIs), it reads
// UTF-8 bytes with the strict RFC 8259 grammar, it never recurses (so deep nesting cannot
// overflow the stack) and it never throws for any input: every failure is a JsonResult with the
// byte offset where it was detected.
//
// Offsets are BYTE offsets into the Uint8Array passed to readJson, half-open [start, end).
// A string's span (and an entry's keyStart/keyEnd) includes its quotes.

export type JsonValue =
  | { type: 'object'; start: number; end: number; entries: JsonEntry[] }
  | { type: 'array'; start: number; end: number; items: JsonValue[] }
  | { type: 'string'; start: number; end: number; value: string }
  | { type: 'number'; start: number; end: number; text: string; isInteger: boolean; value: number; big: bigint | null }
  | { type: 'bool'; start: number; end: number; value: boolean }
  | { type: 'null'; start: number; end: number };

export interface JsonEntry {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonValue;
}

export interface JsonError {
  code: 'json/invalid' | 'json/too-deep';
  message: string;
  offset: number;
}

export type JsonResult = { ok: true; value: JsonValue } | { ok: false; error: JsonError };

export interface JsonReadOptions {
  /** Deepest allowed nesting of objects and arrays (the top-level container is depth 1). Default 512. */
  maxDepth?: number;
  /**
   * Most digits an integer literal may have (default 4300, Python's int max str digits). Turning a
   * decimal string into a bigint takes more than linear time (a 4 MB integer took 0.7 s, 100 MB
   * would take minutes), so a longer one is json/invalid, as Python's json.loads refuses it too.
   */
  maxIntegerDigits?: number;
  /**
   * Reads the one value in bytes[start, end) (default: the whole array), whitespace around it
   * allowed; offsets in the result and in errors still index `bytes`. For reading a value again
   * from the span an earlier reading gave it (a record's views, built when it is opened).
   */
  start?: number;
  end?: number;
}

type ObjectValue = Extract<JsonValue, { type: 'object' }>;
type ArrayValue = Extract<JsonValue, { type: 'array' }>;
type NumberValue = Extract<JsonValue, { type: 'number' }>;
type Container = ObjectValue | ArrayValue;

const DEFAULT_MAX_DEPTH = 512;
/** Keys up to this long, this many distinct ones, are shared (Reader.shared). */
const MAX_SHARED_KEY = 32;
const MAX_SHARED_KEYS = 4096;
/** The small integers' bigints, made once (each BigInt() is 24 bytes more, per number in the document). */
const SMALL_BIGINTS: readonly bigint[] = Array.from({ length: 256 }, (_, i) => BigInt(i));
const DEFAULT_MAX_INTEGER_DIGITS = 4300;

// ignoreBOM: a string value may legitimately start with U+FEFF; the default decoder would drop it.
// Not fatal: every byte is validated by the scanner before it reaches the decoder.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });
/** What asciiImage puts in place of each byte past ASCII (never sliced out: strings holding one are decoded from the bytes). */
const NOT_ASCII = 0x3f;

/** Strings up to this many ASCII bytes are built with String.fromCharCode (cheaper than a decoder call). */
const SHORT_ASCII = 48;
/** Code units per String.fromCharCode.apply call (keeps well under engine argument limits). */
const CHUNK = 4096;

// Byte classes inside a string: 0 = plain printable ASCII, 1 = '"', 2 = '\', 3 = control, 4 = non-ASCII.
const STRING_CLASS = (() => {
  const t = new Uint8Array(256);
  for (let c = 0; c < 0x20; c++) t[c] = 3;
  t[0x22] = 1;
  t[0x5c] = 2;
  for (let c = 0x80; c < 0x100; c++) t[c] = 4;
  return t;
})();

const HEX_VALUE = (() => {
  const t = new Int8Array(256).fill(-1);
  for (let c = 0; c < 10; c++) t[0x30 + c] = c;
  for (let c = 0; c < 6; c++) {
    t[0x41 + c] = 10 + c;
    t[0x61 + c] = 10 + c;
  }
  return t;
})();

const TRUE_BYTES = [0x74, 0x72, 0x75, 0x65];
const FALSE_BYTES = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL_BYTES = [0x6e, 0x75, 0x6c, 0x6c];

// Where a value is expected, for error messages.
const CTX_TOP = 0;
const CTX_ARRAY_FIRST = 1;
const CTX_ARRAY_NEXT = 2;
const CTX_MEMBER = 3;

/** Internal signal carrying the error out of the scanner; never escapes readJson. */
class Failure {
  constructor(readonly error: JsonError) {}
}

/**
 * Length (2 to 4) of the well-formed UTF-8 sequence whose lead byte (>= 0x80) is at `i`, or 0 when
 * it is ill-formed: stray continuation byte, overlong form, encoded surrogate, above U+10FFFF or
 * cut short by the end of input.
 */
function utf8SequenceLength(b: Uint8Array, i: number, n: number): number {
  const c = b[i];
  if (c < 0xc2) return 0;
  if (c < 0xe0) return i + 1 < n && (b[i + 1] & 0xc0) === 0x80 ? 2 : 0;
  if (c < 0xf0) {
    if (i + 2 >= n) return 0;
    const c1 = b[i + 1];
    if (c === 0xe0 ? c1 < 0xa0 || c1 > 0xbf : c === 0xed ? c1 < 0x80 || c1 > 0x9f : (c1 & 0xc0) !== 0x80) return 0;
    return (b[i + 2] & 0xc0) === 0x80 ? 3 : 0;
  }
  if (c < 0xf5) {
    if (i + 3 >= n) return 0;
    const c1 = b[i + 1];
    if (c === 0xf0 ? c1 < 0x90 || c1 > 0xbf : c === 0xf4 ? c1 < 0x80 || c1 > 0x8f : (c1 & 0xc0) !== 0x80) return 0;
    return (b[i + 2] & 0xc0) === 0x80 && (b[i + 3] & 0xc0) === 0x80 ? 4 : 0;
  }
  return 0;
}

/** Latin-1/ASCII bytes to a string without a decoder call; only used on short, all-ASCII runs. */
function asciiString(b: Uint8Array, start: number, end: number): string {
  return String.fromCharCode.apply(null, b.subarray(start, end) as unknown as number[]);
}

/**
 * The bytes as one string of one character per byte: ASCII bytes as themselves, any other as
 * NOT_ASCII. Its slices are the texts of ASCII strings and numbers, one-byte strings (decoding the
 * input as UTF-8 makes one string of two-byte characters for the whole input if it holds one
 * non-ASCII character, and Chromium's decoder took 380 ms for 25 MB of such JSON, against 95 for
 * the same bytes made ASCII).
 */
function asciiImage(bytes: Uint8Array): string {
  const n = bytes.length;
  let first = 0;
  while (first < n && bytes[first] < 0x80) first++;
  if (first === n) return UTF8.decode(bytes);
  const image = bytes.slice();
  for (let i = first; i < n; i++) if (image[i] >= 0x80) image[i] = NOT_ASCII;
  return UTF8.decode(image);
}

function unitsToString(units: Uint16Array, length: number): string {
  if (length <= CHUNK) return String.fromCharCode.apply(null, units.subarray(0, length) as unknown as number[]);
  let out = '';
  for (let i = 0; i < length; i += CHUNK) {
    out += String.fromCharCode.apply(null, units.subarray(i, Math.min(length, i + CHUNK)) as unknown as number[]);
  }
  return out;
}

function hex(value: number, width: number): string {
  return value.toString(16).toUpperCase().padStart(width, '0');
}

function isUint8Array(x: unknown): x is Uint8Array {
  // toString tag rather than instanceof so arrays from another realm (worker, iframe, vm) are accepted.
  return ArrayBuffer.isView(x) && Object.prototype.toString.call(x) === '[object Uint8Array]';
}

function isSharedBuffer(buffer: ArrayBufferLike): boolean {
  return Object.prototype.toString.call(buffer) === '[object SharedArrayBuffer]';
}

class Reader {
  private readonly b: Uint8Array;
  private readonly n: number;
  private readonly maxDepth: number;
  private readonly maxIntegerDigits: number;
  /**
   * bytes[start, end)'s ASCII image (asciiImage): one character per byte, so a string or number
   * of ASCII bytes is a slice of it (at its byte offset minus start), a one-byte string. Null when
   * the engine cannot hold it as one string (then every text is made from the bytes).
   */
  private readonly src: string | null;
  /** Scan position; after readString, the offset just past the closing quote. */
  pos = 0;
  private scratch: Uint16Array | null = null;
  // Pending key of the object at each depth while its member value is being read.
  private readonly keys: string[] = [];
  private readonly keyStarts: number[] = [];
  private readonly keyEnds: number[] = [];
  private readonly keyTexts = new Map<string, string>();

  /** Where the document starts in `b` (it ends at n). */
  private readonly start: number;

  constructor(bytes: Uint8Array, maxDepth: number, maxIntegerDigits: number, start: number, end: number) {
    this.b = bytes;
    this.n = end;
    this.start = start;
    this.maxDepth = maxDepth;
    this.maxIntegerDigits = maxIntegerDigits;
    let src: string | null;
    try {
      src = asciiImage(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
    } catch {
      src = null;
    }
    this.src = src;
    this.pos = start;
  }

  readDocument(): JsonValue {
    const b = this.b;
    const n = this.n;
    const maxDepth = this.maxDepth;
    const stack: Container[] = [];
    let pos = this.start;
    if (pos === 0 && n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) pos = 3;
    let ctx = CTX_TOP;

    for (;;) {
      // ---- read one value at pos ----
      pos = this.skipWhitespace(pos);
      this.pos = pos;
      if (pos >= n) this.failValue(pos, ctx);
      const c = b[pos];
      let value: JsonValue;
      if (c === 0x7b || c === 0x5b) {
        if (stack.length >= maxDepth) {
          this.fail(pos, `nesting deeper than ${maxDepth} levels`, 'json/too-deep');
        }
        const start = pos;
        pos = this.skipWhitespace(pos + 1);
        if (c === 0x7b) {
          const obj: ObjectValue = { type: 'object', start, end: 0, entries: [] };
          if (pos < n && b[pos] === 0x7d) {
            obj.end = pos + 1;
            pos++;
            value = obj;
          } else {
            stack.push(obj);
            pos = this.readKey(pos, stack.length - 1, false);
            ctx = CTX_MEMBER;
            continue;
          }
        } else {
          const arr: ArrayValue = { type: 'array', start, end: 0, items: [] };
          if (pos < n && b[pos] === 0x5d) {
            arr.end = pos + 1;
            pos++;
            value = arr;
          } else {
            stack.push(arr);
            ctx = CTX_ARRAY_FIRST;
            continue;
          }
        }
      } else if (c === 0x22) {
        const s = this.readString(pos);
        value = { type: 'string', start: pos, end: this.pos, value: s };
        pos = this.pos;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        value = this.readNumber(pos);
        pos = value.end;
      } else if (c === 0x74) {
        this.expectLiteral(pos, TRUE_BYTES, 'true');
        value = { type: 'bool', start: pos, end: pos + 4, value: true };
        pos += 4;
      } else if (c === 0x66) {
        this.expectLiteral(pos, FALSE_BYTES, 'false');
        value = { type: 'bool', start: pos, end: pos + 5, value: false };
        pos += 5;
      } else if (c === 0x6e) {
        this.expectLiteral(pos, NULL_BYTES, 'null');
        value = { type: 'null', start: pos, end: pos + 4 };
        pos += 4;
      } else {
        this.failValue(pos, ctx);
      }

      // ---- attach the finished value to its container, closing containers as they end ----
      for (;;) {
        const depth = stack.length;
        pos = this.skipWhitespace(pos);
        this.pos = pos;
        if (depth === 0) {
          if (pos < n) this.fail(pos, `unexpected data after top-level value, found ${this.describe(pos)}`);
          return value;
        }
        const top = stack[depth - 1];
        if (top.type === 'array') {
          top.items.push(value);
          if (pos < n) {
            const d = b[pos];
            if (d === 0x2c) {
              pos++;
              ctx = CTX_ARRAY_NEXT;
              break;
            }
            if (d === 0x5d) {
              top.end = pos + 1;
              // Exactly as long as it is: push() leaves room for ~16 more, which in a document of
              // many small containers is most of the tree's memory (500,000 parents: 64 MB).
              top.items = top.items.slice();
              pos++;
              stack.pop();
              value = top;
              continue;
            }
          }
          this.fail(pos, `expected ',' or ']' after array element, found ${this.describe(pos)}`);
        } else {
          const k = depth - 1;
          top.entries.push({ key: this.keys[k], keyStart: this.keyStarts[k], keyEnd: this.keyEnds[k], value });
          if (pos < n) {
            const d = b[pos];
            if (d === 0x2c) {
              pos = this.readKey(this.skipWhitespace(pos + 1), k, true);
              ctx = CTX_MEMBER;
              break;
            }
            if (d === 0x7d) {
              top.end = pos + 1;
              top.entries = top.entries.slice(); // exactly as long as it is, as items above
              pos++;
              stack.pop();
              value = top;
              continue;
            }
          }
          this.fail(pos, `expected ',' or '}' after object member, found ${this.describe(pos)}`);
        }
      }
    }
  }

  private skipWhitespace(pos: number): number {
    const b = this.b;
    const n = this.n;
    while (pos < n) {
      const c = b[pos];
      if (c > 0x20 || (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09)) break;
      pos++;
    }
    return pos;
  }

  /** Reads `"key"` then `:` at pos (whitespace already skipped); returns the offset after the colon. */
  private readKey(pos: number, depthIndex: number, afterComma: boolean): number {
    const b = this.b;
    const n = this.n;
    this.pos = pos;
    if (pos >= n || b[pos] !== 0x22) {
      if (afterComma && pos < n && b[pos] === 0x7d) {
        this.fail(pos, "trailing comma is not allowed: expected a string key after ',' in object, found '}'");
      }
      const expected = afterComma ? "expected a string key after ',' in object" : "expected a string key or '}' after '{'";
      this.fail(pos, `${expected}, found ${this.describe(pos)}${this.hint(pos)}`);
    }
    this.keys[depthIndex] = this.shared(this.readString(pos));
    this.keyStarts[depthIndex] = pos;
    this.keyEnds[depthIndex] = this.pos;
    pos = this.skipWhitespace(this.pos);
    this.pos = pos;
    if (pos >= n || b[pos] !== 0x3a) this.fail(pos, `expected ':' after object key, found ${this.describe(pos)}`);
    return pos + 1;
  }

  /**
   * One string for each distinct short key: a document repeats its few keys in every object, and
   * 500,000 `{"from": …}` would otherwise keep 500,000 copies of "from" (12 MB).
   */
  private shared(key: string): string {
    if (key.length > MAX_SHARED_KEY) return key;
    const known = this.keyTexts.get(key);
    if (known !== undefined) return known;
    if (this.keyTexts.size < MAX_SHARED_KEYS) this.keyTexts.set(key, key);
    return key;
  }

  /** Reads the string whose opening quote is at q; leaves this.pos just past the closing quote. */
  private readString(q: number): string {
    const b = this.b;
    const n = this.n;
    const start = q + 1;
    let ascii = true;
    let i = start;
    for (;;) {
      while (i < n && STRING_CLASS[b[i]] === 0) i++;
      if (i >= n) this.fail(n, `unterminated string starting at byte ${q}, found end of input`);
      const cls = STRING_CLASS[b[i]];
      if (cls === 1) break;
      if (cls === 2) return this.readEscapedString(q);
      if (cls === 3) this.failControl(i);
      const len = utf8SequenceLength(b, i, n);
      if (len === 0) this.failUtf8(i, 'in string');
      i += len;
      ascii = false;
    }
    this.pos = i + 1;
    if (i === start) return '';
    if (ascii && this.src !== null) return this.src.slice(start - this.start, i - this.start);
    if (ascii && i - start <= SHORT_ASCII) return asciiString(b, start, i);
    return UTF8.decode(b.subarray(start, i));
  }

  /** Slow path for strings with escapes: validates and decodes into UTF-16 code units. */
  private readEscapedString(q: number): string {
    const b = this.b;
    const n = this.n;
    let buf = this.scratch ?? (this.scratch = new Uint16Array(256));
    let k = 0;
    let i = q + 1;
    for (;;) {
      if (i >= n) this.fail(n, `unterminated string starting at byte ${q}, found end of input`);
      if (k + 2 > buf.length) buf = this.growScratch(k + 2);
      const c = b[i];
      const cls = STRING_CLASS[c];
      if (cls === 0) {
        buf[k++] = c;
        i++;
      } else if (cls === 1) {
        break;
      } else if (cls === 2) {
        if (i + 1 >= n) this.fail(n, `unterminated escape sequence in string starting at byte ${q}, found end of input`);
        const e = b[i + 1];
        let unit: number;
        switch (e) {
          case 0x22:
            unit = 0x22;
            break; // \"
          case 0x5c:
            unit = 0x5c;
            break; // \\
          case 0x2f:
            unit = 0x2f;
            break; // \/
          case 0x62:
            unit = 0x08;
            break; // \b
          case 0x66:
            unit = 0x0c;
            break; // \f
          case 0x6e:
            unit = 0x0a;
            break; // \n
          case 0x72:
            unit = 0x0d;
            break; // \r
          case 0x74:
            unit = 0x09;
            break; // \t
          case 0x75: {
            // \uXXXX; surrogates are kept as code units, so pairs combine and lone ones survive
            unit = 0;
            for (let j = i + 2; j < i + 6; j++) {
              if (j >= n) this.fail(n, 'unterminated \\u escape, found end of input');
              const h = HEX_VALUE[b[j]];
              if (h < 0) this.fail(j, `expected a hex digit in \\u escape, found ${this.describe(j)}`);
              unit = (unit << 4) | h;
            }
            buf[k++] = unit;
            i += 6;
            continue;
          }
          default:
            this.fail(i + 1, `invalid escape: expected one of " \\ / b f n r t u after '\\', found ${this.describe(i + 1)}`);
        }
        buf[k++] = unit;
        i += 2;
      } else if (cls === 3) {
        this.failControl(i);
      } else {
        const len = utf8SequenceLength(b, i, n);
        if (len === 0) this.failUtf8(i, 'in string');
        if (len === 2) {
          buf[k++] = ((c & 0x1f) << 6) | (b[i + 1] & 0x3f);
        } else if (len === 3) {
          buf[k++] = ((c & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f);
        } else {
          const cp = (((c & 0x07) << 18) | ((b[i + 1] & 0x3f) << 12) | ((b[i + 2] & 0x3f) << 6) | (b[i + 3] & 0x3f)) - 0x10000;
          buf[k++] = 0xd800 | (cp >> 10);
          buf[k++] = 0xdc00 | (cp & 0x3ff);
        }
        i += len;
      }
    }
    this.pos = i + 1;
    return k === 0 ? '' : unitsToString(buf, k);
  }

  private growScratch(needed: number): Uint16Array {
    const old = this.scratch!;
    const next = new Uint16Array(Math.max(needed, old.length * 2));
    next.set(old);
    this.scratch = next;
    return next;
  }

  private readNumber(start: number): NumberValue {
    const b = this.b;
    const n = this.n;
    let i = start;
    if (b[i] === 0x2d) i++;
    const c = i < n ? b[i] : -1;
    if (c === 0x30) {
      i++;
      if (i < n && b[i] >= 0x30 && b[i] <= 0x39) this.fail(i, 'leading zeros are not allowed in numbers');
    } else if (c >= 0x31 && c <= 0x39) {
      i++;
      while (i < n && b[i] >= 0x30 && b[i] <= 0x39) i++;
    } else {
      const hint = c === 0x49 ? ' (Infinity is not valid JSON)' : '';
      this.fail(i, `expected a digit after '-', found ${this.describe(i)}${hint}`);
    }
    let isInteger = true;
    if (i < n && b[i] === 0x2e) {
      i++;
      if (!(i < n && b[i] >= 0x30 && b[i] <= 0x39)) {
        this.fail(i, `expected a digit after decimal point, found ${this.describe(i)}`);
      }
      while (i < n && b[i] >= 0x30 && b[i] <= 0x39) i++;
      isInteger = false;
    }
    if (i < n && (b[i] === 0x65 || b[i] === 0x45)) {
      i++;
      if (i < n && (b[i] === 0x2b || b[i] === 0x2d)) i++;
      if (!(i < n && b[i] >= 0x30 && b[i] <= 0x39)) {
        this.fail(i, `expected a digit in exponent, found ${this.describe(i)}`);
      }
      while (i < n && b[i] >= 0x30 && b[i] <= 0x39) i++;
      isInteger = false;
    }
    if (isInteger && i - start - (b[start] === 0x2d ? 1 : 0) > this.maxIntegerDigits) {
      this.fail(
        start,
        `an integer of ${i - start - (b[start] === 0x2d ? 1 : 0)} digits, more than ${this.maxIntegerDigits} (Python's json.loads refuses these too)`,
      );
    }
    const text = this.src !== null ? this.src.slice(start - this.start, i - this.start) : asciiString(b, start, i);
    const value = Number(text);
    // For safe integers BigInt(value) equals BigInt(text) and skips a second parse of the digits.
    const big = isInteger
      ? value >= 0 && value < SMALL_BIGINTS.length
        ? SMALL_BIGINTS[value]
        : Number.isSafeInteger(value)
          ? BigInt(value)
          : BigInt(text)
      : null;
    return { type: 'number', start, end: i, text, isInteger, value, big };
  }

  private expectLiteral(pos: number, word: number[], name: string): void {
    const b = this.b;
    const n = this.n;
    for (let j = 1; j < word.length; j++) {
      const at = pos + j;
      if (at >= n || b[at] !== word[j]) this.fail(at, `invalid literal: expected '${name}', found ${this.describe(at)}`);
    }
  }

  // ---- errors ----

  private fail(offset: number, message: string, code: JsonError['code'] = 'json/invalid'): never {
    throw new Failure({ code, message, offset });
  }

  private failControl(i: number): never {
    this.fail(i, `control character U+${hex(this.b[i], 4)} must be escaped in a string`);
  }

  private failUtf8(i: number, where: string): never {
    this.fail(i, `invalid UTF-8 ${where}: byte 0x${hex(this.b[i], 2)} does not start a well-formed sequence`);
  }

  private failValue(pos: number, ctx: number): never {
    const b = this.b;
    const n = this.n;
    if (pos < n && b[pos] >= 0x80 && utf8SequenceLength(b, pos, n) === 0) this.failUtf8(pos, 'where a value was expected');
    if (ctx === CTX_ARRAY_NEXT && pos < n && b[pos] === 0x5d) {
      this.fail(pos, "trailing comma is not allowed: expected a JSON value after ',' in array, found ']'");
    }
    const expected =
      ctx === CTX_ARRAY_FIRST
        ? "expected a JSON value or ']' after '['"
        : ctx === CTX_ARRAY_NEXT
          ? "expected a JSON value after ',' in array"
          : ctx === CTX_MEMBER
            ? "expected a JSON value after ':'"
            : 'expected a JSON value';
    this.fail(pos, `${expected}, found ${this.describe(pos)}${this.hint(pos)}`);
  }

  /** Extra words for common non-JSON habits, shown after "found ...". */
  private hint(pos: number): string {
    if (pos >= this.n) return '';
    switch (this.b[pos]) {
      case 0x27:
        return ' (single-quoted strings are not valid JSON)';
      case 0x2f:
        return ' (comments are not valid JSON)';
      case 0x4e:
        return ' (NaN is not valid JSON)';
      case 0x49:
        return ' (Infinity is not valid JSON)';
      case 0x2b:
        return " (a leading '+' is not valid JSON)";
      case 0x2e:
        return ' (numbers must start with a digit)';
      default:
        return '';
    }
  }

  /** Names the byte at pos for an error message without echoing raw control or invalid bytes. */
  private describe(pos: number): string {
    const b = this.b;
    const n = this.n;
    if (pos >= n) return 'end of input';
    const c = b[pos];
    if (c >= 0x21 && c <= 0x7e) return `'${String.fromCharCode(c)}'`;
    if (c < 0x80) return `U+${hex(c, 4)}`;
    const len = utf8SequenceLength(b, pos, n);
    if (len === 0) return `invalid UTF-8 byte 0x${hex(c, 2)}`;
    const cp =
      len === 2
        ? ((c & 0x1f) << 6) | (b[pos + 1] & 0x3f)
        : len === 3
          ? ((c & 0x0f) << 12) | ((b[pos + 1] & 0x3f) << 6) | (b[pos + 2] & 0x3f)
          : ((c & 0x07) << 18) | ((b[pos + 1] & 0x3f) << 12) | ((b[pos + 2] & 0x3f) << 6) | (b[pos + 3] & 0x3f);
    return `U+${hex(cp, 4)}`;
  }
}

/**
 * Reads one JSON document from UTF-8 bytes. Never throws for any input (only a non-Uint8Array or a
 * bad maxDepth throws TypeError); every failure is `{ ok: false, error }` with the byte offset.
 */
export function readJson(bytes: Uint8Array, options?: JsonReadOptions): JsonResult {
  if (!isUint8Array(bytes)) throw new TypeError('readJson expects a Uint8Array');
  let maxDepth = DEFAULT_MAX_DEPTH;
  const requested = options?.maxDepth;
  if (requested !== undefined) {
    if (typeof requested !== 'number' || !(requested >= 0) || !(Number.isInteger(requested) || requested === Infinity)) {
      throw new TypeError('maxDepth must be a non-negative integer or Infinity');
    }
    maxDepth = requested;
  }
  const digits = options?.maxIntegerDigits ?? DEFAULT_MAX_INTEGER_DIGITS;
  if (typeof digits !== 'number' || !(digits >= 1)) throw new TypeError('maxIntegerDigits must be a positive number');
  const start = options?.start ?? 0;
  const end = options?.end ?? bytes.length;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > bytes.length) {
    throw new TypeError('start and end must be integers with 0 <= start <= end <= bytes.length');
  }
  // TextDecoder refuses views of shared memory, and shared memory could change under the scan.
  if (isSharedBuffer(bytes.buffer)) bytes = bytes.slice();
  const reader = new Reader(bytes, maxDepth, digits, start, end);
  try {
    return { ok: true, value: reader.readDocument() };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, error: e.error };
    // Engine limits (string too long, out of memory) on enormous inputs: still a result, not a throw.
    let detail = 'engine limit reached';
    try {
      if (e instanceof Error) detail = `${e.name}: ${e.message}`;
    } catch {
      // keep the generic detail
    }
    return { ok: false, error: { code: 'json/invalid', message: `input could not be read (${detail})`, offset: reader.pos } };
  }
}

/** The first entry with that key of an object (duplicates after it are ignored), else undefined. */
export function getMember(obj: JsonValue, key: string): JsonValue | undefined {
  if (obj.type !== 'object') return undefined;
  const entries = obj.entries;
  for (let i = 0; i < entries.length; i++) {
    if (entries[i].key === key) return entries[i].value;
  }
  return undefined;
}

function plainNumber(v: NumberValue): number | bigint {
  if (v.isInteger && !Number.isSafeInteger(v.value)) return v.big ?? BigInt(v.text);
  return v.value;
}

/** A scalar as a plain value, or an empty container to be filled. */
function plainShell(v: JsonValue): unknown {
  switch (v.type) {
    case 'object':
      return {};
    case 'array':
      return [];
    case 'string':
      return v.value;
    case 'number':
      return plainNumber(v);
    case 'bool':
      return v.value;
    case 'null':
      return null;
  }
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    // Assignment would call the Object.prototype setter and replace the prototype; define instead.
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * Converts to plain JS values: objects are ordinary objects (a "__proto__" key becomes an own
 * property, never the prototype; for duplicate keys the last one wins, as with JSON.parse),
 * numbers are numbers, except integers outside the safe range which are bigints. Iterative, so
 * any depth readJson accepted converts without overflowing the stack.
 */
export function toPlain(value: JsonValue): unknown {
  const root = plainShell(value);
  if (value.type !== 'object' && value.type !== 'array') return root;
  const work: Array<[Container, unknown]> = [[value, root]];
  while (work.length > 0) {
    const [src, dst] = work.pop()!;
    if (src.type === 'array') {
      const out = dst as unknown[];
      const items = src.items;
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        const v = plainShell(item);
        out[i] = v;
        if (item.type === 'object' || item.type === 'array') work.push([item, v]);
      }
    } else {
      const out = dst as Record<string, unknown>;
      const entries = src.entries;
      for (let i = 0; i < entries.length; i++) {
        const item = entries[i].value;
        const v = plainShell(item);
        setOwn(out, entries[i].key, v);
        if (item.type === 'object' || item.type === 'array') work.push([item, v]);
      }
    }
  }
  return root;
}
