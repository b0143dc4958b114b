// A canonical CBOR writer in the style of serde + ciborium: shortest heads, definite lengths,
// floats in the shortest width that holds the value exactly. Callers choose key order.

/** A value `CborWriter.value` writes: integers (a number with a fraction is a float), text, bytes, arrays, maps in their order. */
export type CborValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | readonly CborValue[]
  | ReadonlyMap<string, CborValue>
  | { readonly [key: string]: CborValue };

export class CborWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  /** A head of major type `major` with the shortest argument encoding. */
  head(major: number, arg: number | bigint): this {
    const m = major << 5;
    if (typeof arg === 'bigint') {
      if (arg < 0n || arg > 0xffffffffffffffffn) throw new RangeError(`CBOR head argument out of range: ${arg}`);
      if (arg <= 0xffffffffn) return this.head(major, Number(arg));
      this.ensure(9);
      this.buf[this.len++] = m | 27;
      for (let shift = 56n; shift >= 0n; shift -= 8n) this.buf[this.len++] = Number((arg >> shift) & 0xffn);
      return this;
    }
    if (!Number.isInteger(arg) || arg < 0) throw new RangeError(`CBOR head argument must be a non-negative integer, got ${arg}`);
    this.ensure(9);
    const b = this.buf;
    if (arg < 24) b[this.len++] = m | arg;
    else if (arg <= 0xff) {
      b[this.len++] = m | 24;
      b[this.len++] = arg;
    } else if (arg <= 0xffff) {
      b[this.len++] = m | 25;
      b[this.len++] = arg >> 8;
      b[this.len++] = arg & 0xff;
    } else if (arg <= 0xffffffff) {
      b[this.len++] = m | 26;
      b[this.len++] = arg >>> 24;
      b[this.len++] = (arg >> 16) & 0xff;
      b[this.len++] = (arg >> 8) & 0xff;
      b[this.len++] = arg & 0xff;
    } else return this.head(major, BigInt(arg));
    return this;
  }

  uint(value: number | bigint): this {
    return this.head(0, value);
  }

  /** A signed integer: major 0 when non-negative, else major 1 with argument -1 - value. */
  int(value: number | bigint): this {
    if (typeof value === 'bigint') return value >= 0n ? this.head(0, value) : this.head(1, -1n - value);
    if (value >= 0) return this.head(0, value);
    // Below -2^53, -1 - value rounds; go through bigint (which also rejects non-integers).
    return Number.isSafeInteger(value) ? this.head(1, -1 - value) : this.head(1, -1n - BigInt(value));
  }

  bytes(value: Uint8Array): this {
    this.head(2, value.length);
    this.ensure(value.length);
    this.buf.set(value, this.len);
    this.len += value.length;
    return this;
  }

  text(value: string): this {
    // ASCII (keys, ids, most values) is written directly; anything else goes through TextEncoder.
    const n = value.length;
    if (n < 64) {
      let ascii = true;
      for (let i = 0; i < n; i++) {
        if (value.charCodeAt(i) > 0x7f) {
          ascii = false;
          break;
        }
      }
      if (ascii) {
        this.head(3, n);
        this.ensure(n);
        for (let i = 0; i < n; i++) this.buf[this.len++] = value.charCodeAt(i);
        return this;
      }
    }
    return this.textBytes(encoder.encode(value));
  }

  textBytes(utf8: Uint8Array): this {
    this.head(3, utf8.length);
    this.ensure(utf8.length);
    this.buf.set(utf8, this.len);
    this.len += utf8.length;
    return this;
  }

  bool(value: boolean): this {
    return this.raw(value ? 0xf5 : 0xf4);
  }

  null(): this {
    return this.raw(0xf6);
  }

  /** A float in the shortest of half, single or double that represents it exactly (ciborium's rule). */
  float(value: number): this {
    if (Number.isNaN(value)) return this.raw(0xf9, 0x7e, 0x00);
    const half = numberToHalf(value);
    if (half !== null) return this.raw(0xf9, half >> 8, half & 0xff);
    const f32 = Math.fround(value);
    if (f32 === value) {
      this.ensure(5);
      this.buf[this.len++] = 0xfa;
      new DataView(this.buf.buffer).setFloat32(this.len, value);
      this.len += 4;
      return this;
    }
    this.ensure(9);
    this.buf[this.len++] = 0xfb;
    new DataView(this.buf.buffer).setFloat64(this.len, value);
    this.len += 8;
    return this;
  }

  /** Any CborValue: an object's keys in their order (a body map as its writer orders it), undefined members left out. */
  value(v: CborValue): this {
    if (v === null) return this.null();
    if (typeof v === 'boolean') return this.bool(v);
    if (typeof v === 'bigint') return this.int(v);
    if (typeof v === 'number') return Number.isInteger(v) ? this.int(v) : this.float(v);
    if (typeof v === 'string') return this.text(v);
    if (v instanceof Uint8Array) return this.bytes(v);
    if (Array.isArray(v)) {
      this.head(4, v.length);
      for (const x of v) this.value(x);
      return this;
    }
    const all: [string, CborValue | undefined][] =
      v instanceof Map ? [...(v as ReadonlyMap<string, CborValue>)] : Object.entries(v as { readonly [key: string]: CborValue });
    const entries = all.filter((e): e is [string, CborValue] => e[1] !== undefined);
    this.head(5, entries.length);
    for (const [k, x] of entries) this.text(k).value(x);
    return this;
  }

  raw(...bytes: number[]): this {
    this.ensure(bytes.length);
    for (const b of bytes) this.buf[this.len++] = b;
    return this;
  }

  append(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    return this;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

const encoder = new TextEncoder();

const f32View = new DataView(new ArrayBuffer(4));

/** The IEEE half-precision bits of `value` when it converts exactly, else null. */
export function numberToHalf(value: number): number | null {
  if (Number.isNaN(value)) return 0x7e00;
  if (Math.fround(value) !== value) return null;
  f32View.setFloat32(0, value);
  const bits = f32View.getUint32(0);
  const sign = (bits >>> 16) & 0x8000;
  const biased = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (biased === 0xff) return sign | 0x7c00; // infinities (NaN handled above)
  if (biased === 0) return mant === 0 ? sign : null; // zero; float32 subnormals are far below half's range
  const e = biased - 127;
  if (e > 15 || e < -24) return null;
  if (e >= -14) return mant & 0x1fff ? null : sign | ((e + 15) << 10) | (mant >>> 13);
  // Half subnormal: value = m * 2^-24 with m < 1024.
  const sig = mant | 0x800000;
  const shift = -(e + 1);
  return sig & ((1 << shift) - 1) ? null : sign | (sig >>> shift);
}
