import { describe, expect, it } from 'vitest';
import { getMember, readJson, toPlain, type JsonError, type JsonValue } from './lossless';

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

function read(text: string | Uint8Array, maxDepth?: number): JsonValue {
  const bytes = typeof text === 'string' ? enc.encode(text) : text;
  const r = readJson(bytes, maxDepth === undefined ? undefined : { maxDepth });
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
}

function fail(text: string | Uint8Array, maxDepth?: number): JsonError {
  const bytes = typeof text === 'string' ? enc.encode(text) : text;
  const r = readJson(bytes, maxDepth === undefined ? undefined : { maxDepth });
  if (r.ok) throw new Error(`expected an error for ${JSON.stringify(text)}`);
  return r.error;
}

/** Byte offset of the first occurrence of `needle` in `text` (after `from` characters). */
function byteOffset(text: string, needle: string, from = 0): number {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`${needle} not in text`);
  return enc.encode(text.slice(0, at)).length;
}

/** Every value and key in the tree, depth first. */
function walk(v: JsonValue, visit: (v: JsonValue) => void, visitKey: (key: string, s: number, e: number) => void): void {
  visit(v);
  if (v.type === 'array') for (const item of v.items) walk(item, visit, visitKey);
  if (v.type === 'object') {
    for (const e of v.entries) {
      visitKey(e.key, e.keyStart, e.keyEnd);
      walk(e.value, visit, visitKey);
    }
  }
}

function asNumber(v: JsonValue | undefined) {
  if (v?.type !== 'number') throw new Error('not a number');
  return v;
}

describe('readJson: values and spans', () => {
  const text =
    '\n { "naïve" : "日本語 😀",\t"list": [1, {"x": "é", "y": [true, false, null]}, [], {}],\r\n' +
    '  "n": -1.5e3, "emoji😀key": {"deep": [["ünï", 0]]}, "esc": "a\\n\\u00e9" } \n';
  const bytes = enc.encode(text);
  const root = read(bytes);

  it('gives byte spans whose bytes are exactly the source text of each value', () => {
    let count = 0;
    walk(
      root,
      (v) => {
        count++;
        const slice = dec.decode(bytes.subarray(v.start, v.end));
        // no surrounding whitespace, and the slice alone is the same JSON value
        expect(slice.trim()).toBe(slice);
        expect(JSON.parse(slice)).toEqual(toPlain(v));
        const again = readJson(bytes.subarray(v.start, v.end));
        expect(again.ok).toBe(true);
      },
      (key, s, e) => {
        expect(dec.decode(bytes.subarray(s, e))).toBe(JSON.stringify(key));
      },
    );
    expect(count).toBe(19);
  });

  it('uses byte offsets, not UTF-16 offsets, after multi-byte characters', () => {
    expect(root.type).toBe('object');
    expect(root.start).toBe(byteOffset(text, '{'));
    expect(root.end).toBe(byteOffset(text, '} \n') + 1);

    const list = getMember(root, 'list')!;
    expect(list.start).toBe(byteOffset(text, '[1,'));
    expect(dec.decode(bytes.subarray(list.start, list.end))).toBe('[1, {"x": "é", "y": [true, false, null]}, [], {}]');

    const inner = list.type === 'array' ? list.items[1] : undefined;
    expect(inner && dec.decode(bytes.subarray(inner.start, inner.end))).toBe('{"x": "é", "y": [true, false, null]}');
    const y = getMember(inner!, 'y')!;
    expect(y.start).toBe(byteOffset(text, '[true'));
    expect(dec.decode(bytes.subarray(y.start, y.end))).toBe('[true, false, null]');

    const naive = getMember(root, 'naïve')!;
    expect(naive).toMatchObject({ type: 'string', value: '日本語 😀' });
    expect(naive.start).toBe(byteOffset(text, '"日本語'));
    expect(naive.end - naive.start).toBe(enc.encode('"日本語 😀"').length);

    const deep = getMember(getMember(root, 'emoji😀key')!, 'deep')!;
    expect(deep.start).toBe(byteOffset(text, '[["ünï"'));
    expect(dec.decode(bytes.subarray(deep.start, deep.end))).toBe('[["ünï", 0]]');

    const n = asNumber(getMember(root, 'n'));
    expect(n.start).toBe(byteOffset(text, '-1.5e3'));
    expect(n.text).toBe('-1.5e3');
    expect(n.value).toBe(-1500);

    const esc = getMember(root, 'esc')!;
    expect(esc).toMatchObject({ type: 'string', value: 'a\né' });
    expect(dec.decode(bytes.subarray(esc.start, esc.end))).toBe('"a\\n\\u00e9"');
  });

  it('keeps the key spans, including quotes', () => {
    if (root.type !== 'object') throw new Error('object expected');
    const e = root.entries[0];
    expect(e.key).toBe('naïve');
    expect(e.keyStart).toBe(byteOffset(text, '"naïve"'));
    expect(e.keyEnd).toBe(e.keyStart + enc.encode('"naïve"').length);
  });

  it('reads offsets relative to the view it was given', () => {
    const backing = enc.encode('xxxx[1, "é", 2]yyyy');
    const view = backing.subarray(4, backing.length - 4);
    const v = read(view);
    expect(v).toMatchObject({ type: 'array', start: 0, end: view.length });
    if (v.type !== 'array') throw new Error();
    expect(v.items[2]).toMatchObject({ type: 'number', start: view.length - 2, end: view.length - 1 });
  });

  it('reads scalars at the top level and all four whitespace characters', () => {
    expect(read(' \t\r\n"x" \t\r\n')).toEqual({ type: 'string', start: 4, end: 7, value: 'x' });
    expect(read('true')).toEqual({ type: 'bool', start: 0, end: 4, value: true });
    expect(read('false')).toEqual({ type: 'bool', start: 0, end: 5, value: false });
    expect(read('null')).toEqual({ type: 'null', start: 0, end: 4 });
    expect(read('""')).toEqual({ type: 'string', start: 0, end: 2, value: '' });
    expect(read('[]')).toEqual({ type: 'array', start: 0, end: 2, items: [] });
    expect(read('{ }')).toEqual({ type: 'object', start: 0, end: 3, entries: [] });
  });

  it('agrees with JSON.parse on an ordinary document', () => {
    const doc = {
      a: [1, -2, 3.25, 1e-7, 0, -0.5, 'x', null, true, false, { b: {} }, []],
      ключ: 'значение',
      s: 'tab\there "quoted" back\\slash /slash \u0001 \u2028 😀',
      nested: { list: [[[{ z: 'é' }]]] },
    };
    const text2 = JSON.stringify(doc, null, 2);
    expect(toPlain(read(text2))).toEqual(JSON.parse(text2));
  });
});

