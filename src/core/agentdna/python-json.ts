// Python's `json.dumps(obj, sort_keys=True, separators=(",", ":"))` (ensure_ascii=True), byte for
// byte, over values read by the lossless JSON reader — the serialization AgentDNA hashes and signs.
//
// What Python does, and this reproduces:
// - keys sorted by code point (Python str order), which is not JavaScript's UTF-16 order for
//   characters beyond the BMP; duplicate keys: json.loads keeps the last value;
// - every character outside 0x20–0x7E written \uXXXX in lower-case hex, astral characters as a
//   surrogate pair, lone surrogates as themselves; short escapes \" \\ \n \r \t \b \f; '/' as is;
// - integers (no '.', no exponent in their source) as Python ints, any size;
// - other numbers as Python floats printed by float.__repr__ (shortest round-trip digits,
//   exponent form when the decimal exponent is < -4 or >= 16, at least two exponent digits with a
//   sign), `-0.0`, and `Infinity` / `-Infinity` for literals that overflow a double.
import type { JsonValue } from '../json/lossless';

/** A Python dict built by hand (the content dict, the parents dict): keys in any order. */
export class PyDict {
  constructor(readonly entries: ReadonlyArray<readonly [string, PyValue]>) {}
}

/** A value Python would dump: a lossless JSON value, or one built from JS scalars, arrays and PyDicts. */
export type PyValue = JsonValue | PyDict | PyValue[] | string | bigint | boolean | null;

function isJsonValue(v: object): v is JsonValue {
  return 'type' in v && 'start' in v && 'end' in v;
}

/** Python str ordering: by code point. JS `<` compares UTF-16 code units, which misorders U+E000–U+FFFF against astral characters. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only when one side is a surrogate can code-unit order differ from code-point order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (!xs && !ys) return x - y;
    return (a.codePointAt(i) ?? x) - (b.codePointAt(i) ?? y);
  }
  return a.length - b.length;
}

const HEX4 = (u: number) => u.toString(16).padStart(4, '0');

/** A JSON string literal as Python writes it with ensure_ascii=True. */
export function pyString(s: string): string {
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    if (i > runStart) out += s.slice(runStart, i);
    runStart = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      default:
        out += '\\u' + HEX4(c); // each UTF-16 unit: astral → surrogate pair, lone surrogate → itself
    }
  }
  if (runStart < s.length) out += s.slice(runStart);
  return out + '"';
}

/** Python's repr of a float (what json.dumps writes for it). */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest digits that round-trip, like repr.
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(x).toExponential());
  if (!m) return sign + String(Math.abs(x)); // unreachable for finite numbers
  const digits = m[1] + (m[2] ?? '');
  const exp = parseInt(m[3], 10); // x = d.ddd × 10^exp
  if (exp < -4 || exp >= 16) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' + e : e}`;
  }
  const decpt = exp + 1; // digits before the decimal point
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** A JSON number from its source text, as Python re-prints the value json.loads made of it. */
export function pyNumber(text: string, isInteger: boolean, big: bigint | null): string {
  if (isInteger) return (big ?? BigInt(text)).toString(); // "-0" → 0, as int("-0")
  return pyFloatRepr(Number(text));
}

function sortedEntries<T>(entries: ReadonlyArray<readonly [string, T]>): Array<readonly [string, T]> {
  // json.loads: the last duplicate wins. Keep each key's last value, then sort by code point.
  const last = new Map<string, T>();
  for (const [k, v] of entries) last.set(k, v);
  return [...last.entries()].sort((a, b) => compareCodePoints(a[0], b[0]));
}

function dump(v: PyValue, out: string[]): void {
  if (v === null) {
    out.push('null');
    return;
  }
  switch (typeof v) {
    case 'string':
      out.push(pyString(v));
      return;
    case 'bigint':
      out.push(v.toString());
      return;
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
  }
  if (Array.isArray(v)) {
    out.push('[');
    v.forEach((item, i) => {
      if (i > 0) out.push(',');
      dump(item, out);
    });
    out.push(']');
    return;
  }
  if (v instanceof PyDict) {
    out.push('{');
    sortedEntries(v.entries).forEach(([k, item], i) => {
      if (i > 0) out.push(',');
      out.push(pyString(k), ':');
      dump(item, out);
    });
    out.push('}');
    return;
  }
  if (!isJsonValue(v)) throw new TypeError('pythonDumps: not a JSON value');
  switch (v.type) {
    case 'null':
      out.push('null');
      return;
    case 'bool':
      out.push(v.value ? 'true' : 'false');
      return;
    case 'string':
      out.push(pyString(v.value));
      return;
    case 'number':
      out.push(pyNumber(v.text, v.isInteger, v.big));
      return;
    case 'array':
      dump(v.items, out);
      return;
    case 'object':
      dump(new PyDict(v.entries.map((e) => [e.key, e.value] as const)), out);
      return;
  }
}

/** `json.dumps(value, sort_keys=True, separators=(",", ":"))`: ASCII only, so also its UTF-8 bytes. */
export function pythonDumps(value: PyValue): string {
  const out: string[] = [];
  dump(value, out);
  return out.join('');
}
