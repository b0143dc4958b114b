import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readText } from './read-text';

const vector = (p: string) => readFileSync(resolve(__dirname, '../../vectors', p), 'utf8');

describe('what pasted text would read as', () => {
  it('says the format and the kinds of hex, diagnostic notation and JSON', () => {
    const hex = readFileSync(resolve(__dirname, '../../vectors/agdx/made/conversation.cborseq')).toString('hex');
    expect(readText(hex)).toMatchObject({
      format: 'hex(cbor-seq)',
      records: 7,
      decoded: 6,
      kinds: 'command, chunk × 3, response, command, agdx.envelope',
      problem: null,
    });
    expect(readText(vector('agdx/made/command.diag.txt'))).toMatchObject({ format: 'diag(cbor)', records: 1, decoded: 1, kinds: 'command', problem: null });
    expect(readText(vector('agdx/made/command.json'))).toMatchObject({ decoded: 1, problem: null });
    // Colon-separated hex, and bytes written 0xNN, read as hex.
    const colons = readFileSync(resolve(__dirname, '../../vectors/agdx/made/command.hex.txt'), 'utf8').trim().match(/../g)!;
    expect(readText(colons.join(':')).format).toBe('hex(cbor)');
    expect(readText(colons.map((b) => `0x${b}`).join(', ')).format).toBe('hex(cbor)');
  });

  it('says where broken diagnostic notation fails: byte, line, column, and the line', () => {
    const r = readText('{"kind": "command",\n "record": h\'01J0\'}');
    expect(r.decoded).toBe(0);
    expect(r.problem).toMatchObject({ code: 'input/unrecognized', at: { offset: 35, line: 2, column: 16, text: ' "record": h\'01J0\'}' } });
    expect(r.problem!.message).toContain("'J' is not a hex digit");
  });

  it('says where broken hex fails, and traces a failure in the bytes it decodes to back to its digits', () => {
    const bad = readText('a5 64 6b 69 6g');
    expect(bad.problem).toMatchObject({ at: { offset: 13, line: 1, column: 14 } });
    expect(bad.problem!.message).toContain("'g' is not a hex digit");
    // Hex of bytes that are no CBOR record: where CBOR fails in them, traced back to the line of its digits.
    const junk = readText('00 01 02\n1c 02');
    expect(junk.problem).toMatchObject({ at: { offset: 9, line: 2, column: 1 } });
    expect(junk.problem!.message).toContain('it is hex of 5 bytes, but no record: CBOR fails with cbor/invalid at byte 3 of them');
    // A record of a known format that fails to decode is read: its detail shows where.
    const cut = readText('a5 64 6b 69 6e 64\n67 63 6f');
    expect(cut).toMatchObject({ format: 'hex(cbor)', records: 1, decoded: 0, problem: null });
  });

  it('says why prose is nothing, without a place where nothing was read', () => {
    const r = readText('hello, world');
    expect(r.problem).toMatchObject({ code: 'input/unrecognized', at: { offset: 0 } });
    expect(() => readText(3 as unknown as string)).toThrow(TypeError);
  });
});
