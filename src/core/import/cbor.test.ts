// The CBOR importer: a bare AGDX item or a CBOR sequence of them. Every CBOR vector's reading is
// golden; truncation, length, depth and item bombs become records; items that are not maps are
// records of their own; binary that is not CBOR records is refused (read by the unknown fallback).
import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../agdx/canonical';
import { toHex } from '../bytes';
import { CborWriter } from '../cbor/encoder';
import { inspectInput, inspectInputBatches } from '../inspect';
import { recordViews } from '../records';
import { cbor, cborRefusal } from './cbor';
import { cborRecordBatches } from './cbor-items';
import { checkRecords, fixturesOf, flat, flatInput, golden, only, sourceOf, utf8, vector } from '../../../test/support/import-helpers';

const BARE_ENVELOPES = fixturesOf(cbor).filter((f) => f.startsWith('agdx/laser-wire-0.0.1/') && f.endsWith('.bin'));

describe('fixtures', () => {
  it.each(fixturesOf(cbor))('%s', (file) => {
    const bytes = vector(file);
    expect(cbor.detect(sourceOf(bytes))).toBe(true);
    expect(golden(file, bytes)).toMatchSnapshot();
  });

  it('claims no text and no empty input', () => {
    expect(cbor.detect(sourceOf(new Uint8Array(0)))).toBeNull();
    expect(cbor.detect(sourceOf(utf8('{"kind": "command"}')))).toBeNull();
    expect(cbor.detect(sourceOf(vector('agdx/made/command.hex.txt')))).toBeNull();
  });
});

