// The lossless JSON reader (readJson, toPlain) against JSON.parse: on any bytes it never throws,
// accepts exactly what JSON.parse accepts on well-formed UTF-8 (and refuses ill-formed UTF-8), gives
// the same values (integers beyond 2^53 exactly, as bigint), keeps `__proto__` and `constructor` as
// own data, gives spans whose bytes re-read as the same value, and fails at an offset in the input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJson, toPlain, type JsonValue } from '../json/lossless';
import { bounded, hostileString, params, TIMEOUT, utf8 } from '../../../test/support/fuzz';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** toPlain's value with its exact big integers rounded to numbers, as JSON.parse has them. */
function rounded(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(rounded);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: rounded(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

const parseExact = (text: string) => JSON.parse(text) as unknown;

/** JSON.parse's verdict on bytes, or 'bad-utf8'. A leading BOM is skipped, as readJson does. */
function reference(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; why: string } {
  let text: string;
  try {
    text = strict.decode(bytes);
  } catch {
    return { ok: false, why: 'bad-utf8' };
  }
  if (text.startsWith('\ufeff')) text = text.slice(1);
  try {
    return { ok: true, value: parseExact(text) };
  } catch (e) {
    return { ok: false, why: (e as Error).message };
  }
}

/** A JSON value written as text with hostile keys and strings, big integers and every number form. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    hostileString.map((s) => JSON.stringify(s)),
    fc.constantFrom('"\\ud800"', '"\\udc00x"', '"\\ud83d\\ude00"', '"\\u0000"', '"\\/"', '"\\b\\f\\n\\r\\t"', '""'),
    fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => String(d)),
      fc.bigInt().map(String),
      fc.constantFrom('-0', '0.0', '1e400', '-1e400', '1E+2', '5e-324', '18446744073709551616', '-9007199254740993', '1.0'),
    ),
    fc.constantFrom('true', 'false', 'null'),
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype')), tie('value')), { maxLength: 5 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

/** Inserts JSON whitespace after , : [ { outside strings. */
function withSpaces(text: string, ws: string): string {
  if (!ws) return text;
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    out += c;
    if (inString) {
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',' || c === ':' || c === '[' || c === '{') out += ws;
  }
  return out;
}

function walk(v: JsonValue, visit: (v: JsonValue) => void): void {
  const stack = [v];
  while (stack.length) {
    const x = stack.pop()!;
    visit(x);
    if (x.type === 'array') stack.push(...x.items);
    if (x.type === 'object') stack.push(...x.entries.map((e) => e.value));
  }
}

function sameAsParse(bytes: Uint8Array, where: string): void {
  const mine = bounded('readJson', () => readJson(bytes));
  const ref = reference(bytes);
  if (!mine.ok) {
    expect(['json/invalid', 'json/too-deep']).toContain(mine.error.code);
    expect(mine.error.offset, where).toBeGreaterThanOrEqual(0);
    expect(mine.error.offset, where).toBeLessThanOrEqual(bytes.length);
  }
  if (ref.ok !== mine.ok) {
    // The only allowed disagreement: nesting deeper than readJson's limit.
    expect(mine.ok || mine.error.code, `${where}: JSON.parse ${ref.ok ? 'accepts' : `refuses (${(ref as { why: string }).why})`}`).toBe('json/too-deep');
    return;
  }
  if (!mine.ok || !ref.ok) return;
  expect(rounded(toPlain(mine.value)), where).toEqual(ref.value);
  // Every value's span re-reads, alone, as the same value; integers keep their exact value.
  walk(mine.value, (v) => {
    if (v.type === 'number') {
      expect(v.text, where).toBe(new TextDecoder().decode(bytes.subarray(v.start, v.end)));
      if (v.isInteger) expect(v.big, where).toBe(BigInt(v.text));
      else expect(v.big, where).toBeNull();
      expect(Object.is(v.value, Number(v.text)), where).toBe(true);
    }
    expect(v.start).toBeGreaterThanOrEqual(0);
    expect(v.end).toBeLessThanOrEqual(bytes.length);
    const again = readJson(bytes.subarray(v.start, v.end));
    expect(again.ok, `${where}: span ${v.start}..${v.end}`).toBe(true);
    if (again.ok) expect(toPlain(again.value)).toEqual(toPlain(v));
    if (v.type === 'object') {
      for (const e of v.entries) {
        const key = readJson(bytes.subarray(e.keyStart, e.keyEnd));
        expect(key.ok && key.value.type === 'string' && key.value.value, `${where}: key span`).toBe(e.key);
      }
    }
  });
}

describe('readJson against JSON.parse', () => {
  it('generated documents (hostile keys and strings, big integers, every number form) read as JSON.parse reads them', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(jsonText, fc.constantFrom('', ' ', '\n\t', '\r\n  '), fc.boolean(), (text, ws, bom) => {
        const bytes = utf8((bom ? '\ufeff' : '') + ws + withSpaces(text, ws) + ws);
        sameAsParse(bytes, text);
      }),
      params('json-generated', 1),
    );
  });

  it('documents with bytes changed, inserted, removed or cut: the same verdict as JSON.parse (bad UTF-8 refused)', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        jsonText,
        fc.array(fc.tuple(fc.constantFrom('set', 'insert', 'delete', 'cut'), fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }),
        (text, ops) => {
          const bytes = Array.from(utf8(text));
          for (const [op, pos, value] of ops) {
            const at = bytes.length ? pos % bytes.length : 0;
            if (op === 'set' && bytes.length) bytes[at] = value;
            else if (op === 'insert') bytes.splice(at, 0, value);
            else if (op === 'delete') bytes.splice(at, 1);
            else bytes.length = at;
          }
          sameAsParse(Uint8Array.from(bytes), text);
        },
      ),
      params('json-mutated', 1),
    );
  });

  it('random bytes never throw: a value or json/invalid at an offset inside the input', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        sameAsParse(bytes, 'random');
      }),
      params('json-random', 1),
    );
  });

  it('an ill-formed UTF-8 sequence after well-formed multi-byte text fails exactly there (the decoded-once fast path stays exact)', {
    timeout: TIMEOUT,
  }, () => {
    const bad = fc.constantFrom([0x80], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff], [0xe2, 0x82]);
    fc.assert(
      fc.property(fc.array(hostileString, { minLength: 1, maxLength: 4 }), fc.nat(), bad, (strings, k, junk) => {
        const texts = strings.map((s) => JSON.stringify(s));
        const which = k % texts.length;
        const before = utf8(
          `[${texts
            .slice(0, which)
            .map((t) => t + ',')
            .join('')}`,
        );
        const inner = utf8(texts[which]);
        // The bad bytes go just before the closing quote of one string.
        const at = before.length + inner.length - 1;
        const bytes = new Uint8Array([...before, ...inner.subarray(0, inner.length - 1), ...junk, 0x22, 0x5d]);
        const r = readJson(bytes);
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(r.error.code).toBe('json/invalid');
          expect(r.error.offset).toBe(at);
        }
      }),
      params('json-bad-utf8', 0.5),
    );
  });
});

