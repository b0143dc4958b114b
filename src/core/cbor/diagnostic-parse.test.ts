import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toHex } from '../bytes';
import { diagnosticView, toDiagnostic } from './diagnostic';
import { parseDiagnostic } from './diagnostic-parse';
import { readSequence, readSingle } from './reader';

const hexOf = (text: string) => {
  const r = parseDiagnostic(text);
  if (!r.ok) throw new Error(`${r.error.message} at ${r.error.line}:${r.error.column}`);
  return toHex(r.bytes);
};
const errorOf = (text: string) => {
  const r = parseDiagnostic(text);
  if (r.ok) throw new Error(`read ${toHex(r.bytes)}`);
  return r.error;
};

describe('CBOR diagnostic notation read back', () => {
  it('writes the bytes of the examples of RFC 8949 appendix A', () => {
    const cases: [string, string][] = [
      ['0', '00'],
      ['23', '17'],
      ['24', '1818'],
      ['1000000', '1a000f4240'],
      ['18446744073709551615', '1bffffffffffffffff'],
      ['-1', '20'],
      ['-1000', '3903e7'],
      ['-18446744073709551616', '3bffffffffffffffff'],
      ['0.0', 'f90000'],
      ['-0.0', 'f98000'],
      ['1.5', 'f93e00'],
      ['100000.0', 'fa47c35000'],
      ['1.1', 'fb3ff199999999999a'],
      ['Infinity', 'f97c00'],
      ['-Infinity', 'f9fc00'],
      ['NaN', 'f97e00'],
      ['false', 'f4'],
      ['true', 'f5'],
      ['null', 'f6'],
      ['undefined', 'f7'],
      ['simple(16)', 'f0'],
      ['simple(255)', 'f8ff'],
      ['0("2013-03-21T20:04:00Z")', 'c074323031332d30332d32315432303a30343a30305a'],
      ["h''", '40'],
      ["h'01020304'", '4401020304'],
      ['""', '60'],
      ['"\\u00fc"', '62c3bc'],
      ['"\\ud800\\udd51"', '64f0908591'],
      ['"水"', '63e6b0b4'],
      ['[1, [2, 3], [4, 5]]', '8301820203820405'],
      ['{}', 'a0'],
      ['{1: 2, 3: 4}', 'a201020304'],
      ['{"a": 1, "b": [2, 3]}', 'a26161016162820203'],
      ["(_ h'0102', h'030405')", '5f42010243030405ff'],
      ['(_ "strea", "ming")', '7f657374726561646d696e67ff'],
      ['[_ ]', '9fff'],
      ['[_ 1, [2, 3], [_ 4, 5]]', '9f018202039f0405ffff'],
      ['{_ "a": 1, "b": [_ 2, 3]}', 'bf61610161629f0203ffff'],
    ];
    for (const [text, hex] of cases) expect(hexOf(text), text).toBe(hex);
  });

  it('takes encoding indicators, other bases, single-quoted and base64 byte strings, comments', () => {
    expect(hexOf('1_0')).toBe('1801');
    expect(hexOf('1_3')).toBe('1b0000000000000001');
    expect(hexOf('0x10')).toBe('10');
    expect(hexOf('0b101')).toBe('05');
    expect(hexOf('1.5_2')).toBe('fa3fc00000');
    expect(hexOf('1.5_3')).toBe('fb3ff8000000000000');
    expect(hexOf("'hi'")).toBe('426869');
    expect(hexOf("b64'AQID'")).toBe('43010203');
    expect(hexOf("h'01 02 # a byte\n 03'")).toBe('43010203');
    expect(hexOf('/ a map / {1: /one/ 2}')).toBe('a10102');
    expect(hexOf('[1, 2,]')).toBe('820102');
  });

  it('reads a sequence, separated by commas or white space', () => {
    const r = parseDiagnostic('1, "a"\n[2]');
    expect(r.ok && [toHex(r.bytes), r.items]).toEqual(['016161810' + '2', 3]);
  });

  it("reads back what the app's own diagnostic view writes, byte for byte, for every laser-wire vector", () => {
    const dir = resolve(__dirname, '../../../vectors/agdx/laser-wire-0.0.1');
    const files = readdirSync(dir).filter((f) => f.endsWith('.bin'));
    expect(files.length).toBeGreaterThan(30);
    for (const f of files) {
      const bytes = new Uint8Array(readFileSync(resolve(dir, f)));
      const { items, error } = readSequence(bytes);
      if (error || items.length === 0) continue;
      const text = items.map((i) => toDiagnostic(i)).join(',\n');
      expect(hexOf(text), f).toBe(toHex(bytes.subarray(0, items[items.length - 1].end)));
    }
  });

  it('says where bad text fails: the byte in its UTF-8, the line and the column, and what was expected', () => {
    expect(errorOf('{"kind": "command",\n "record": h\'01J0\'}')).toEqual({
      message: "'J' is not a hex digit (in h'…')",
      offset: 35,
      line: 2,
      column: 16,
    });
    // A character of several bytes before the failure counts its bytes in the offset, one column.
    expect(errorOf('["é", @]')).toMatchObject({ offset: 7, line: 1, column: 7, message: expect.stringContaining("found '@'") });
    expect(errorOf('[1, 2')).toMatchObject({ message: "expected ',' or ']', found the end of the text", offset: 5 });
    expect(errorOf('{1 2}').message).toBe("expected ':' between a key and its value, found '2'");
    expect(errorOf("h'012'").message).toBe("an odd number of hex digits in h'…'");
    expect(errorOf('"abc').message).toBe('a "text" string is not closed');
    expect(errorOf('').message).toBe('no value: the text is empty, or only comments');
    expect(errorOf('# only a comment\n')).toMatchObject({ offset: 0, line: 1, column: 1 });
    expect(errorOf('256_0').message).toBe('256 does not fit the 1-byte head _0 asks for');
    expect(errorOf('18446744073709551616').message).toContain('outside what a CBOR head holds');
    expect(errorOf('1.1_1').message).toContain('not exact as a half-precision float');
    expect(errorOf('simple(24)').message).toContain('cannot be written');
    expect(errorOf('(_ )').message).toContain('empty indefinite string');
    expect(errorOf('(_ h\'01\', "a")').message).toContain('a chunk of text in an indefinite byte string');
    expect(errorOf('a5:64').message).toContain("found 'a'");
    expect(errorOf('/ open').message).toContain('comment');
  });

  it('bounds nesting, and never throws for odd text', () => {
    expect(errorOf('['.repeat(300) + ']'.repeat(300)).message).toContain('nested deeper');
    for (const t of ['\u0000', '{"a":', '1(', "h'", "b64'%'", '-', '+1', '[_', '(_ h', 'simple(', '1e', '0x', '\ud800'])
      expect(() => parseDiagnostic(t)).not.toThrow();
    expect(() => parseDiagnostic(1 as unknown as string)).toThrow(TypeError);
  });

  it('writes what the reader reads as the same item', () => {
    const r = parseDiagnostic('{"kind": "status", "n": [1, -2, 3.5, h\'ff\'], 24(h\'a0\')}'.replace(', 24', ', "t": 24'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const item = readSingle(r.bytes);
    expect(item.ok && toDiagnostic(item.value)).toBe('{"kind": "status", "n": [1, -2, 3.5_1, h\'ff\'], "t": 24(h\'a0\')}');
  });
});

describe("the detail's diagnostic view", () => {
  it('writes each map entry on a line of its own, and reads back as the same bytes', () => {
    const bytes = new Uint8Array(readFileSync(resolve(__dirname, '../../../vectors/agdx/laser-wire-0.0.1/agent_command.bin')));
    const view = diagnosticView(bytes)!;
    expect(view.split('\n')[0]).toBe('{');
    expect(view).toContain('\n  "kind": "command",\n');
    expect(view).toContain('"metadata": {\n    "priority": "high"\n  }');
    expect(hexOf(view)).toBe(toHex(bytes));
  });

  it('says where a sequence stops reading, in a comment the parser skips; bytes that are no CBOR (JSON text) have none', () => {
    const seq = new Uint8Array(readFileSync(resolve(__dirname, '../../../vectors/agdx/made/conversation.cborseq')));
    const view = diagnosticView(seq)!;
    expect(view).toMatch(/\n# then cbor\/truncated at byte \d+: /);
    expect(parseDiagnostic(view)).toMatchObject({ ok: true, items: 6 });
    expect(diagnosticView(Uint8Array.from([0xff]))).toBeNull();
    expect(diagnosticView(new TextEncoder().encode('{"kind": 1}'))).toBeNull();
  });
});
