import { describe, expect, it } from 'vitest';
import { toCrockford } from '../core/bytes';
import { packSummaries, unpackSummaries, type RecordSummary } from '../wire/summary-pack';
import { SummaryStore } from './summary-store';

const summary = (key: number, over: Partial<RecordSummary> = {}): RecordSummary => ({
  key,
  dialect: null,
  displayType: null,
  input: key < 3 ? 0 : 1,
  index: key,
  format: 'agdx.envelope' as RecordSummary['format'],
  kind: key % 2 ? 'command' : null,
  id: `01HZ${key}`,
  conversation: key % 3 ? 'conv' : null,
  source: 'alice',
  target: key % 2 ? 'bob' : null,
  decoded: key !== 4,
  valid: key % 2 === 0,
  errorCode: key === 4 ? 'cbor/truncated' : null,
  signature: (['unsigned', 'valid', 'invalid', 'unknown_key', 'unsupported', 'malformed'] as const)[key % 6],
  trusted: key === 1,
  trustNote: key === 3 ? 'key of booker' : null,
  errors: key,
  warnings: 2 * key,
  summary: key === 5 ? '' : `record ${key} — é ✓`,
  redacted: key === 2,
  operation: key % 3 === 1 ? 'chat' : null,
  // Times either side of 2^32 ms and before 1970, from the log or from the id; none for some.
  timeMs: key % 4 === 3 ? null : [1_717_171_777_123, 4_294_967_295, -86_400_000][key % 3] + key,
  timeFrom: key % 4 === 3 ? null : key % 2 ? 'log' : 'id',
  ...over,
});

describe('summary packs', () => {
  it('round-trip every field, nulls and empty strings included', () => {
    const records = Array.from({ length: 7 }, (_, k) => summary(k));
    expect(unpackSummaries(packSummaries(records))).toEqual(records);
  });

  it('carry an id as toCrockford writes one as its bytes, not a string, and any other id as a string', () => {
    const ulid = (k: number) => toCrockford(Uint8Array.from({ length: 16 }, (_, i) => (k * 31 + i * 7) & 255));
    const ids = [ulid(0), ulid(1), '01HZ2', ulid(3).toLowerCase(), `8${ulid(4).slice(1)}`, null, ulid(6), `7${'Z'.repeat(25)}`];
    const records = ids.map((id, k) => summary(k, { id }));
    const pack = packSummaries(records);
    expect(unpackSummaries(pack)).toEqual(records);
    // The page keeps no string for the ids the bytes carry (a million of them were 35 MB of its heap).
    for (const k of [0, 1, 6, 7]) expect(pack.strings).not.toContain(ids[k]);
    for (const k of [2, 3, 4]) expect(pack.strings).toContain(ids[k]);
    const store = new SummaryStore();
    store.apply(pack);
    for (const [k, r] of records.entries()) expect(store.get(k)).toEqual(r);
  });

  it('refuse a signature status they cannot carry', () => {
    expect(() => packSummaries([summary(0, { signature: 'odd' as RecordSummary['signature'] })])).toThrow(TypeError);
  });
});

describe('SummaryStore', () => {
  it('appends packs, replaces re-judged records and keeps strings apart across packs', () => {
    const store = new SummaryStore();
    store.apply(packSummaries([0, 1, 2].map((k) => summary(k))));
    store.apply(packSummaries([3, 4, 5, 6].map((k) => summary(k))));
    expect(store.length).toBe(7);
    for (let k = 0; k < 7; k++) expect(store.get(k)).toEqual(summary(k));
    const before = store.get(1);
    expect(store.get(1)).toBe(before); // cached: memoised rows see the same object
    store.apply(packSummaries([summary(1, { signature: 'invalid', trusted: false, source: 'mallory' })]));
    expect(store.get(1)).not.toBe(before);
    expect(store.get(1)).toMatchObject({ signature: 'invalid', source: 'mallory' });
    expect(store.get(0)).toEqual(summary(0));
    expect(store.get(7)).toBeUndefined();
    expect(store.inputOf(4)).toBe(1);
    expect(store.inputOf(99)).toBe(Infinity);
  });

  it('grows past its first capacity (16,384 records), keeping what it held, and clears', () => {
    const store = new SummaryStore();
    // Half the ids as bytes (as toCrockford writes them), half as strings: both kept apart across chunks.
    const many = Array.from({ length: 20_000 }, (_, k) =>
      summary(k, k % 2 ? { id: toCrockford(Uint8Array.from({ length: 16 }, (_, i) => (k >> (i % 3)) & 255)) } : {}),
    );
    store.apply(packSummaries(many.slice(0, 10_000)));
    store.apply(packSummaries(many.slice(10_000))); // past the first chunk: the store adds one
    expect(store.length).toBe(20_000);
    for (const k of [0, 1234, 9999, 10_000, 16_384, 19_999]) expect(store.get(k), `record ${k}`).toEqual(many[k]);
    expect(store.inputOf(0)).toBe(0);
    expect(store.inputOf(19_999)).toBe(1);
    store.clear();
    expect(store.length).toBe(0);
    expect(store.get(0)).toBeUndefined();
  });

  it('trims the room it grew into at the end of a load, then grows again for the next one', () => {
    const store = new SummaryStore();
    const many = Array.from({ length: 40_000 }, (_, k) => summary(k));
    store.apply(packSummaries(many.slice(0, 20_000)));
    expect(store.capacity).toBe(32_768);
    store.trim();
    expect(store.capacity).toBe(20_000);
    for (const k of [0, 16_384, 19_999]) expect(store.get(k), `record ${k}`).toEqual(many[k]);
    store.apply(packSummaries(many.slice(20_000)));
    // The cut chunk whole again, and one more: three chunks of 16,384.
    expect(store.capacity).toBe(49_152);
    expect(store.get(39_999)).toEqual(many[39_999]);
    expect(store.get(12_345)).toEqual(many[12_345]);
    // A small load keeps the first room: no shrinking below it.
    const small = new SummaryStore();
    small.apply(packSummaries(many.slice(0, 10)));
    small.trim();
    expect(small.capacity).toBe(16_384);
  });
});

describe('SummaryStore chunks', () => {
  it('keeps every record across chunk edges, applied in packs that straddle them and replaced in place', () => {
    const store = new SummaryStore();
    const many = Array.from({ length: 50_000 }, (_, k) => summary(k));
    for (let from = 0; from < many.length; from += 7_001) store.apply(packSummaries(many.slice(from, from + 7_001)));
    expect(store.length).toBe(50_000);
    for (const k of [0, 16_383, 16_384, 32_767, 32_768, 49_151, 49_152, 49_999]) {
      expect(store.get(k), `record ${k}`).toEqual(many[k]);
      expect(store.inputOf(k)).toBe(many[k].input);
    }
    store.trim();
    expect(store.capacity).toBe(50_000);
    const again = { ...summary(16_384), valid: !many[16_384].valid };
    store.apply(packSummaries([again]));
    expect(store.get(16_384)).toEqual(again);
    expect(store.get(16_383)).toEqual(many[16_383]);
  });
});
