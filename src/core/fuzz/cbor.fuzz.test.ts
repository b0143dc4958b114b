// The CBOR reader (readSingle, readItemAt, readSequence) under any bytes: never a throw, always an
// item or a coded error at an offset inside the input; every well-formed encoding (non-minimal heads,
// indefinite lengths, chunked strings, tags) reads back to exactly the value written, with spans
// that nest and cover the bytes; items before a broken one in a sequence are kept unchanged; the
// number of items read is at most the number of bytes; bombs fail fast.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readItemAt, readSequence, readSingle, type CborItem, type CborResult } from '../cbor/reader';
import {
  bounded,
  Bytes,
  CBOR_CODES,
  cat,
  encodeModel,
  floatValue,
  MINIMAL,
  modelArb,
  modelDepth,
  modelSize,
  must,
  params,
  same,
  styleArb,
  TIMEOUT,
  writeHead,
  type Model,
} from '../../../test/support/fuzz';

/** The reader's item as a model (encoding details dropped). */
function toModel(it: CborItem): Model {
  switch (it.kind) {
    case 'uint':
      return { t: 'uint', v: BigInt(it.value) };
    case 'nint':
      return { t: 'nint', v: BigInt(it.value) };
    case 'bytes':
      return { t: 'bytes', v: it.value };
    case 'text':
      return { t: 'text', v: it.value };
    case 'array':
      return { t: 'array', items: it.items.map(toModel) };
    case 'map':
      return { t: 'map', entries: it.entries.map((e) => [toModel(e.key), toModel(e.value)]) };
    case 'tag':
      return { t: 'tag', tag: BigInt(it.tag), item: toModel(it.item) };
    case 'simple':
      return { t: 'simple', v: it.value };
    case 'float':
      return { t: 'float', bits: -1n, width: it.width, value: it.value } as unknown as Model;
  }
}

/** The model as written, floats by value, so it compares with toModel. */
function expected(m: Model): unknown {
  switch (m.t) {
    case 'float':
      return { t: 'float', bits: -1n, width: m.width, value: floatValue(m.bits, m.width) };
    case 'array':
      return { t: 'array', items: m.items.map(expected) };
    case 'map':
      return { t: 'map', entries: m.entries.map(([k, v]) => [expected(k), expected(v)]) };
    case 'tag':
      return { t: 'tag', tag: m.tag, item: expected(m.item) };
    default:
      return m;
  }
}

/** Spans nest, children are in order inside their parent, and a definite string's content is its bytes. */
function checkSpans(it: CborItem, bytes: Uint8Array, lo: number, hi: number): number {
  must(it.start >= lo && it.end <= hi && it.start < it.end, `span [${it.start}, ${it.end}) outside [${lo}, ${hi})`);
  let count = 1;
  let at = it.start;
  const child = (c: CborItem) => {
    must(c.start >= at, `child at ${c.start} before ${at}`);
    count += checkSpans(c, bytes, it.start, it.end);
    at = c.end;
  };
  if (it.kind === 'array') for (const c of it.items) child(c);
  else if (it.kind === 'map')
    for (const e of it.entries) {
      child(e.key);
      child(e.value);
    }
  else if (it.kind === 'tag') child(it.item);
  else if ((it.kind === 'bytes' || it.kind === 'text') && !it.indefinite) {
    must(it.contentStart > it.start, 'content before the head');
    const content = bytes.subarray(it.contentStart, it.end);
    if (it.kind === 'bytes') must(Buffer.from(content).equals(Buffer.from(it.value)), 'byte string content differs from its span');
    else must(new TextDecoder('utf-8', { ignoreBOM: true }).decode(content) === it.value, 'text content differs from its span');
  }
  return count;
}

/** Whether every head was written minimally and every length definite (what `minimal` reports). */
function allMinimal(it: CborItem): boolean {
  if (!it.minimal) return false;
  if (it.kind === 'array') return it.items.every(allMinimal);
  if (it.kind === 'map') return it.entries.every((e) => allMinimal(e.key) && allMinimal(e.value));
  if (it.kind === 'tag') return allMinimal(it.item);
  return true;
}