describe('readJson: numbers', () => {
  it('keeps integers beyond 2^53 exactly as bigint', () => {
    const root = read('{"id":340282366920938463463374607431768211455}');
    const id = asNumber(getMember(root, 'id'));
    expect(id.text).toBe('340282366920938463463374607431768211455');
    expect(id.isInteger).toBe(true);
    expect(id.big).toBe(340282366920938463463374607431768211455n);
    expect(id.value).toBe(Number('340282366920938463463374607431768211455'));
    expect((toPlain(root) as { id: unknown }).id).toBe(340282366920938463463374607431768211455n);
  });

  it('switches to bigint in toPlain exactly outside the safe range', () => {
    const v = read('[9007199254740991, 9007199254740992, 9007199254740993, -9007199254740991, -9007199254740993, 12]');
    expect(toPlain(v)).toEqual([9007199254740991, 9007199254740992n, 9007199254740993n, -9007199254740991, -9007199254740993n, 12]);
    if (v.type !== 'array') throw new Error();
    expect(v.items.map((x) => (x.type === 'number' ? x.big : undefined))).toEqual([
      9007199254740991n,
      9007199254740992n,
      9007199254740993n,
      -9007199254740991n,
      -9007199254740993n,
      12n,
    ]);
  });

  it('keeps the source text of every number form', () => {
    const cases: Array<[string, boolean, number]> = [
      ['1.0', false, 1],
      ['1e5', false, 1e5],
      ['1E+5', false, 1e5],
      ['-0.0e-0', false, -0],
      ['0', true, 0],
      ['-0', true, -0],
      ['10', true, 10],
      ['123.456e-789', false, 0],
      ['1e400', false, Infinity],
      ['0.1', false, 0.1],
    ];
    for (const [text, isInteger, value] of cases) {
      const n = asNumber(read(text));
      expect(n.text).toBe(text);
      expect(n.isInteger).toBe(isInteger);
      expect(Object.is(n.value, value)).toBe(true);
      expect(n.big).toBe(isInteger ? BigInt(text) : null);
      expect(n.end - n.start).toBe(text.length);
    }
    const one = asNumber(getMember(read('{"v": 1.0}'), 'v'));
    expect(one).toEqual({ type: 'number', start: 6, end: 9, text: '1.0', isInteger: false, value: 1, big: null });
  });

  it('ends numbers at the next structural character', () => {
    const v = read('[1,-2.5e+3,0]');
    if (v.type !== 'array') throw new Error();
    expect(v.items.map((x) => (x.type === 'number' ? [x.text, x.start, x.end] : null))).toEqual([
      ['1', 1, 2],
      ['-2.5e+3', 3, 10],
      ['0', 11, 12],
    ]);
  });
});

