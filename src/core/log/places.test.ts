import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EntryPlacesBuilder } from './places';

/** A load's records: [input, index, has an entry]; its entries' places as columns would have held them. */
function load(records: readonly [number, number, boolean][]) {
  const builder = new EntryPlacesBuilder();
  const expected: { record: number; input: number; index: number }[] = [];
  records.forEach(([input, index, entry], record) => {
    if (!entry) return;
    builder.add(record, input, index);
    expected.push({ record, input, index });
  });
  return { places: builder.done(), expected };
}

describe('EntryPlaces', () => {
  it('gives each entry its record, input and index, and each record its entry (−1 without one), for any load read in record order (300 runs)', () => {
    const input = fc.record({
      length: fc.integer({ min: 0, max: 40 }),
      entries: fc.double({ min: 0, max: 1, noNaN: true }),
      from: fc.constantFrom(0, 0, 0, 3),
    });
    fc.assert(
      fc.property(fc.array(input, { maxLength: 5 }), fc.integer({ min: 1, max: 1000 }), (inputs, seed) => {
        // Inputs one after another, each's indices from `from` (a dead letter's payload may not count from 0), some records without an entry.
        let x = seed;
        const records: [number, number, boolean][] = [];
        inputs.forEach((d, i) => {
          for (let j = 0; j < d.length; j++) {
            x = (x * 1103515245 + 12345) % 2147483648;
            records.push([i, d.from + j, x / 2147483648 < d.entries]);
          }
        });
        const { places, expected } = load(records);
        expect(places.length).toBe(expected.length);
        // Read in order, then backwards (the last run found is where a lookup starts).
        const read = (k: number) => expect({ record: places.record(k), input: places.input(k), index: places.index(k) }).toEqual(expected[k]);
        for (let k = 0; k < expected.length; k++) read(k);
        for (let k = expected.length - 1; k >= 0; k--) read(k);
        for (let r = -1; r <= records.length; r++) {
          const k = expected.findIndex((e) => e.record === r);
          expect(places.entryOf(r)).toBe(k);
        }
      }),
      { numRuns: 300, seed: 29 },
    );
  });

  it('keeps one run for a load whose places follow from its entries (a CBOR sequence of envelopes)', () => {
    const { places } = load(Array.from({ length: 10_000 }, (_, i) => [0, i, true] as [number, number, boolean]));
    expect((places as unknown as { first: Int32Array }).first.length).toBe(1);
    expect([places.record(9_999), places.index(9_999), places.entryOf(5_000)]).toEqual([9_999, 9_999, 5_000]);
  });

  it('throws a TypeError for an entry it does not have, or a record added out of order', () => {
    const { places } = load([[0, 0, true]]);
    expect(() => places.record(1)).toThrow(TypeError);
    expect(() => places.input(-1)).toThrow(TypeError);
    const none = new EntryPlacesBuilder().done();
    expect(() => none.index(0)).toThrow(TypeError);
    expect(none.entryOf(0)).toBe(-1);
    const builder = new EntryPlacesBuilder();
    builder.add(3, 0, 3);
    expect(() => builder.add(3, 0, 4)).toThrow(TypeError);
  });
});
