// CBOR diagnostic notation read back into bytes (RFC 8949 section 8, with the common extensions of
// its appendix G, as cbor.me and the CBOR playgrounds write it): what a person pastes from those
// tools, or from this app's own diagnostic view. A sequence of items (RFC 8742) may be separated by
// commas or white space. Bad text is an answer, never an exception: the first place it fails, as a
// byte offset into its UTF-8 with its line and column, and what was expected there.
//
// Accepted: integers (decimal, 0x, 0o, 0b, with an encoding indicator _0.._3 for the head's width),
// floats (NaN, Infinity, -Infinity, decimals and exponents; _1, _2, _3 for half, single, double, else
// the shortest width that holds the value), "text" (JSON escapes), byte strings h'…' (hex, spaces
// allowed), b64'…' (standard or url-safe), '…' (the UTF-8 of the text between), arrays [..],
// maps {k: v}, their indefinite forms [_ ..] {_ ..} and (_ chunk, chunk) for strings, tags N(item),
// true, false, null, undefined, simple(N), and comments /…/ and # to the end of the line.
import { fromBase64, textPlace, type TextPlace, utf8Encode } from '../bytes';
import { CborWriter } from './encoder';

/** Where diagnostic text stops reading (the byte in its UTF-8, the line and column), and why. */
export interface DiagnosticError extends TextPlace {
  message: string;
}

export type DiagnosticResult = { ok: true; bytes: Uint8Array; items: number } | { ok: false; error: DiagnosticError };

/** Nesting deeper than this is refused (the CBOR reader's own bound is of the same order). */
const MAX_DEPTH = 256;

class Fail extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

const isDigit = (c: string) => c >= '0' && c <= '9';
/** A number where the reader stands (sticky: matched at lastIndex, the text not copied). */
const NUMBER = /([+-]?)(?:(0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+)|(NaN|Infinity)|(\d+)(\.\d+)?([eE][+-]?\d+)?)(?:_(\d))?/y;
const HEX = /^[0-9a-fA-F]$/;