describe('readJson: objects', () => {
  it('keeps duplicate keys in source order; getMember gives the first', () => {
    const root = read('{"a":1,"b":2,"a":3,"a":{"x":true}}');
    if (root.type !== 'object') throw new Error();
    expect(root.entries.map((e) => e.key)).toEqual(['a', 'b', 'a', 'a']);
    expect(asNumber(getMember(root, 'a')).value).toBe(1);
    expect(getMember(root, 'missing')).toBeUndefined();
    // toPlain: last one wins, as JSON.parse does
    expect(toPlain(root)).toEqual({ a: { x: true }, b: 2 });
  });

  it('getMember is undefined for anything but an object', () => {
    expect(getMember(read('[{"a":1}]'), 'a')).toBeUndefined();
    expect(getMember(read('"a"'), 'a')).toBeUndefined();
    expect(getMember(read('{"length":1}'), 'length')).toBeDefined();
    expect(getMember(read('{}'), 'toString')).toBeUndefined();
    expect(getMember(read('{}'), '__proto__')).toBeUndefined();
  });

  it('treats __proto__ and constructor as plain keys and never pollutes a prototype', () => {
    const root = read(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted2":true}},' + '"list":[{"__proto__":[1]}],"toString":"s","hasOwnProperty":1}',
    );
    if (root.type !== 'object') throw new Error();
    expect(root.entries.map((e) => e.key)).toEqual(['__proto__', 'constructor', 'list', 'toString', 'hasOwnProperty']);
    expect(getMember(root, '__proto__')?.type).toBe('object');

    const plain = toPlain(root) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.hasOwn(plain, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(plain, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.keys(plain)).toEqual(['__proto__', 'constructor', 'list', 'toString', 'hasOwnProperty']);
    expect(plain.constructor).toEqual({ prototype: { polluted2: true } });
    expect(plain.toString).toBe('s');
    const inner = (plain.list as Record<string, unknown>[])[0];
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(inner, '__proto__')?.value).toEqual([1]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted2).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    // a duplicate __proto__ still stays an own property (last wins)
    const dup = toPlain(read('{"__proto__":1,"__proto__":{"p":2}}')) as object;
    expect(Object.getPrototypeOf(dup)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(dup, '__proto__')?.value).toEqual({ p: 2 });
  });
});