describe('toPlain keeps every key as own data', () => {
  it('__proto__, constructor and prototype keys stay own properties; no prototype changes', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'a'), jsonText), {
          minLength: 1,
          maxLength: 6,
        }),
        (entries) => {
          const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
          const r = readJson(utf8(text));
          if (!r.ok) throw new Error(r.error.message);
          const plain = toPlain(r.value) as Record<string, unknown>;
          expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
          const last = new Map(entries);
          expect(Object.keys(plain).sort()).toEqual([...last.keys()].sort());
          for (const k of last.keys()) expect(Object.hasOwn(plain, k), k).toBe(true);
          expect(rounded(plain)).toEqual(parseExact(text));
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      params('json-proto', 0.5),
    );
  });
});

describe('JSON bombs', () => {
  it('deep nesting (up to 100,000 levels of [ and {) is json/too-deep, fast, for any mix', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('[', '{"a":', '[1,', '{"__proto__":'), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 513, max: 100_000 }),
        (pattern, depth) => {
          let text = '';
          for (let i = 0; i < depth; i++) text += pattern[i % pattern.length];
          const r = bounded('deep JSON', () => readJson(utf8(text)));
          expect(r.ok || r.error.code).toBe('json/too-deep');
        },
      ),
      params('json-deep', 0.01, 5),
    );
  });

  it('integers: 4,300 digits read exactly; 4,301 digits are json/invalid at the number (as Python refuses them); 100 MB of digits fail at once', {
    timeout: TIMEOUT,
  }, () => {
    const ok = '9'.repeat(4300);
    const r1 = readJson(utf8(`[-${ok}]`));
    expect(r1.ok && r1.value.type === 'array' && r1.value.items[0].type === 'number' && r1.value.items[0].big).toBe(-BigInt(ok));
    const r2 = readJson(utf8(`{"epoch": ${ok}9}`));
    expect(r2.ok || r2.error).toMatchObject({ code: 'json/invalid', offset: 10 });
    // Floats of any length stay numbers (no bigint is made of them).
    expect(readJson(utf8(`[${ok}9.5, ${ok}9e1]`)).ok).toBe(true);
    const huge = new Uint8Array(100 * 1024 * 1024).fill(0x39);
    huge[0] = 0x5b; // [
    const r3 = bounded('a 100 MB integer', () => readJson(huge));
    expect(r3.ok || r3.error.code).toBe('json/invalid');
  });

  it('a 100 MB string reads, with the right length and spans, in bounded time', { timeout: TIMEOUT }, () => {
    const n = 100 * 1024 * 1024;
    const bytes = new Uint8Array(n + 4);
    bytes.fill(0x61);
    bytes[0] = 0x5b; // [
    bytes[1] = 0x22; // "
    bytes[n + 2] = 0x22;
    bytes[n + 3] = 0x5d; // ]
    const r = bounded('100 MB string', () => readJson(bytes), 20_000);
    expect(r.ok).toBe(true);
    if (r.ok && r.value.type === 'array') {
      const s = r.value.items[0];
      expect(s.type).toBe('string');
      if (s.type === 'string') expect(s.value.length).toBe(n);
      expect([s.start, s.end]).toEqual([1, n + 3]);
    }
  });
});
