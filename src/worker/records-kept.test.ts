// A load past the records the page keeps (read-input.ts RECORDS_KEPT): the rest of the input is read
// and counted, not kept, and the load says how many it read and how many it holds (issue 23: a
// 16 MB file of 0xa0 bytes is 16.7 million one-byte records, and kept they took the worker to 4 GB).
import { describe, expect, it } from 'vitest';
import type { InputSummary } from '../wire/protocol';
import { InspectorSession } from './session';

/** `n` records of one byte each: an empty CBOR map, no AGDX item. */
const emptyMaps = (n: number) => new Blob([new Uint8Array(n).fill(0xa0)]);

async function loadEmptyMaps(n: number, kept: number) {
  const session = new InspectorSession(undefined, undefined, kept);
  let listed = 0;
  let input: InputSummary | null = null;
  const result = await session.load([{ name: 'a0.bin', data: emptyMaps(n) }], {
    batch: (b) => {
      listed += b.records.length;
      input = b.inputs[0] ?? input;
    },
  });
  return { session, listed, input: input as InputSummary | null, result };
}

describe('a load past the records the page keeps', () => {
  it('keeps and lists the first ones, reads the rest to the end and says how many it read', async () => {
    const { session, listed, input, result } = await loadEmptyMaps(5000, 1500);
    expect(listed).toBe(1500);
    expect(input).toMatchObject({ records: 1500, unkept: 3500, format: 'cbor-seq', error: null });
    expect(result.problems).toEqual([
      'a0.bin: 5,000 records read, 1,500 of them kept and listed: the page keeps at most 1,500 records (the command line, envelope-inspector inspect, reports them all)',
    ]);
    // The records it holds are there to be shown and reported, each with its error.
    const report = JSON.parse(session.report().json);
    expect(report.records).toHaveLength(1500);
    expect(report.records[1499]).toMatchObject({ index: 1499, span: [1499, 1500], error: { code: 'input/unrecognized', offset: 1499 } });
  });

  it('holds no more for more records read', async () => {
    const small = await loadEmptyMaps(3000, 1000);
    const large = await loadEmptyMaps(30000, 1000);
    expect(JSON.parse(small.session.report().json).records).toHaveLength(1000);
    expect(JSON.parse(large.session.report().json).records).toHaveLength(1000);
    expect(large.input).toMatchObject({ records: 1000, unkept: 29000 });
  });

  it('keeps every record of a load within it, and says nothing', async () => {
    const { listed, input, result } = await loadEmptyMaps(800, 1000);
    expect(listed).toBe(800);
    expect(input?.unkept).toBeUndefined();
    expect(result.problems).toEqual([]);
  });
});