/** What is at `i`, for a message: `'x'`, or "the end". */
function found(text: string, i: number): string {
  if (i >= text.length) return 'the end of the text';
  const c = String.fromCodePoint(text.codePointAt(i)!);
  return /[\x00-\x1f\x7f]/.test(c) ? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`;
}

class Parser {
  private i = 0;
  private depth = 0;
  /** Where items are written: the output, or a list's own writer while its elements are counted. */
  out = new CborWriter();

  constructor(private readonly text: string) {}

  fail(message: string, at = this.i): never {
    throw new Fail(at, message);
  }

  /** Skips white space and comments. */
  space(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.i++;
      else if (c === '#') {
        while (this.i < t.length && t[this.i] !== '\n') this.i++;
      } else if (c === '/') {
        const end = t.indexOf('/', this.i + 1);
        if (end < 0) this.fail('a comment opened with / is not closed with /');
        this.i = end + 1;
      } else return;
    }
  }

  atEnd(): boolean {
    this.space();
    return this.i >= this.text.length;
  }

  private expect(c: string, what: string): void {
    this.space();
    if (this.text[this.i] !== c) this.fail(`expected ${what}, found ${found(this.text, this.i)}`);
    this.i++;
  }

  private word(w: string): boolean {
    if (!this.text.startsWith(w, this.i)) return false;
    const next = this.text[this.i + w.length];
    if (next !== undefined && /[A-Za-z0-9_'"]/.test(next)) return false;
    this.i += w.length;
    return true;
  }

  item(): void {
    this.space();
    const t = this.text;
    const c = t[this.i];
    if (c === undefined) this.fail('expected a value, found the end of the text');
    if (++this.depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`);
    try {
      if (c === '[') this.array();
      else if (c === '{') this.map();
      else if (c === '"') this.out.text(this.quoted());
      else if (c === "'") this.out.bytes(this.singleQuoted());
      else if (c === '(' && t[this.i + 1] === '_') this.chunks();
      else if (t.startsWith("h'", this.i)) this.out.bytes(this.hexBytes());
      else if (t.startsWith("b64'", this.i)) this.out.bytes(this.base64Bytes());
      else if (c === '-' || c === '+' || isDigit(c) || t.startsWith('NaN', this.i) || t.startsWith('Infinity', this.i)) this.number();
      else if (this.word('true')) this.out.raw(0xf5);
      else if (this.word('false')) this.out.raw(0xf4);
      else if (this.word('null')) this.out.raw(0xf6);
      else if (this.word('undefined')) this.out.raw(0xf7);
      else if (t.startsWith('simple(', this.i)) this.simple();
      else this.fail(`expected a value (a number, "text", h'bytes', [array], {map}, a tag, true, false or null), found ${found(t, this.i)}`);
    } finally {
      this.depth--;
    }
  }

  /** `[`, or `[_` for an indefinite array, then items separated by commas, then `]`. */
  private array(): void {
    this.i++;
    const indefinite = this.indefiniteMark();
    const items = this.list(']', () => this.item());
    if (indefinite) {
      this.out.raw(0x9f).append(items.bytes).raw(0xff);
    } else this.out.head(4, items.count).append(items.bytes);
  }

  private map(): void {
    this.i++;
    const indefinite = this.indefiniteMark();
    const entries = this.list('}', () => {
      this.item();
      this.expect(':', "':' between a key and its value");
      this.item();
    });
    if (indefinite) this.out.raw(0xbf).append(entries.bytes).raw(0xff);
    else this.out.head(5, entries.count).append(entries.bytes);
  }

  private indefiniteMark(): boolean {
    if (this.text[this.i] !== '_') return false;
    this.i++;
    return true;
  }

  /** Elements written by `one` into a writer of their own until `close`, separated by commas (a trailing one allowed). */
  private list(close: string, one: () => void): { count: number; bytes: Uint8Array } {
    const outer = this.out;
    const inner = new CborWriter();
    this.out = inner;
    let count = 0;
    try {
      for (;;) {
        this.space();
        if (this.text[this.i] === close) {
          this.i++;
          break;
        }
        if (this.i >= this.text.length) this.fail(`expected '${close}' to close what was opened, found the end of the text`);
        one();
        count++;
        this.space();
        const c = this.text[this.i];
        if (c === ',') this.i++;
        else if (c !== close) this.fail(`expected ',' or '${close}', found ${found(this.text, this.i)}`);
      }
    } finally {
      this.out = outer;
    }
    return { count, bytes: inner.finish() };
  }

  /** `(_ chunk, chunk, …)`: an indefinite byte or text string; every chunk of one kind. */
  private chunks(): void {
    const start = this.i;
    this.i += 2;
    let kind: 'bytes' | 'text' | null = null;
    const parts: Uint8Array[] = [];
    this.list(')', () => {
      this.space();
      const c = this.text[this.i];
      const at = this.i;
      const chunk: ['bytes' | 'text', Uint8Array] =
        c === '"'
          ? ['text', utf8Encode(this.quoted())]
          : c === "'"
            ? ['bytes', this.singleQuoted()]
            : this.text.startsWith("h'", this.i)
              ? ['bytes', this.hexBytes()]
              : this.text.startsWith("b64'", this.i)
                ? ['bytes', this.base64Bytes()]
                : this.fail(`expected a string chunk of the indefinite string, found ${found(this.text, this.i)}`);
      if (kind !== null && chunk[0] !== kind)
        this.fail(`a chunk of ${chunk[0] === 'text' ? 'text' : 'bytes'} in an indefinite ${kind === 'text' ? 'text' : 'byte'} string`, at);
      kind = chunk[0];
      parts.push(chunk[1]);
    });
    if (kind === null) this.fail('an empty indefinite string says neither bytes nor text: write (_ h\'\') or (_ "")', start);
    this.out.raw(kind === 'bytes' ? 0x5f : 0x7f);
    for (const p of parts) {
      if (kind === 'bytes') this.out.bytes(p);
      else this.out.textBytes(p);
    }
    this.out.raw(0xff);
  }

  /** A JSON-style "string", its escapes read. */
  private quoted(): string {
    const t = this.text;
    let s = '';
    this.i++;
    for (;;) {
      const c = t[this.i];
      if (c === undefined) this.fail('a "text" string is not closed');
      if (c === '"') {
        this.i++;
        return s;
      }
      if (c === '\\') {
        const e = t[this.i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e in simple) {
          s += simple[e];
          this.i += 2;
        } else if (e === 'u') {
          const hex = t.slice(this.i + 2, this.i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('\\u must be followed by four hex digits');
          s += String.fromCharCode(Number.parseInt(hex, 16));
          this.i += 6;
        } else this.fail(`unknown escape \\${e ?? ''} in a text string`);
        continue;
      }
      if (c === '\n') this.fail('a line break inside a "text" string (write \\n)');
      s += c;
      this.i++;
    }
  }

  /** `'…'`: a byte string of the UTF-8 of the text between the quotes (\\' and \\\\ escaped). */
  private singleQuoted(): Uint8Array {
    const t = this.text;
    let s = '';
    this.i++;
    for (;;) {
      const c = t[this.i];
      if (c === undefined) this.fail("a '…' byte string is not closed");
      if (c === "'") {
        this.i++;
        return utf8Encode(s);
      }
      if (c === '\\' && (t[this.i + 1] === "'" || t[this.i + 1] === '\\')) {
        s += t[this.i + 1];
        this.i += 2;
        continue;
      }
      s += c;
      this.i++;
    }
  }

  /** `h'…'`: hex digits in pairs, white space and comments between them. */
  private hexBytes(): Uint8Array {
    const t = this.text;
    this.i += 2;
    const digits: string[] = [];
    for (;;) {
      this.space();
      const c = t[this.i];
      if (c === undefined) this.fail("an h'…' byte string is not closed with '");
      if (c === "'") {
        this.i++;
        break;
      }
      if (!HEX.test(c)) this.fail(`${found(t, this.i)} is not a hex digit (in h'…')`);
      digits.push(c);
      this.i++;
    }
    if (digits.length % 2) this.fail("an odd number of hex digits in h'…'", this.i - 1);
    const out = new Uint8Array(digits.length / 2);
    for (let k = 0; k < out.length; k++) out[k] = Number.parseInt(digits[2 * k] + digits[2 * k + 1], 16);
    return out;
  }

  private base64Bytes(): Uint8Array {
    const t = this.text;
    const start = this.i + 4;
    const end = t.indexOf("'", start);
    if (end < 0) this.fail("a b64'…' byte string is not closed with '");
    const body = t.slice(start, end).replace(/\s+/g, '');
    const bad = /[^A-Za-z0-9+/=_-]/.exec(body);
    if (bad) this.fail(`'${bad[0]}' is not a base64 character (in b64'…')`, start + t.slice(start, end).indexOf(bad[0]));
    const bytes = body === '' ? new Uint8Array(0) : fromBase64(body);
    if (!bytes) this.fail("b64'…' does not decode: its length is impossible", start);
    this.i = end + 1;
    return bytes;
  }

  /** A number: an integer (with an optional head width _0.._3) or a float (with an optional width _1.._3). */
  private number(): void {
    const t = this.text;
    const start = this.i;
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(t);
    if (!m || (m[1] === '+' && !m[3])) this.fail(`expected a number, found ${found(t, this.i)}`);
    this.i += m[0].length;
    const next = t[this.i];
    // A tag: digits, then the tagged item in parentheses.
    if (next === '(' && !m[1] && !m[3] && !m[5] && !m[6] && m[4] !== undefined) {
      this.tag(BigInt(m[4]), m[7], start);
      return;
    }
    if (next !== undefined && /[A-Za-z0-9.]/.test(next)) this.fail(`${found(t, this.i)} cannot follow a number`);
    const negative = m[1] === '-';
    const width = m[7] === undefined ? null : Number(m[7]);
    if (m[3] || m[5] || m[6]) {
      const value = m[3] === 'NaN' ? Number.NaN : m[3] ? (negative ? -Infinity : Infinity) : Number(`${m[1]}${m[4]}${m[5] ?? ''}${m[6] ?? ''}`);
      this.float(value, width, start);
      return;
    }
    const magnitude = m[2] ? BigInt(m[2]) : BigInt(m[4]);
    const arg = negative ? magnitude - 1n : magnitude;
    if (negative && magnitude === 0n) this.fail('-0 is no integer CBOR can write: write 0, or -0.0 for the float', start);
    if (arg < 0n || arg > 0xffffffffffffffffn) this.fail('an integer outside what a CBOR head holds (−2^64 to 2^64 − 1)', start);
    this.headOfWidth(negative ? 1 : 0, arg, width, start);
  }

  /** A head with its argument in the width the encoding indicator names (_0: 1 byte, _1: 2, _2: 4, _3: 8), else the shortest. */
  private headOfWidth(major: number, arg: bigint, width: number | null, at: number): void {
    if (width === null) return void this.out.head(major, arg);
    if (width > 3) this.fail(`_${width} is no encoding indicator of an integer (_0 to _3)`, at);
    const bytes = 1 << width;
    if (arg >= 1n << BigInt(8 * bytes)) this.fail(`${arg} does not fit the ${bytes}-byte head _${width} asks for`, at);
    const out = [(major << 5) | (24 + width)];
    for (let k = bytes - 1; k >= 0; k--) out.push(Number((arg >> BigInt(8 * k)) & 0xffn));
    this.out.raw(...out);
  }

  private float(value: number, width: number | null, at: number): void {
    if (width === null) return void this.out.float(value);
    const view = new DataView(new ArrayBuffer(8));
    if (width === 3) {
      view.setFloat64(0, value);
      return void this.out.raw(0xfb, ...new Uint8Array(view.buffer));
    }
    if (width === 2) {
      if (!Number.isNaN(value) && Math.fround(value) !== value) this.fail(`${value} is not exact as a single-precision float (_2)`, at);
      view.setFloat32(0, value);
      return void this.out.raw(0xfa, ...new Uint8Array(view.buffer, 0, 4));
    }
    if (width === 1) {
      const probe = new CborWriter().float(value).finish();
      if (probe[0] !== 0xf9) this.fail(`${value} is not exact as a half-precision float (_1)`, at);
      return void this.out.append(probe);
    }
    this.fail(`_${width} is no encoding indicator of a float (_1 to _3)`, at);
  }

  private tag(tag: bigint, width: string | undefined, at: number): void {
    if (tag > 0xffffffffffffffffn) this.fail('a tag number outside what a CBOR head holds', at);
    this.headOfWidth(6, tag, width === undefined ? null : Number(width), at);
    this.i++;
    this.item();
    this.expect(')', "')' to close the tag's item");
  }

  private simple(): void {
    const start = this.i;
    const m = /^simple\((\d{1,3})\)/.exec(this.text.slice(this.i, this.i + 12));
    if (!m) this.fail('expected simple(N) with N from 0 to 255');
    const n = Number(m[1]);
    if (n > 255 || (n >= 24 && n < 32)) this.fail(`simple(${n}) cannot be written in CBOR (0–23 and 32–255 can)`, start);
    this.i += m[0].length;
    if (n < 24) this.out.raw(0xe0 | n);
    else this.out.raw(0xf8, n);
  }

  /** Between two items of a sequence: white space, or one comma. */
  separator(): void {
    this.space();
    if (this.text[this.i] === ',') this.i++;
  }

  get at(): number {
    return this.i;
  }
}

/** The CBOR bytes that diagnostic notation `text` writes (a sequence when it holds several items). */
export function parseDiagnostic(text: string): DiagnosticResult {
  if (typeof text !== 'string') throw new TypeError('parseDiagnostic: text must be a string');
  const p = new Parser(text);
  let items = 0;
  try {
    if (p.atEnd()) p.fail('no value: the text is empty, or only comments', 0);
    while (!p.atEnd()) {
      p.item();
      items++;
      p.separator();
    }
    return { ok: true, bytes: p.out.finish(), items };
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    return { ok: false, error: { message: e.message, ...textPlace(text, e.at) } };
  }
}
