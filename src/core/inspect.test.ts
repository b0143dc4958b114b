// The pipeline under hostile input: truncation at every length, length and depth bombs, broken
// inputs beside good ones, CBOR sequences, hex / base64 / JSON views, random and mutated bytes.
// Whatever goes in, `inspect` answers with records (never a throw) and every failure carries a
// decode error code from report.md.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from './bytes';
import { CborWriter } from './cbor/encoder';
import { encodeEnvelope } from './agdx/canonical';
import { inspect, inspectInput, inspectInputBatches } from './inspect';
import type { RecordResult } from './records';
import { buildReport } from './report';
import { RECORD_FORMATS, REPORT_CODES } from './fuzz/support';

const VECTORS = new URL('../../vectors/agdx/', import.meta.url);
const read = (rel: string) => new Uint8Array(readFileSync(new URL(rel, VECTORS)));
const utf8 = (s: string) => new TextEncoder().encode(s);



/** Fixture files (not their ORIGIN, LICENSE and NOTICE). */
const FIXTURES: string[] = ['laser-wire-0.0.1/', 'iggy/', 'made/'].flatMap((dir) =>
  readdirSync(new URL(dir, VECTORS))
    .filter((f) => !/^(ORIGIN\.md|LICENSE|NOTICE)$/.test(f))
    .map((f) => dir + f),
);
const BARE_ENVELOPES = FIXTURES.filter((f) => f.startsWith('laser-wire-0.0.1/') && f.endsWith('.bin'));

/** The invariants every record keeps, whatever the input. */
function checkRecords(records: RecordResult[], inputLength: number, where: string): void {
  expect(records.length, where).toBeGreaterThan(0);
  records.forEach((r, i) => {
    expect(r.index, where).toBe(i);
    expect(RECORD_FORMATS.has(r.format), `${where}: format ${r.format}`).toBe(true);
    if (!r.decoded) {
      expect(r.error, where).not.toBeNull();
      expect(REPORT_CODES.has(r.error!.code), `${where}: code ${r.error!.code} (${r.error!.message})`).toBe(true);
      expect(r.error!.message, where).not.toMatch(/internal error/);
      expect(r.valid, where).toBe(false);
    } else {
      expect(r.error, where).toBeNull();
    }
    if (r.error?.offset != null) {
      expect(r.error.offset, where).toBeGreaterThanOrEqual(0);
      expect(r.error.offset, where).toBeLessThanOrEqual(r.view.length);
    }
    if (r.span) {
      expect(r.span[0], where).toBeLessThanOrEqual(r.span[1]);
      expect(r.span[1], where).toBeLessThanOrEqual(r.view.length);
    }
    for (const f of r.findings) {
      if (!f.span) continue;
      expect(f.span[0], `${where}: ${f.rule}`).toBeLessThanOrEqual(f.span[1]);
      expect(f.span[1], `${where}: ${f.rule}`).toBeLessThanOrEqual(r.view.length);
    }
  });
  if (inputLength >= 0) expect(records.every((r) => r.viewOrigin !== 'input' || r.view.length === inputLength), where).toBe(true);
}

function only(bytes: Uint8Array, name = 'input'): RecordResult {
  const { records } = inspectInput(0, { name, bytes });
  expect(records).toHaveLength(1);
  return records[0];
}

