// A growable run of bytes written at its end: how the report's JSON and the readable summaries are
// put together as UTF-8 before they are handed on, block by block.

const encoder = new TextEncoder();

/** A growable run of bytes, written at its end (the JSON writer's block, the summaries' lines). */
export class ByteRun {
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
  /** Text as UTF-8: ASCII copied a character a byte (most text here is), the rest through the encoder. */
  utf8(s: string): void {
    // At most three bytes a UTF-16 unit.
    this.reserve(3 * s.length);
    const buf = this.buf;
    let at = this.length;
    let i = 0;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[at++] = c;
    }
    if (i < s.length) at += encoder.encodeInto(s.slice(i), buf.subarray(at)).written;
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
