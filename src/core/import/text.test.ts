// Hex and base64 text of a record: the vectors' readings are golden, and the same command reads
// through hex with whitespace, line breaks, upper case and 0x, and through base64 standard or
// url-safe, with line breaks.
import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../agdx/canonical';
import { toHex } from '../bytes';
import { inspectInput } from '../inspect';
import { base64, hex } from './text';
import { fixturesOf, golden, sourceOf, utf8, vector, flatInput, type FlatRecord } from '../../../test/support/import-helpers';

describe('fixtures', () => {
  it.each([...fixturesOf(hex), ...fixturesOf(base64)])('%s', (file) => {
    const bytes = vector(file);
    expect(hex.detect(sourceOf(bytes)) ?? base64.detect(sourceOf(bytes))).toBeInstanceOf(Uint8Array);
    expect(golden(file, bytes)).toMatchSnapshot();
  });

  it('claims only text that decodes to some bytes', () => {
    expect(hex.detect(sourceOf(utf8('0x')))).toBeNull();
    expect(hex.detect(sourceOf(utf8('not hex')))).toBeNull();
    expect(hex.detect(sourceOf(vector('agdx/laser-wire-0.0.1/agent_command.bin')))).toBeNull();
    expect(base64.detect(sourceOf(utf8('a b')))).toBeNull();
  });
});

describe('text forms of a record', () => {
  const command = vector('agdx/laser-wire-0.0.1/agent_command.bin');

  function sameCommand(r: FlatRecord) {
    expect(r).toMatchObject({ format: 'agdx.envelope', decoded: true, valid: true, kind: 'command', id: '01J0Y1ZAG00000000000000001' });
    expect(toHex(encodeEnvelope(r.envelope!))).toBe(toHex(command));
  }

  it('made/command.hex.txt', () => {
    const { input, records } = flatInput(inspectInput(0, { name: 'hex', bytes: vector('agdx/made/command.hex.txt') }));
    expect(input.format).toBe('hex(cbor)');
    sameCommand(records[0]);
    expect(records[0].viewOrigin).toBe('decoded-text');
    expect(records[0].span).toEqual([0, command.length]);
  });

  it('made/command.b64.txt', () => {
    const { input, records } = flatInput(inspectInput(0, { name: 'b64', bytes: vector('agdx/made/command.b64.txt') }));
    expect(input.format).toBe('base64(cbor)');
    sameCommand(records[0]);
  });

  it('hex with whitespace, line breaks, upper case and a 0x prefix', () => {
    const h = toHex(command);
    const spaced = h.match(/.{1,2}/g)!.join(' ');
    const lines = h.match(/.{1,32}/g)!.join('\n');
    for (const text of [`0x${h}`, `  ${spaced}\n`, lines, `0x${lines.toUpperCase()}\r\n`, `\t${h.toUpperCase()}`]) {
      const { input, records } = flatInput(inspectInput(0, { name: 'hex', bytes: utf8(text) }));
      expect(input.format, text.slice(0, 20)).toBe('hex(cbor)');
      sameCommand(records[0]);
    }
  });

  it('base64 with line breaks and url-safe base64', () => {
    const b64 = Buffer.from(command).toString('base64');
    const url = Buffer.from(command).toString('base64url');
    for (const text of [b64.match(/.{1,76}/g)!.join('\n'), url]) {
      const { input, records } = flatInput(inspectInput(0, { name: 'b64', bytes: utf8(text) }));
      expect(input.format).toBe('base64(cbor)');
      sameCommand(records[0]);
    }
  });
});