describe('readJson: strings', () => {
  const str = (json: string) => {
    const v = read(json);
    if (v.type !== 'string') throw new Error('string expected');
    return v.value;
  };

  it('decodes every escape', () => {
    expect(str('"\\" \\\\ \\/ \\b \\f \\n \\r \\t"')).toBe('" \\ / \b \f \n \r \t');
    expect(str('"\\u0041\\u00e9\\u00E9\\u4e2D\\u0000"')).toBe('Aéé中\u0000');
    expect(str('"before é \\n after 日本 😀 \\t end"')).toBe('before é \n after 日本 😀 \t end');
  });

  it('combines an escaped surrogate pair', () => {
    expect(str('"\\uD83D\\uDE00"')).toBe('😀');
    expect(str('"x\\ud83d\\ude00y"')).toBe('x😀y');
  });

  it('keeps a lone surrogate escape as one UTF-16 code unit', () => {
    const high = str('"\\uD800"');
    expect(high.length).toBe(1);
    expect(high.charCodeAt(0)).toBe(0xd800);
    const low = str('"a\\uDC00b"');
    expect([...low].map((c) => c.charCodeAt(0))).toEqual([0x61, 0xdc00, 0x62]);
    const notPair = str('"\\uD800\\u0041"');
    expect([notPair.charCodeAt(0), notPair.charCodeAt(1)]).toEqual([0xd800, 0x41]);
    const reversed = str('"\\uDE00\\uD83D"');
    expect([reversed.charCodeAt(0), reversed.charCodeAt(1)]).toEqual([0xde00, 0xd83d]);
    // followed by a raw 4-byte character: stays lone, the raw character stays whole
    const mixed = str('"\\uD800😀"');
    expect(mixed.length).toBe(3);
    expect(mixed.charCodeAt(0)).toBe(0xd800);
    expect(mixed.slice(1)).toBe('😀');
  });

  it('keeps U+FEFF inside strings (only a leading BOM of the input is skipped)', () => {
    expect(str('"\uFEFFx"')).toBe('\uFEFFx');
    expect(str('\uFEFF"\uFEFFx"')).toBe('\uFEFFx');
    expect(str('"\\uFEFFx"')).toBe('\uFEFFx');
  });

  it('reads long strings, with and without escapes', () => {
    const plainText = 'abcdefghij'.repeat(2000) + 'é'.repeat(3000) + '😀'.repeat(3000);
    expect(str(JSON.stringify(plainText))).toBe(plainText);
    const escaped = 'line\n"q"\té😀\\'.repeat(3000);
    expect(str(JSON.stringify(escaped))).toBe(escaped);
    const allEscapes = '\\u0041'.repeat(20000);
    expect(str(`"${allEscapes}"`)).toBe('A'.repeat(20000));
  });

  it('keeps offsets right after escaped strings with multi-byte characters', () => {
    const text = '["é\\n😀", "ü", 7]';
    const v = read(text);
    if (v.type !== 'array') throw new Error();
    expect(v.items.map((x) => (x.type === 'string' ? x.value : x.type === 'number' ? x.text : null))).toEqual(['é\n😀', 'ü', '7']);
    expect(v.items[1].start).toBe(byteOffset(text, '"ü"'));
    expect(v.items[2].start).toBe(byteOffset(text, '7'));
  });
});

describe('readJson: BOM', () => {
  it('skips a leading UTF-8 BOM, keeping offsets into the full bytes', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('{"a":"é","b":1}')]);
    const v = read(bytes);
    expect(v).toMatchObject({ type: 'object', start: 3, end: bytes.length });
    expect(getMember(v, 'a')).toMatchObject({ type: 'string', value: 'é' });
    const b = getMember(v, 'b')!;
    expect(dec.decode(bytes.subarray(b.start, b.end))).toBe('1');
    expect(read('\uFEFF 42 ')).toMatchObject({ type: 'number', start: 4, end: 6, text: '42' });
  });

  it('rejects a BOM alone, a second BOM, a BOM later on, and a partial BOM', () => {
    expect(fail('\uFEFF')).toMatchObject({ code: 'json/invalid', offset: 3 });
    expect(fail('\uFEFF\uFEFF1')).toMatchObject({ code: 'json/invalid', offset: 3 });
    expect(fail(' \uFEFF1')).toMatchObject({ code: 'json/invalid', offset: 1 });
    expect(fail('1\uFEFF')).toMatchObject({ code: 'json/invalid', offset: 1 });
    expect(fail(new Uint8Array([0xef, 0xbb, 0x31]))).toMatchObject({ code: 'json/invalid', offset: 0 });
  });
});