describe('truncation', () => {
  it.each(BARE_ENVELOPES)('%s truncated: not decoded, cbor/truncated (input/unrecognized when empty)', (file) => {
    const bytes = vector(file);
    const empty = only(new Uint8Array(0));
    expect(empty).toMatchObject({ decoded: false, format: 'unknown' });
    expect(empty.error).toMatchObject({ code: 'input/unrecognized', offset: 0 });
    for (let n = 1; n < bytes.length; n++) {
      const { input, records } = flatInput(inspectInput(0, { name: file, bytes: bytes.slice(0, n) }));
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
    const { input, records } = flatInput(inspectInput(0, { name: 'bomb.cbor', bytes }));
    checkRecords(records, bytes.length, 'bomb');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ decoded: false, format: 'unknown', span: [0, bytes.length], error: { code: 'cbor/too-many-items', offset: 0 } });
    expect(records[0].error!.message).toContain('65536');
    expect(input.format).toBe('cbor');
  });

  it('the same through the batched reading the page uses', () => {
    const bytes = bomb16m();
    const batches = [...inspectInputBatches(0, { name: 'bomb.cbor', bytes }, undefined, 100)];
    const records = batches.flatMap((b) => b.records.map((r) => flat(r)));
    expect(records.map((r) => r.error?.code)).toEqual(['cbor/too-many-items']);
    expect(batches.at(-1)!.input?.format).toBe('cbor');
  });

  it('an indefinite map of 65,536 entries, in a sequence after a good record, is refused at the item past the cap; the record before is kept', () => {
    const good = vector('agdx/laser-wire-0.0.1/agent_event.bin');
    const bytes = new Uint8Array(good.length + 1 + 2 * 65_536 + 1);
    bytes.set(good);
    bytes[good.length] = 0xbf;
    bytes[bytes.length - 1] = 0xff;
    for (const batched of [false, true]) {
      const records = batched
        ? [...inspectInputBatches(0, { name: 'seq', bytes }, undefined, 1)].flatMap((b) => b.records.map((r) => flat(r)))
        : flatInput(inspectInput(0, { name: 'seq', bytes })).records;
      expect(
        records.map((r) => [r.kind, r.decoded, r.error?.code ?? null]),
        `batched ${batched}`,
      ).toEqual([
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
    const one = vector('agdx/laser-wire-0.0.1/agent_event.bin');
    const bytes = new Uint8Array([...one, ...one, ...one, ...one]);
    const batches = [...inspectInputBatches(0, { name: 'seq', bytes }, undefined, 2)];
    expect(batches.map((b) => [b.records.length, b.input?.format ?? null])).toEqual([
      [2, null],
      [2, 'cbor-seq'],
    ]);
  });

  it('a sequence of 70,000 ordinary records is never refused (the cap is per record)', () => {
    const one = vector('agdx/laser-wire-0.0.1/agent_event.bin');
    const bytes = new Uint8Array(one.length * 70_000);
    for (let i = 0; i < 70_000; i++) bytes.set(one, i * one.length);
    const records = [...inspectInputBatches(0, { name: 'seq', bytes }, undefined, 10_000)].flatMap((b) => b.records.map((r) => flat(r)));
    expect(records).toHaveLength(70_000);
    expect(records.every((r) => r.decoded && r.error === null)).toBe(true);
  });
});

describe('CBOR that is not a map (agdx/not-a-map)', () => {
  it('a bare array is a record of its own showing the item in diagnostic notation', () => {
    const bytes = Uint8Array.from([0x83, 0x01, 0x62, 0x68, 0x69, 0xf6]);
    const { input, records } = flatInput(inspectInput(0, { name: 'array.cbor', bytes }));
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
    const a = vector('agdx/laser-wire-0.0.1/agent_event.bin');
    const b = vector('agdx/laser-wire-0.0.1/agent_command.bin');
    const bytes = new Uint8Array([...a, 0x82, 0x01, 0x02, ...b]);
    const { input, records } = flatInput(inspectInput(0, { name: 'seq', bytes }));
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
    const b = vector('agdx/laser-wire-0.0.1/agent_command.bin');
    const bytes = new Uint8Array([0x82, 0x01, 0x02, ...b]);
    const { input, records } = flatInput(inspectInput(0, { name: 'seq', bytes }));
    expect(input.format).toBe('cbor-seq');
    expect(records.map((r) => [r.kind, r.error?.code ?? null])).toEqual([
      [null, 'agdx/not-a-map'],
      ['command', null],
    ]);
  });

  it('the same sequence read in batches (as the page reads it) gives the same records', () => {
    const b = vector('agdx/laser-wire-0.0.1/agent_command.bin');
    const bytes = new Uint8Array([0x82, 0x01, 0x02, ...b, 0x01, ...b]);
    const batches = [...inspectInputBatches(0, { name: 'seq', bytes }, undefined, 1)];
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.at(-1)!.input?.format).toBe('cbor-seq');
    const whole = flatInput(inspectInput(0, { name: 'seq', bytes })).records;
    expect(batches.flatMap((x) => x.records).map(({ verdict: r }) => [r.index, r.kind, r.error?.code ?? null, r.span])).toEqual(
      whole.map((r) => [r.index, r.kind, r.error?.code ?? null, r.span]),
    );
  });

  it('two arrays and nothing else are input/unrecognized (a sequence with no map); one array alone is agdx/not-a-map', () => {
    expect(only(Uint8Array.from([0x81, 0x01, 0x81, 0x02])).error?.code).toBe('input/unrecognized');
    expect(only(Uint8Array.from([0x81, 0x01])).error?.code).toBe('agdx/not-a-map');
  });

  it('in bulk (no detail) the notation is made when the record is opened', () => {
    const bytes = Uint8Array.from([0x82, 0x01, 0x02]);
    const [batch] = [...inspectInputBatches(0, { name: 'array', bytes }, undefined, 10)];
    const r = batch.records[0];
    expect(r.verdict.error?.code).toBe('agdx/not-a-map');
    expect(r.data.views).toBeTypeOf('function');
    expect(recordViews(r)).toMatchObject({ body: { rendering: 'cbor', text: '[1, 2]' } });
  });
});

describe('binary that is not CBOR records is refused, and the unknown fallback says why', () => {
  it('a file of zeros (a sequence of integers, none of them a map) stays input/unrecognized, in one record', () => {
    const zeros = new Uint8Array(1 << 20);
    expect(cbor.detect(sourceOf(zeros))).toBeNull();
    const r = only(zeros);
    expect(r.error).toMatchObject({ code: 'input/unrecognized', offset: 0 });
    expect(r.error!.message).toContain('none of them a map');
    const batches = [...inspectInputBatches(0, { name: 'zeros', bytes: zeros }, undefined, 100)];
    expect(batches.flatMap((x) => x.records).map((x) => x.verdict.error?.code)).toEqual(['input/unrecognized']);
    expect(batches.at(-1)!.input?.format).toBe('unknown');
  });

  it('a PNG (whose first bytes read as a CBOR array of 9 by chance) is refused (the driver names it by its signature first)', () => {
    // A 1×1 PNG: 0x89 is an array of 9 items, which its next bytes happen to fill; the rest fails.
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) =>
      c.charCodeAt(0),
    );
    expect(cbor.detect(sourceOf(png))).toBeNull();
    expect(cborRefusal(sourceOf(png))?.message).toMatch(/CBOR/);
    const r = only(png);
    expect(r.error?.code).toBe('input/unrecognized');
    expect(r.error?.message).toBe('a PNG image, not an agent record');
  });

  it('an ELF header is refused', () => {
    const elf = new Uint8Array(64);
    elf.set([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]);
    elf.set([0x02, 0x00, 0x3e, 0x00, 0x01, 0x00, 0x00, 0x00], 16);
    expect(cbor.detect(sourceOf(elf))).toBeNull();
    expect(only(elf).error?.code).toBe('input/unrecognized');
  });

  it('a well-formed first item followed by bytes that do not read is input/unrecognized, naming where CBOR failed', () => {
    const bytes = Uint8Array.from([0x82, 0x01, 0x02, 0x1c]);
    expect(cborRefusal(sourceOf(bytes))).toMatchObject({ code: 'input/unrecognized', offset: 3 });
    const r = only(bytes);
    expect(r.error).toMatchObject({ code: 'input/unrecognized', offset: 3 });
    expect(r.error!.message).toContain('cbor/invalid');
  });
});