describe('inputs', () => {
  it('every fixture reads, and its sha256 is node:crypto\'s', () => {
    const files = FIXTURES.map((f) => ({ name: f, bytes: read(f) }));
    const result = inspect(files);
    expect(result.inputs).toHaveLength(files.length);
    result.inputs.forEach((input, i) => {
      expect(input.name).toBe(files[i].name);
      expect(input.bytes).toBe(files[i].bytes.length);
      expect(input.sha256).toBe(createHash('sha256').update(files[i].bytes).digest('hex'));
    });
    // Records point back at their input, in order.
    const inputsSeen = result.records.map((r) => r.input);
    expect([...inputsSeen].sort((a, b) => a - b)).toEqual(inputsSeen);
    expect(new Set(inputsSeen).size).toBe(files.length);
  });

  it('sha256 of the empty input', () => {
    const { input } = inspectInput(0, { name: 'empty', bytes: new Uint8Array(0) });
    expect(input.sha256).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('rejects a non-Uint8Array as a programming error', () => {
    expect(() => inspectInput(0, { name: 'x', bytes: [1, 2] as unknown as Uint8Array })).toThrow(TypeError);
  });
});

describe('truncation', () => {
  // Every length of every fixture: quadratic in the file size, so given room on a loaded CI machine.
  it.each(FIXTURES)('%s truncated at every length never throws', { timeout: 60_000 }, (file) => {
    const bytes = read(file);
    for (let n = 0; n < bytes.length; n++) {
      const cut = bytes.slice(0, n);
      let records: RecordResult[] = [];
      expect(() => ({ records } = inspectInput(0, { name: file, bytes: cut }))).not.toThrow();
      checkRecords(records, n, `${file}[0, ${n})`);
    }
  });

  it.each(BARE_ENVELOPES)('%s truncated: not decoded, cbor/truncated (input/unrecognized when empty)', (file) => {
    const bytes = read(file);
    const empty = only(new Uint8Array(0));
    expect(empty).toMatchObject({ decoded: false, format: 'unknown' });
    expect(empty.error).toMatchObject({ code: 'input/unrecognized', offset: 0 });
    for (let n = 1; n < bytes.length; n++) {
      const { input, records } = inspectInput(0, { name: file, bytes: bytes.slice(0, n) });
      expect(input.format, `${n}`).toBe('cbor');
      expect(records, `${n}`).toHaveLength(1);
      const r = records[0];
      expect(r.decoded, `${n}`).toBe(false);
      expect(r.error!.code, `${n}`).toBe('cbor/truncated');
      expect(r.error!.offset, `${n}`).toBeLessThanOrEqual(n);
      expect(r.span, `${n}`).toEqual([0, n]);
    }
  });
});

describe('bombs', () => {
  it('a length bomb (5a ffffffff) inside an envelope map → cbor/too-large, nothing allocated', () => {
    const bytes = new CborWriter().head(5, 2).text('kind').text('command').text('body').raw(0x5a, 0xff, 0xff, 0xff, 0xff).finish();
    const r = only(bytes);
    expect(r.decoded).toBe(false);
    expect(r.format).toBe('agdx.envelope');
    expect(r.error).toMatchObject({ code: 'cbor/too-large', offset: bytes.length - 5 });
  });

  it('a 64-bit length bomb and a huge map count → cbor/too-large', () => {
    const bstr = new CborWriter().head(5, 1).text('body').raw(0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff).finish();
    expect(only(bstr).error!.code).toBe('cbor/too-large');
    const map = new Uint8Array([0xba, 0xff, 0xff, 0xff, 0xff, 0x64, ...utf8('kind')]);
    expect(only(map).error!.code).toBe('cbor/too-large');
  });

  it('a card state whose data string nests too deeply is json/invalid, the only JSON code report.md has', () => {
    const deep = `{"type": "user_card", "x": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const [r] = inspectInput(0, { name: 'cards.json', bytes: utf8(JSON.stringify([{ data: deep }])) }).records;
    expect(r.decoded).toBe(false);
    expect(r.error).toMatchObject({ code: 'json/invalid' });
    expect(r.error!.message).toMatch(/^the state's data is not JSON: /);
  });

  it('a depth bomb (100,000 nested arrays) inside an envelope map → cbor/too-deep', () => {
    const deep = new Uint8Array(100_000).fill(0x81);
    const bytes = new CborWriter().head(5, 2).text('kind').text('command').text('metadata').append(deep).finish();
    const r = only(bytes);
    expect(r.decoded).toBe(false);
    expect(r.format).toBe('agdx.envelope');
    expect(r.error!.code).toBe('cbor/too-deep');
    expect(r.error!.offset).toBeGreaterThan(14);
    expect(r.error!.offset).toBeLessThan(14 + 200);
  });

  it('100,000 nested maps → cbor/too-deep', () => {
    const r = only(new Uint8Array(100_000).fill(0xa1));
    expect(r.decoded).toBe(false);
    expect(r.error!.code).toBe('cbor/too-deep');
  });

  it('100,000 bare nested arrays: not a map at the top, so input/unrecognized naming cbor/too-deep', () => {
    const r = only(new Uint8Array(100_000).fill(0x81));
    expect(r.decoded).toBe(false);
    expect(r.error!.code).toBe('input/unrecognized');
    expect(r.error!.message).toContain('cbor/too-deep');
  });

  it('deeply nested JSON still gives a report.md code', () => {
    const deep = utf8('['.repeat(10_000) + ']'.repeat(10_000));
    const r = only(deep);
    expect(r.decoded).toBe(false);
    // The JSON reader's own json/too-deep is not a report.md code: it is reported as json/invalid.
    expect(r.error!.code).toBe('json/invalid');
    expect(r.error!.message).toMatch(/nesting/);
    const inExport = only(utf8(`{"messages": ${'['.repeat(1000)}${']'.repeat(1000)}}`));
    expect(inExport.error!.code).toBe('json/invalid');
  });
});

describe('item bombs (cbor/too-many-items)', () => {
  /** A CBOR array head declaring 16,777,216 items, and the items (16,777,216 zeros): a 16 MB file. */
  const bomb16m = () => {
    const bytes = new Uint8Array(5 + 16_777_216);
    bytes.set([0x9a, 0x01, 0x00, 0x00, 0x00]);
    return bytes;
  };

  it('a 16-million-item array is a record refused with cbor/too-many-items at byte 0, not input/unrecognized', () => {
    const bytes = bomb16m();
    const { input, records } = inspectInput(0, { name: 'bomb.cbor', bytes });
    checkRecords(records, bytes.length, 'bomb');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ decoded: false, format: 'unknown', span: [0, bytes.length], error: { code: 'cbor/too-many-items', offset: 0 } });
    expect(records[0].error!.message).toContain('65536');
    expect(input.format).toBe('cbor');
  });

  it('the same through the batched reading the page uses', () => {
    const bytes = bomb16m();
    const batches = [...inspectInputBatches(0, { name: 'bomb.cbor', bytes }, undefined, 100)];
    const records = batches.flatMap((b) => b.records);
    expect(records.map((r) => r.error?.code)).toEqual(['cbor/too-many-items']);
    expect(batches.at(-1)!.input?.format).toBe('cbor');
  });

  it('an indefinite map of 65,536 entries, in a sequence after a good record, is refused at the item past the cap; the record before is kept', () => {
    const good = read('laser-wire-0.0.1/agent_event.bin');
    const bytes = new Uint8Array(good.length + 1 + 2 * 65_536 + 1);
    bytes.set(good);
    bytes[good.length] = 0xbf;
    bytes[bytes.length - 1] = 0xff;
    for (const batched of [false, true]) {
      const records = batched ? [...inspectInputBatches(0, { name: 'seq', bytes }, undefined, 1)].flatMap((b) => b.records) : inspectInput(0, { name: 'seq', bytes }).records;
      expect(records.map((r) => [r.kind, r.decoded, r.error?.code ?? null]), `batched ${batched}`).toEqual([
        ['event', true, null],
        [null, false, 'cbor/too-many-items'],
      ]);
      // The map is item 1; its 65,536th key or value (at map start + 65,536) passes the cap.
      expect(records[1].error!.offset).toBe(good.length + 65_536);
      expect(records[1].format).toBe('agdx.envelope');
    }
  });

  it('a sequence whose record count is a multiple of the batch size ends with its last full batch', () => {
    // It used to be followed by an empty batch that hashed the input a second time: an internal error record.
    const one = read('laser-wire-0.0.1/agent_event.bin');
    const bytes = new Uint8Array([...one, ...one, ...one, ...one]);
    const batches = [...inspectInputBatches(0, { name: 'seq', bytes }, undefined, 2)];
    expect(batches.map((b) => [b.records.length, b.input?.format ?? null])).toEqual([
      [2, null],
      [2, 'cbor-seq'],
    ]);
  });

  it('a sequence of 70,000 ordinary records is never refused (the cap is per record)', () => {
    const one = read('laser-wire-0.0.1/agent_event.bin');
    const bytes = new Uint8Array(one.length * 70_000);
    for (let i = 0; i < 70_000; i++) bytes.set(one, i * one.length);
    const records = [...inspectInputBatches(0, { name: 'seq', bytes }, undefined, 10_000)].flatMap((b) => b.records);
    expect(records).toHaveLength(70_000);
    expect(records.every((r) => r.decoded && r.error === null)).toBe(true);
  });
});

describe('CBOR that is not a map (agdx/not-a-map)', () => {
  it('a bare array is a record of its own showing the item in diagnostic notation', () => {
    const bytes = Uint8Array.from([0x83, 0x01, 0x62, 0x68, 0x69, 0xf6]);
    const { input, records } = inspectInput(0, { name: 'array.cbor', bytes });
    checkRecords(records, bytes.length, 'array');
    expect(input.format).toBe('cbor');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ decoded: false, format: 'unknown', span: [0, 6], error: { code: 'agdx/not-a-map', offset: 0 } });
    expect(records[0].body).toMatchObject({ rendering: 'cbor', text: '[1, "hi", null]', span: [0, 6] });
    expect(records[0].summary).toContain('[1, "hi", null]');
  });

  it('a bare unsigned integer, byte string and tagged array are agdx/not-a-map too', () => {
    for (const [bytes, diag] of [
      [[0x01], '1'],
      [[0x42, 0x00, 0x01], "h'0001'"],
      [[0xc1, 0x81, 0x00], '1([0])'],
    ] as const) {
      const r = only(Uint8Array.from(bytes));
      expect(r.error, diag).toMatchObject({ code: 'agdx/not-a-map', offset: 0 });
      expect(r.body?.text, diag).toBe(diag);
    }
  });

  it('in a sequence, an item that is not a map is a record of its own and the sequence goes on', () => {
    const a = read('laser-wire-0.0.1/agent_event.bin');
    const b = read('laser-wire-0.0.1/agent_command.bin');
    const bytes = new Uint8Array([...a, 0x82, 0x01, 0x02, ...b]);
    const { input, records } = inspectInput(0, { name: 'seq', bytes });
    checkRecords(records, bytes.length, 'seq');
    expect(input.format).toBe('cbor-seq');
    expect(records.map((r) => [r.kind, r.decoded, r.error?.code ?? null])).toEqual([
      ['event', true, null],
      [null, false, 'agdx/not-a-map'],
      ['command', true, null],
    ]);
    expect(records[1]).toMatchObject({ span: [a.length, a.length + 3], error: { offset: a.length } });
    expect(records[1].body?.text).toBe('[1, 2]');
  });

  it('a sequence that starts with an item that is not a map reads on when the whole input is CBOR', () => {
    const b = read('laser-wire-0.0.1/agent_command.bin');
    const bytes = new Uint8Array([0x82, 0x01, 0x02, ...b]);
    const { input, records } = inspectInput(0, { name: 'seq', bytes });
    expect(input.format).toBe('cbor-seq');
    expect(records.map((r) => [r.kind, r.error?.code ?? null])).toEqual([
      [null, 'agdx/not-a-map'],
      ['command', null],
    ]);
  });

  it('the same sequence read in batches (as the page reads it) gives the same records', () => {
    const b = read('laser-wire-0.0.1/agent_command.bin');
    const bytes = new Uint8Array([0x82, 0x01, 0x02, ...b, 0x01, ...b]);
    const batches = [...inspectInputBatches(0, { name: 'seq', bytes }, undefined, 1)];
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.at(-1)!.input?.format).toBe('cbor-seq');
    const whole = inspectInput(0, { name: 'seq', bytes }).records;
    expect(batches.flatMap((x) => x.records).map((r) => [r.index, r.kind, r.error?.code ?? null, r.span])).toEqual(whole.map((r) => [r.index, r.kind, r.error?.code ?? null, r.span]));
  });

  it('a file of zeros (a sequence of integers, none of them a map) stays input/unrecognized, in one record', () => {
    const zeros = new Uint8Array(1 << 20);
    const r = only(zeros);
    expect(r.error).toMatchObject({ code: 'input/unrecognized', offset: 0 });
    expect(r.error!.message).toContain('none of them a map');
    const batches = [...inspectInputBatches(0, { name: 'zeros', bytes: zeros }, undefined, 100)];
    expect(batches.flatMap((x) => x.records).map((x) => x.error?.code)).toEqual(['input/unrecognized']);
    expect(batches.at(-1)!.input?.format).toBe('unknown');
  });

  it('two arrays and nothing else are input/unrecognized (a sequence with no map); one array alone is agdx/not-a-map', () => {
    expect(only(Uint8Array.from([0x81, 0x01, 0x81, 0x02])).error?.code).toBe('input/unrecognized');
    expect(only(Uint8Array.from([0x81, 0x01])).error?.code).toBe('agdx/not-a-map');
  });

  it('in bulk (no detail) the notation is made when the record is opened', () => {
    const bytes = Uint8Array.from([0x82, 0x01, 0x02]);
    const [batch] = [...inspectInputBatches(0, { name: 'array', bytes }, undefined, 10)];
    const r = batch.records[0];
    expect(r.error?.code).toBe('agdx/not-a-map');
    expect(r.body).toBeNull();
    expect(r.redo).toBeTypeOf('function');
    expect(r.redo!()).toMatchObject({ error: { code: 'agdx/not-a-map' }, body: { rendering: 'cbor', text: '[1, 2]' } });
  });

  it('a PNG (whose first bytes read as a CBOR array of 9 by chance) stays input/unrecognized', () => {
    // A 1×1 PNG: 0x89 is an array of 9 items, which its next bytes happen to fill; the rest fails.
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
    const r = only(png);
    expect(r.error?.code).toBe('input/unrecognized');
    expect(r.error?.message).toMatch(/CBOR/);
  });

  it('an ELF header stays input/unrecognized', () => {
    const elf = new Uint8Array(64);
    elf.set([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]);
    elf.set([0x02, 0x00, 0x3e, 0x00, 0x01, 0x00, 0x00, 0x00], 16);
    expect(only(elf).error?.code).toBe('input/unrecognized');
  });

  it('a well-formed first item followed by bytes that do not read is input/unrecognized, naming where CBOR failed', () => {
    const r = only(Uint8Array.from([0x82, 0x01, 0x02, 0x1c]));
    expect(r.error).toMatchObject({ code: 'input/unrecognized', offset: 3 });
    expect(r.error!.message).toContain('cbor/invalid');
  });
});

describe('one broken input never hides the others', () => {
  it('a good envelope after a broken text input still decodes', () => {
    const command = read('laser-wire-0.0.1/agent_command.bin');
    const result = inspect([
      { name: 'broken.txt', bytes: utf8('this is neither hex nor base64 nor JSON!') },
      { name: 'broken.json', bytes: utf8('{"kind": "command", ') },
      { name: 'truncated.bin', bytes: command.slice(0, 100) },
      { name: 'good.bin', bytes: command },
    ]);
    expect(result.records.map((r) => [r.input, r.decoded, r.error?.code ?? null])).toEqual([
      [0, false, 'input/unrecognized'],
      [1, false, 'json/invalid'],
      [2, false, 'cbor/truncated'],
      [3, true, null],
    ]);
    expect(result.records[3]).toMatchObject({ kind: 'command', valid: true, index: 0 });
  });

  it('a CBOR sequence with a truncated last item keeps the earlier records', () => {
    const bytes = read('made/conversation.cborseq');
    const { input, records } = inspectInput(0, { name: 'seq', bytes });
    expect(input.format).toBe('cbor-seq');
    expect(records.map((r) => [r.kind, r.decoded, r.valid])).toEqual([
      ['command', true, true],
      ['chunk', true, true],
      ['chunk', true, true],
      ['chunk', true, true],
      ['response', true, true],
      ['command', true, false],
      [null, false, false],
    ]);
    // Spans tile the file.
    let at = 0;
    for (const r of records) {
      expect(r.span![0]).toBe(at);
      at = r.span![1];
    }
    expect(at).toBe(bytes.length);
    expect(records[6].error).toMatchObject({ code: 'cbor/truncated' });
    expect(records[6].error!.offset).toBeGreaterThanOrEqual(records[6].span![0]);
    // Each item re-encodes to its own bytes.
    for (const r of records.slice(0, 6)) expect(toHex(encodeEnvelope(r.envelope!))).toBe(toHex(bytes.subarray(...r.span!)));
  });

  it('a CBOR sequence whose middle item is garbage keeps what came before', () => {
    const a = read('laser-wire-0.0.1/agent_event.bin');
    const b = read('laser-wire-0.0.1/agent_command.bin');
    const bytes = new Uint8Array([...a, 0xff, ...b]);
    const { records } = inspectInput(0, { name: 'seq', bytes });
    expect(records[0]).toMatchObject({ kind: 'event', decoded: true });
    expect(records[1]).toMatchObject({ decoded: false });
    expect(records[1].error!.code).toBe('cbor/invalid');
    expect(records[1].error!.offset).toBe(a.length);
  });
});

describe('text forms of a record', () => {
  const command = read('laser-wire-0.0.1/agent_command.bin');

  function sameCommand(r: RecordResult) {
    expect(r).toMatchObject({ format: 'agdx.envelope', decoded: true, valid: true, kind: 'command', id: '01J0Y1ZAG00000000000000001' });
    expect(toHex(encodeEnvelope(r.envelope!))).toBe(toHex(command));
  }

  it('made/command.hex.txt', () => {
    const { input, records } = inspectInput(0, { name: 'hex', bytes: read('made/command.hex.txt') });
    expect(input.format).toBe('hex(cbor)');
    sameCommand(records[0]);
    expect(records[0].viewOrigin).toBe('decoded-text');
    expect(records[0].span).toEqual([0, command.length]);
  });

  it('made/command.b64.txt', () => {
    const { input, records } = inspectInput(0, { name: 'b64', bytes: read('made/command.b64.txt') });
    expect(input.format).toBe('base64(cbor)');
    sameCommand(records[0]);
  });

  it('hex with whitespace, line breaks, upper case and a 0x prefix', () => {
    const h = toHex(command);
    const spaced = h.match(/.{1,2}/g)!.join(' ');
    const lines = h.match(/.{1,32}/g)!.join('\n');
    for (const text of [`0x${h}`, `  ${spaced}\n`, lines, `0x${lines.toUpperCase()}\r\n`, `\t${h.toUpperCase()}`]) {
      const { input, records } = inspectInput(0, { name: 'hex', bytes: utf8(text) });
      expect(input.format, text.slice(0, 20)).toBe('hex(cbor)');
      sameCommand(records[0]);
    }
  });

  it('base64 with line breaks and url-safe base64', () => {
    const b64 = Buffer.from(command).toString('base64');
    const url = Buffer.from(command).toString('base64url');
    for (const text of [b64.match(/.{1,76}/g)!.join('\n'), url]) {
      const { input, records } = inspectInput(0, { name: 'b64', bytes: utf8(text) });
      expect(input.format).toBe('base64(cbor)');
      sameCommand(records[0]);
    }
  });

  it('made/command.json (the JSON view, byte strings as integer arrays) is the same envelope', () => {
    const { input, records } = inspectInput(0, { name: 'json', bytes: read('made/command.json') });
    expect(input.format).toBe('agdx-json');
    sameCommand(records[0]);
    expect(records[0].findings).toEqual([]);
  });

  it('a JSON array of envelope views gives one record each', () => {
    const view = JSON.parse(new TextDecoder().decode(read('made/command.json')));
    const { records } = inspectInput(0, { name: 'json', bytes: utf8(JSON.stringify([view, { ...view, kind: 'nope' }])) });
    expect(records.map((r) => [r.index, r.decoded, r.error?.code ?? null])).toEqual([
      [0, true, null],
      [1, false, 'agdx/unknown-kind'],
    ]);
  });

  it('text that is nothing known → input/unrecognized', () => {
    const r = only(utf8('hello, world: not a record'));
    expect(r).toMatchObject({ decoded: false, format: 'unknown' });
    expect(r.error!.code).toBe('input/unrecognized');
  });

  it('broken JSON → json/invalid with an offset', () => {
    const r = only(utf8('{"messages": [}'));
    expect(r.error).toMatchObject({ code: 'json/invalid' });
    expect(r.error!.offset).toBe(14);
  });
});

describe('random and mutated bytes', () => {
  const everything = FIXTURES.map(read);

  it('random bytes never throw; undecoded records carry a report.md code (2000 runs)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 300 }), (bytes) => {
        const { records } = inspectInput(0, { name: 'random', bytes });
        checkRecords(records, bytes.length, 'random');
        // The report serialises (bigints are written as strings).
        JSON.stringify(buildReport({ inputs: [], records }));
      }),
      { numRuns: 2000, seed: 20260130 },
    );
  });

  it('random bytes behind an envelope-like map head never throw (2000 runs)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0xa0, max: 0xbf }), fc.uint8Array({ maxLength: 200 }), (head, rest) => {
        const bytes = new Uint8Array([head, ...rest]);
        const { records } = inspectInput(0, { name: 'random', bytes });
        checkRecords(records, bytes.length, 'map-like');
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('fixtures with a few bytes changed, inserted or removed never throw (3000 runs)', () => {
    const edit = fc.record({
      file: fc.nat({ max: everything.length - 1 }),
      ops: fc.array(fc.tuple(fc.constantFrom('set', 'insert', 'delete'), fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
    });
    fc.assert(
      fc.property(edit, ({ file, ops }) => {
        let bytes = Array.from(everything[file]);
        for (const [op, pos, value] of ops) {
          const at = bytes.length ? pos % bytes.length : 0;
          if (op === 'set' && bytes.length) bytes[at] = value;
          else if (op === 'insert') bytes.splice(at, 0, value);
          else bytes.splice(at, 1);
        }
        const input = new Uint8Array(bytes);
        const { records } = inspectInput(0, { name: FIXTURES[file], bytes: input });
        checkRecords(records, input.length, FIXTURES[file]);
        JSON.stringify(buildReport({ inputs: [], records }));
      }),
      { numRuns: 3000, seed: 424242 },
    );
  });
});