describe('readJson: ASCII texts sliced from one image of the input, the others decoded', () => {
  const texts = [
    '{"a":"é","b":[1,2.50,-0,1e400],"c":{"d":null,"e":"\\u00e9\\ud83d\\ude00 ✓ 😀"}}',
    '\uFEFF[1, "x", "\uFEFFy", "z"]',
    '{"日本":"x","k":"日本","ascii after":"plain","n":-12.5e3,"🙂":[true,false,null,"🙂🙂"]}',
    '["mixed ✓ then ascii", "ascii", "ascii then ✓", 1]',
  ];
  it('gives every string and key exactly and at its bytes, however ASCII and non-ASCII texts alternate', () => {
    for (const t of texts) {
      const bytes = enc.encode(t);
      const root = read(bytes);
      expect(toPlain(root), t).toEqual(JSON.parse(t.replace(/^\uFEFF/, '')));
      walk(
        root,
        (v) => {
          if (v.type === 'string' || v.type === 'number')
            expect(JSON.parse(dec.decode(bytes.subarray(v.start, v.end))), t).toEqual(v.type === 'string' ? v.value : Number(v.text));
        },
        (key, s, e) => expect(JSON.parse(dec.decode(bytes.subarray(s, e))), t).toBe(key),
      );
    }
  });
  it('reads ASCII texts beside a non-ASCII character wherever it falls in a four-byte word, and at the end', () => {
    // The ASCII image is made four bytes at a time, the last n % 4 bytes one at a time.
    for (let pad = 0; pad < 9; pad++) {
      for (const ch of ['é', '✓', '😀']) {
        const t = `["${'a'.repeat(pad)}${ch}", "b${'c'.repeat(pad)}", ${pad}, "${ch}"]`;
        expect(toPlain(read(enc.encode(t))), t).toEqual(JSON.parse(t));
        const tail = `["${'x'.repeat(pad)}","${ch}${'y'.repeat(pad % 4)}"]`;
        expect(toPlain(read(enc.encode(tail))), tail).toEqual(JSON.parse(tail));
      }
    }
  });
  it('reads a value inside a larger input (start, end) as it reads the same bytes alone', () => {
    for (const t of texts) {
      const inner = enc.encode(t.replace(/^\uFEFF/, ''));
      const outer = new Uint8Array(inner.length + 8);
      outer.set(enc.encode('é ✓ '), 0);
      outer.set(inner, 6);
      const alone = read(inner);
      const within = readJson(outer, { start: 6, end: 6 + inner.length });
      expect(within.ok && toPlain(within.value)).toEqual(toPlain(alone));
      expect(within.ok && within.value.end).toBe(alone.end + 6);
    }
  });
});