function checkResult(r: CborResult<CborItem>, bytes: Uint8Array, where: string): void {
  if (r.ok) {
    const n = checkSpans(r.value, bytes, 0, bytes.length);
    // Bounded work: every item read stands for at least one byte of the input.
    must(n <= bytes.length, `${where}: ${n} items in ${bytes.length} bytes`);
  } else {
    must(CBOR_CODES.has(r.error.code), `${where}: ${r.error.code}`);
    must(r.error.offset >= 0 && r.error.offset <= bytes.length, `${where}: offset ${r.error.offset}`);
    must(!/unexpected failure/.test(r.error.message), `${where}: ${r.error.message}`);
  }
}

const shallow = modelArb(5).filter((m) => modelDepth(m) < 100);

describe('CBOR reader: any bytes', () => {
  it('random bytes: readSingle, readItemAt and readSequence never throw and give an item or a coded error', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), fc.nat(), (bytes, at) => {
        bounded('readSingle', () => checkResult(readSingle(bytes), bytes, 'readSingle'));
        const offset = bytes.length ? at % (bytes.length + 1) : 0;
        const r = readItemAt(bytes, offset);
        checkResult(r, bytes, 'readItemAt');
        if (r.ok) expect(r.value.start).toBe(offset);
        const seq = readSequence(bytes);
        let end = 0;
        for (const item of seq.items) {
          expect(item.start).toBe(end);
          end = item.end;
        }
        if (seq.error) {
          expect(CBOR_CODES.has(seq.error.code)).toBe(true);
          expect(seq.error.offset).toBeGreaterThanOrEqual(end);
        } else expect(end).toBe(bytes.length);
      }),
      params('cbor-random', 2),
    );
  });

  it('random bytes behind every head byte (0x00..0xff) never throw', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 64 }), (head, rest) => {
        const bytes = cat(Uint8Array.of(head), rest);
        checkResult(readSingle(bytes), bytes, 'head');
        checkResult(readItemAt(bytes, 0, { maxDepth: 3 }), bytes, 'head, depth 3');
      }),
      params('cbor-heads', 1),
    );
  });
});

describe('CBOR reader: well-formed encodings read back exactly', () => {
  it('minimal encodings: the value, minimal everywhere, spans cover the bytes', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(shallow, (m) => {
        const bytes = encodeModel(m, MINIMAL);
        const r = readSingle(bytes);
        if (!r.ok) throw new Error(`${r.error.code} at ${r.error.offset}: ${r.error.message}`);
        same(toModel(r.value), expected(m));
        expect(r.value.start).toBe(0);
        expect(r.value.end).toBe(bytes.length);
        expect(allMinimal(r.value)).toBe(true);
        checkResult(r, bytes, 'minimal');
      }),
      params('cbor-minimal', 1),
    );
  });

  it('any variant (wide heads, indefinite lengths, chunked strings): the same value, and minimal is false where the writer was not', {
    timeout: TIMEOUT,
  }, () => {
    fc.assert(
      fc.property(shallow, styleArb, (m, style) => {
        const bytes = encodeModel(m, style);
        const r = readSingle(bytes);
        if (!r.ok) throw new Error(`${r.error.code} at ${r.error.offset}: ${r.error.message}`);
        same(toModel(r.value), expected(m));
        checkResult(r, bytes, 'variant');
        const minimalBytes = encodeModel(m, MINIMAL);
        if (allMinimal(r.value)) expect(bytes).toEqual(minimalBytes);
        else expect(bytes).not.toEqual(minimalBytes);
      }),
      params('cbor-variants', 1),
    );
  });

  it('a sequence of items then garbage: every item before the garbage is read unchanged', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(shallow, styleArb), { minLength: 1, maxLength: 4 }), fc.uint8Array({ maxLength: 40 }), (parts, garbage) => {
        const encoded = parts.map(([m, s]) => encodeModel(m, s));
        const bytes = cat(...encoded, garbage);
        const seq = readSequence(bytes);
        expect(seq.items.length).toBeGreaterThanOrEqual(parts.length);
        let at = 0;
        parts.forEach(([m], i) => {
          same(toModel(seq.items[i]), expected(m));
          expect(seq.items[i].start).toBe(at);
          at += encoded[i].length;
          expect(seq.items[i].end).toBe(at);
          // Each item also reads on its own at its offset, whatever follows it.
          const alone = readItemAt(bytes, seq.items[i].start);
          expect(alone.ok && toModel(alone.value)).toEqual(expected(m));
        });
        if (garbage.length === 0) expect(seq.error).toBeNull();
        // readSingle insists on one item: more is trailing bytes.
        const single = readSingle(bytes);
        if (parts.length > 1 || garbage.length > 0) {
          expect(single.ok).toBe(false);
          if (!single.ok && parts.length > 1) expect(single.error.code).toBe('cbor/trailing-bytes');
        }
      }),
      params('cbor-sequence', 0.5),
    );
  });

  it('every truncation of a well-formed item is cbor/truncated (or too-large for a length bomb), never a value', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(shallow, styleArb, fc.nat(), (m, style, cut) => {
        const bytes = encodeModel(m, style);
        const at = cut % bytes.length;
        const r = readSingle(bytes.subarray(0, at));
        expect(r.ok).toBe(false);
        // A cut makes a head, a string's content or an item missing: truncated (too-large only past 256 MiB).
        if (!r.ok) expect(r.error.code).toBe('cbor/truncated');
      }),
      params('cbor-truncate', 1),
    );
  });
});