describe('sequences keep what came before a failure', () => {
  it('a CBOR sequence with a truncated last item keeps the earlier records', () => {
    const bytes = vector('agdx/made/conversation.cborseq');
    const { input, records } = flatInput(inspectInput(0, { name: 'seq', bytes }));
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
    const a = vector('agdx/laser-wire-0.0.1/agent_event.bin');
    const b = vector('agdx/laser-wire-0.0.1/agent_command.bin');
    const bytes = new Uint8Array([...a, 0xff, ...b]);
    const { records } = flatInput(inspectInput(0, { name: 'seq', bytes }));
    expect(records[0]).toMatchObject({ kind: 'event', decoded: true });
    expect(records[1]).toMatchObject({ decoded: false });
    expect(records[1].error!.code).toBe('cbor/invalid');
    expect(records[1].error!.offset).toBe(a.length);
  });
});

describe('the same unrecognized map again', () => {
  it('makes the record each one makes read alone, at its own place', () => {
    // Empty maps, a map with one key, another, and an envelope between them.
    const env = encodeEnvelope({ kind: 'event', conversation: new Uint8Array(16), source: 'a' });
    const items = [[0xa0], [0xa0], [0xa0], [0xa1, 0x61, 0x41, 0x01], [0xa1, 0x61, 0x41, 0x01], [0xa0], [...env], [0xa0], [0xa1, 0x61, 0x42, 0x02]];
    const view = Uint8Array.from(items.flat());
    const place = { input: 0, view, viewOrigin: 'input' as const };
    const together = [...cborRecordBatches(place, 0, view.length, false, 2)].flatMap((b) => b.records.map((r) => r.verdict));
    let at = 0;
    const alone = items.map((item, index) => {
      const [batch] = cborRecordBatches(place, at, at + item.length, false, 10, index);
      at += item.length;
      return batch.records[0].verdict;
    });
    expect(together).toEqual(alone);
    expect(together.map((v) => v.span)).toEqual(alone.map((v) => v.span));
    expect(together[2]).toMatchObject({ index: 2, span: [2, 3], error: { code: 'input/unrecognized', offset: 2 } });
  });
});