describe('readJson: malformed input', () => {
  // [input, offset, part of the message]
  const cases: Array<[string, number, string]> = [
    ['', 0, 'expected a JSON value, found end of input'],
    ['   ', 3, 'expected a JSON value'],
    ['{', 1, "expected a string key or '}'"],
    ['[', 1, "expected a JSON value or ']'"],
    ['[1,]', 3, 'trailing comma'],
    ['{"a":1,}', 7, 'trailing comma'],
    ['[,1]', 1, "expected a JSON value or ']'"],
    ['{,}', 1, "expected a string key or '}'"],
    ['{"a" 1}', 5, "expected ':' after object key"],
    ['{"a":1 "b":2}', 7, "expected ',' or '}' after object member"],
    ['{"a":1]', 6, "expected ',' or '}' after object member"],
    ['[1 2]', 3, "expected ',' or ']' after array element"],
    ['[1}', 2, "expected ',' or ']' after array element"],
    ['[1,2', 4, "expected ',' or ']' after array element, found end of input"],
    ['{"a":}', 5, "expected a JSON value after ':'"],
    ['{"a":1,"b"}', 10, "expected ':'"],
    ['[}', 1, "expected a JSON value or ']'"],
    ['{]', 1, "expected a string key or '}'"],
    ['{a:1}', 1, 'expected a string key'],
    ["{'a':1}", 1, 'single-quoted'],
    ["['a']", 1, 'single-quoted'],
    ['{"a":1,b:2}', 7, "expected a string key after ','"],
    ['{"a":1}}', 7, 'unexpected data after top-level value'],
    ['[1]x', 3, 'unexpected data after top-level value'],
    ['1 2', 2, 'unexpected data after top-level value'],
    ['null null', 5, 'unexpected data after top-level value'],
    ['[1] // c', 4, 'unexpected data after top-level value'],
    ['/* c */ 1', 0, 'comments'],
    ['[1, /* c */ 2]', 4, 'comments'],
    // numbers
    ['01', 1, 'leading zeros'],
    ['[-012]', 3, 'leading zeros'],
    ['-', 1, "expected a digit after '-'"],
    ['[-]', 2, "expected a digit after '-'"],
    ['- 1', 1, "expected a digit after '-'"],
    ['1.', 2, 'expected a digit after decimal point'],
    ['1.e5', 2, 'expected a digit after decimal point'],
    ['.5', 0, 'expected a JSON value'],
    ['1e', 2, 'expected a digit in exponent'],
    ['1e+', 3, 'expected a digit in exponent'],
    ['1E-x', 3, 'expected a digit in exponent'],
    ['+1', 0, 'expected a JSON value'],
    ['0x10', 1, 'unexpected data after top-level value'],
    ['NaN', 0, 'NaN'],
    ['Infinity', 0, 'Infinity'],
    ['-Infinity', 1, 'Infinity'],
    // literals
    ['tru', 3, "expected 'true'"],
    ['trUe', 2, "expected 'true'"],
    ['nul', 3, "expected 'null'"],
    ['[fals]', 5, "expected 'false'"],
    ['True', 0, 'expected a JSON value'],
    ['falsy', 4, "expected 'false'"],
    ['nulll', 4, 'unexpected data after top-level value'],
    // strings
    ['"abc', 4, 'unterminated string starting at byte 0'],
    ['["a\\n', 5, 'unterminated string starting at byte 1'],
    ['"abc\\', 5, 'end of input'],
    ['"a\nb"', 2, 'control character U+000A'],
    ['"a\tb"', 2, 'control character U+0009'],
    ['"\u0000"', 1, 'control character U+0000'],
    ['"\u001f"', 1, 'control character U+001F'],
    ['"a\\nb\u0001"', 5, 'control character U+0001'],
    ['"\\x"', 2, 'invalid escape'],
    ['"\\U0041"', 2, 'invalid escape'],
    ['"\\\'"', 2, 'invalid escape'],
    ['"\\u12G4"', 5, 'expected a hex digit'],
    ['"\\u12"', 5, 'expected a hex digit'],
    ['"\\u12', 5, 'end of input'],
    ['{"a\nb":1}', 3, 'control character'],
    // characters outside strings
    ['\u00a01', 0, 'U+00A0'],
    ['[1,\u20282]', 3, 'U+2028'],
    ['\u000b1', 0, 'U+000B'],
    ['\u000c1', 0, 'U+000C'],
  ];

  it.each(cases)('%j fails at byte %i', (input, offset, message) => {
    const error = fail(input);
    expect(error.code).toBe('json/invalid');
    expect(error.offset).toBe(offset);
    expect(error.message).toContain(message);
  });

  it('reports the exact message for a missing separator', () => {
    expect(fail('{"a":1 "b":2}').message).toBe("expected ',' or '}' after object member, found '\"'");
  });

  const utf8Cases: Array<[string, number[], number]> = [
    ['a truncated 2-byte sequence in a string', [0x22, 0xc3, 0x22], 1],
    ['0xFF in a string', [0x22, 0x61, 0xff, 0x22], 2],
    ['a stray continuation byte', [0x22, 0x80, 0x22], 1],
    ['an overlong "/"', [0x22, 0xc0, 0xaf, 0x22], 1],
    ['an overlong 3-byte form', [0x22, 0xe0, 0x80, 0xaf, 0x22], 1],
    ['an encoded surrogate', [0x22, 0xed, 0xa0, 0x80, 0x22], 1],
    ['a code point above U+10FFFF', [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], 1],
    ['a lead byte 0xF5', [0x22, 0xf5, 0x80, 0x80, 0x80, 0x22], 1],
    ['input cut inside a 3-byte sequence', [0x22, 0xe6, 0x97], 1],
    ['input cut inside a 4-byte sequence', [0x22, 0xf0, 0x9f, 0x98], 1],
    ['invalid UTF-8 after an escape', [0x22, 0x5c, 0x6e, 0xc3, 0x28, 0x22], 3],
    ['invalid UTF-8 in a key', [0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d], 2],
    ['invalid UTF-8 where a value is expected', [0x5b, 0xff, 0x5d], 1],
    ['invalid UTF-8 after the top value', [0x31, 0x20, 0xc3], 2],
    ['invalid UTF-8 after valid multi-byte text', [...enc.encode('["é😀", "'), 0xed, 0xbf, 0xbf, 0x22, 0x5d], 12],
  ];

  it.each(utf8Cases)('rejects %s', (_name, input, offset) => {
    const error = fail(new Uint8Array(input));
    expect(error.code).toBe('json/invalid');
    expect(error.offset).toBe(offset);
    expect(error.message).toContain('UTF-8');
  });

  it('accepts the edges of well-formed UTF-8', () => {
    const text = '"\u0080\u07ff\u0800\ud7ff\ue000\uffff\u{10000}\u{10ffff}"';
    const v = read(text);
    expect(v).toMatchObject({ type: 'string', value: JSON.parse(text) });
    expect(read(text.slice(0, -1) + '\\n"')).toMatchObject({ value: JSON.parse(text.slice(0, -1) + '\\n"') });
  });

  it('never throws and never accepts a truncated document', () => {
    const sample = enc.encode(
      '{"id":340282366920938463463374607431768211455,"name":"ag\\u00e9nt 日本 😀","n":[-1.5e+3,0,1.0,true,false,null],' +
        '"nested":{"a":[{},[]],"esc":"\\"\\\\\\/\\b\\f\\n\\r\\t\\uD83D\\uDE00\\uD800"},"k":"v"}',
    );
    expect(readJson(sample).ok).toBe(true);
    for (let i = 0; i < sample.length; i++) {
      const r = readJson(sample.subarray(0, i));
      expect(r.ok, `prefix of ${i} bytes`).toBe(false);
      if (!r.ok) {
        expect(r.error.offset).toBeGreaterThanOrEqual(0);
        expect(r.error.offset).toBeLessThanOrEqual(i);
        expect(typeof r.error.message).toBe('string');
      }
    }
  });

  it('agrees with JSON.parse on randomly damaged documents and never throws', () => {
    const sample = enc.encode(
      JSON.stringify({
        a: [1, -2.5, 3e10, 'x', null, true, false, { b: 'é😀\n', c: [] }],
        s: 'quote " back \\ tab \t',
        n: 0,
      }),
    );
    const strict = new TextDecoder('utf-8', { fatal: true });
    const alphabet = enc.encode('{}[]:,"\\ 0123456789.eE+-tfnulraxé\u00ff\n\t');
    let seed = 12345;
    const rand = (m: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % m;
    };
    let accepted = 0;
    for (let round = 0; round < 3000; round++) {
      const bytes = sample.slice();
      const edits = 1 + rand(3);
      let cut = bytes.length;
      for (let e = 0; e < edits; e++) {
        const kind = rand(4);
        const at = rand(bytes.length);
        if (kind === 0) bytes[at] = alphabet[rand(alphabet.length)];
        else if (kind === 1) bytes[at] = rand(256);
        else if (kind === 2) cut = Math.min(cut, at);
        else bytes[at] = 0x20;
      }
      const input = bytes.subarray(0, cut);
      const r = readJson(input);
      let expected: unknown;
      let valid = true;
      try {
        expected = JSON.parse(strict.decode(input));
      } catch {
        valid = false;
      }
      expect(r.ok, `round ${round}: ${dec.decode(input)}`).toBe(valid);
      if (r.ok) {
        accepted++;
        // compare with numbers as numbers (toPlain gives bigint beyond 2^53)
        const plain = JSON.parse(JSON.stringify(toPlain(r.value), (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
        expect(plain).toEqual(expected);
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('readJson: depth', () => {
  it('gives json/too-deep for a 100,000-deep array without throwing', () => {
    const open = '['.repeat(100_000);
    expect(fail(open)).toMatchObject({ code: 'json/too-deep', offset: 512 });
    expect(fail(open + ']'.repeat(100_000))).toMatchObject({ code: 'json/too-deep', offset: 512 });
    expect(fail('{"a":'.repeat(100_000))).toMatchObject({ code: 'json/too-deep', offset: 512 * 5 });
    expect(fail('[{"a":'.repeat(50_000))).toMatchObject({ code: 'json/too-deep', offset: 512 * 3 });
  });

  it('accepts exactly maxDepth levels and rejects one more at its opening bracket', () => {
    expect(read('['.repeat(512) + ']'.repeat(512)).type).toBe('array');
    expect(fail('['.repeat(513) + ']'.repeat(513))).toMatchObject({ code: 'json/too-deep', offset: 512 });
    expect(read('[[1]]', 2).type).toBe('array');
    expect(fail('[[1]]', 1)).toMatchObject({ code: 'json/too-deep', offset: 1 });
    expect(fail('[{}]', 1)).toMatchObject({ code: 'json/too-deep', offset: 1 });
    expect(fail(' {"a": [] }', 1)).toMatchObject({ code: 'json/too-deep', offset: 7 });
    expect(read('1', 0).type).toBe('number');
    expect(fail(' []', 0)).toMatchObject({ code: 'json/too-deep', offset: 1 });
    // siblings do not add depth
    expect(read('[[],[],[[]],{"a":[]}]', 3).type).toBe('array');
  });

  it('reads 100,000 levels when allowed, and toPlain does not recurse', () => {
    const depth = 100_000;
    const v = read('['.repeat(depth) + '7' + ']'.repeat(depth), Infinity);
    let plain = toPlain(v);
    let levels = 0;
    while (Array.isArray(plain)) {
      plain = plain[0];
      levels++;
    }
    expect(levels).toBe(depth);
    expect(plain).toBe(7);
  });
});

describe('readJson: misuse', () => {
  it('throws TypeError for input that is not a Uint8Array', () => {
    expect(() => readJson('{}' as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => readJson(new Uint16Array(2) as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => readJson(null as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => readJson(new Uint8Array(0), { maxDepth: -1 })).toThrow(TypeError);
    expect(() => readJson(new Uint8Array(0), { maxDepth: 1.5 })).toThrow(TypeError);
    expect(() => readJson(new Uint8Array(0), { maxDepth: NaN })).toThrow(TypeError);
  });

  it('reads views of shared memory', () => {
    if (typeof SharedArrayBuffer === 'undefined') return;
    const text = enc.encode('{"a":"é"}');
    const shared = new Uint8Array(new SharedArrayBuffer(text.length));
    shared.set(text);
    expect(toPlain(read(shared))).toEqual({ a: 'é' });
  });
});

describe('readJson: a value inside the bytes (start, end)', () => {
  /** Every container and string in the tree: each one's span read again gives the same subtree. */
  function containers(v: JsonValue, out: JsonValue[] = []): JsonValue[] {
    if (v.type === 'object' || v.type === 'array' || v.type === 'string' || v.type === 'number') out.push(v);
    if (v.type === 'array') for (const item of v.items) containers(item, out);
    if (v.type === 'object') for (const e of v.entries) containers(e.value, out);
    return out;
  }

  it('each value read again from its span is the same value, with the same offsets (non-ASCII, escapes, big numbers before it)', () => {
    const text = '\uFEFF[ {"é":"ü\\u00e9😀","n":[1.0,-0,18446744073709551616,1e400]}, "\\ud800", {"x":{"y":["z"]}} ]';
    const bytes = enc.encode(text);
    const whole = read(bytes);
    for (const v of containers(whole)) {
      const again = readJson(bytes, { start: v.start, end: v.end });
      expect(again).toEqual({ ok: true, value: v });
    }
  });

  it('whitespace around the value is allowed; anything else, or a value cut by the end, fails with offsets into the whole bytes', () => {
    const bytes = enc.encode('xx  {"a":1}  yy');
    expect(readJson(bytes, { start: 2, end: 13 })).toEqual({ ok: true, value: expect.objectContaining({ type: 'object', start: 4, end: 11 }) });
    const extra = readJson(bytes, { start: 2, end: 14 });
    expect(extra.ok ? null : extra.error.offset).toBe(13);
    const cut = readJson(bytes, { start: 4, end: 9 });
    expect(cut.ok ? null : cut.error.offset).toBe(9);
    // A multi-byte character cut by the end is invalid UTF-8 there.
    const e = enc.encode('"é"');
    const cutChar = readJson(e, { start: 0, end: 2 });
    expect(cutChar.ok ? null : cutChar.error.offset).toBe(1);
  });

  it('misuse: start and end outside the bytes or out of order throw TypeError', () => {
    const bytes = enc.encode('[1]');
    expect(() => readJson(bytes, { start: -1 })).toThrow(TypeError);
    expect(() => readJson(bytes, { end: 4 })).toThrow(TypeError);
    expect(() => readJson(bytes, { start: 2, end: 1 })).toThrow(TypeError);
    expect(() => readJson(bytes, { start: 0.5 })).toThrow(TypeError);
  });
});