describe('CBOR reader: bombs and limits', () => {
  it('declared lengths beyond the input fail at once with too-large or truncated, whatever the length', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(2, 3, 4, 5),
        fc.bigInt({ min: 1n, max: 2n ** 64n - 1n }),
        fc.integer({ min: 0, max: 3 }),
        fc.uint8Array({ maxLength: 16 }),
        (major, len, widen, rest) => {
          const w = new Bytes();
          writeHead(w, major, len, widen);
          const bytes = cat(w.finish(), rest);
          const r = bounded('bomb', () => readSingle(bytes));
          const unit = major === 5 ? 2n : 1n;
          if (len * unit > BigInt(rest.length)) {
            expect(r.ok).toBe(false);
            if (!r.ok) expect(['cbor/too-large', 'cbor/truncated', 'cbor/invalid', 'cbor/trailing-bytes']).toContain(r.error.code);
            if (!r.ok && len > 256n * 1024n * 1024n) expect(r.error.code).toBe('cbor/too-large');
          }
          checkResult(r, bytes, 'bomb');
        },
      ),
      params('cbor-bombs', 1),
    );
  });

  it('nesting beyond maxDepth is cbor/too-deep for arrays, maps, tags and indefinite containers mixed', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0x81, 0x9f, 0xa1, 0xbf, 0xc1, 0xd8), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 129, max: 3000 }),
        (pattern, depth) => {
          const parts: number[] = [];
          for (let i = 0; i < depth; i++) {
            const h = pattern[i % pattern.length];
            if (h === 0xa1 || h === 0xbf)
              parts.push(h, 0x00); // a map: key 0, the value nests
            else if (h === 0xd8) parts.push(0xd8, 0x40);
            else parts.push(h);
          }
          parts.push(0x00);
          const bytes = Uint8Array.from(parts);
          const r = bounded('depth', () => readSingle(bytes));
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.error.code).toBe('cbor/too-deep');
        },
      ),
      params('cbor-depth', 0.1),
    );
  });

  it('exactly maxDepth levels read; one more is too deep (custom limits too)', () => {
    for (const max of [1, 2, 16, 128]) {
      const ok = new Uint8Array(max + 1).fill(0x81);
      ok[max] = 0x00;
      expect(readSingle(ok, { maxDepth: max }).ok, `depth ${max}`).toBe(true);
      const deep = new Uint8Array(max + 2).fill(0x81);
      deep[max + 1] = 0x00;
      const r = readSingle(deep, { maxDepth: max });
      expect(r.ok || r.error.code, `depth ${max} + 1`).toBe('cbor/too-deep');
    }
  });

  it('100,000 nested arrays and a map declaring 2^31 entries fail fast', { timeout: TIMEOUT }, () => {
    const deep = new Uint8Array(100_000).fill(0x81);
    const r1 = bounded('deep', () => readSingle(deep));
    expect(r1.ok || r1.error.code).toBe('cbor/too-deep');
    const huge = Uint8Array.of(0xba, 0x80, 0x00, 0x00, 0x00, 0x61, 0x61, 0x01);
    const r2 = bounded('huge map', () => readSingle(huge));
    expect(r2.ok || r2.error.code).toBe('cbor/too-large');
    // An array claiming 2^32 entries in a 64-bit head.
    const arr = Uint8Array.of(0x9b, 0, 0, 0, 1, 0, 0, 0, 0, 0x00);
    const r3 = bounded('huge array', () => readSingle(arr));
    expect(r3.ok || r3.error.code).toBe('cbor/too-large');
  });

  it('a real map of 100,000 entries reads in linear time', { timeout: TIMEOUT }, () => {
    const w = new Bytes();
    writeHead(w, 5, 100_000n);
    for (let i = 0; i < 100_000; i++) {
      writeHead(w, 0, BigInt(i));
      w.push(0xf6);
    }
    const bytes = w.finish();
    // Past the item cap by default (200,001 items), refused at the head; without the cap, read in linear time.
    expect(bounded('big map, capped', () => readSingle(bytes))).toMatchObject({ ok: false, error: { code: 'cbor/too-many-items', offset: 0 } });
    const r = bounded('big map', () => readSingle(bytes, { maxItems: Infinity }));
    expect(r.ok && r.value.kind === 'map' && r.value.entries.length).toBe(100_000);
  });

  it('the item cap refuses an item exactly when it holds more items than the cap, whatever the encoding', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(modelArb(4), fc.oneof(styleArb, fc.constant(MINIMAL)), (m, style) => {
        const bytes = encodeModel(m, style);
        const whole = readSingle(bytes, { maxItems: Infinity });
        must(whole.ok, 'a well-formed encoding reads');
        // The smallest cap that accepts the item is its count: every cap below refuses, every cap from it on reads the same item.
        let least = -1;
        for (let cap = 0; cap <= bytes.length; cap++) {
          const r = readSingle(bytes, { maxItems: cap });
          if (least < 0 && r.ok) least = cap;
          if (least < 0) must(!r.ok && r.error.code === 'cbor/too-many-items', `cap ${cap}: ${r.ok || r.error.code}`);
          else same(r, whole, `cap ${cap}`);
        }
        // Items are the model's (a map entry two, a tag and its content two), plus the chunks of indefinite strings.
        must(least >= modelSize(m) && least <= bytes.length, `least ${least}, model ${modelSize(m)}, bytes ${bytes.length}`);
        if (style === MINIMAL) must(least === modelSize(m), `minimal: least ${least} != model ${modelSize(m)}`);
      }),
      params('cbor-item-cap', 0.2),
    );
  });

  it('text with surrogate code points written as CESU-8 (ed a0 80) or overlong forms is cbor/invalid, never a lone surrogate', () => {
    for (const content of [
      [0xed, 0xa0, 0x80],
      [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80],
      [0xc0, 0x80],
      [0xe0, 0x80, 0xaf],
      [0xf4, 0x90, 0x80, 0x80],
      [0xff],
      [0x80],
    ]) {
      for (const long of [false, true]) {
        // Short texts take the reader's fast ASCII path; long ones the decoder: both must refuse.
        const body = long ? [...new Array(40).fill(0x61), ...content] : content;
        const bytes = Uint8Array.from([0x78, body.length, ...body]);
        const r = readSingle(bytes);
        expect(r.ok || r.error.code, `${content} long=${long}`).toBe('cbor/invalid');
        // The same bytes in a chunk of an indefinite text.
        const chunked = Uint8Array.from([0x7f, 0x78, body.length, ...body, 0xff]);
        const c = readSingle(chunked);
        expect(c.ok || c.error.code, `chunked ${content}`).toBe('cbor/invalid');
      }
    }
  });

  it('a UTF-8 character split across two chunks of an indefinite text is invalid (each chunk must be valid UTF-8)', () => {
    const r = readSingle(Uint8Array.from([0x7f, 0x61, 0xc3, 0x61, 0xa9, 0xff]));
    expect(r.ok || r.error.code).toBe('cbor/invalid');
  });
});
