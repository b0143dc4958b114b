import { describe, expect, it } from 'vitest';
import type { ByteRange } from '../../core/compare/model';
import type { InputSummary } from '../../wire/protocol';
import type { RecordSummary } from '../../wire/summary-pack';
import { firstKeyOf, type SummarySource } from '../summary-store';
import { byteDiff } from '../../core/compare/bytes';
import { alignedColumns, byteHunks, bytesWords, columnWords, comparedWords, latencyWords, recordWords, shownRows, subjectOf } from './compare-view';

/** Records 0–2 of input 0 (two of conversation C1), 3–4 of input 1 (no conversation). */
function store(): SummarySource {
  const rows: Partial<RecordSummary>[] = [
    { key: 0, input: 0, index: 0, conversation: 'C1' },
    { key: 1, input: 0, index: 1, conversation: 'C1' },
    { key: 2, input: 0, index: 2, conversation: 'C2' },
    { key: 3, input: 1, index: 0, conversation: null },
    { key: 4, input: 1, index: 1, conversation: null },
  ];
  return { length: rows.length, get: (k) => rows[k] as RecordSummary | undefined, inputOf: (k) => rows[k].input! };
}
const inputs = [
  { input: 0, name: 'yesterday.cborseq' },
  // A right-to-left override: unescaped, this name would show as "invoicerobc.jpg".
  { input: 1, name: 'invoice\u202Egpj.cbor' },
] as InputSummary[];

describe('the compared pair', () => {
  it('asks for the records, their inputs or their conversations; null when a record is gone or has no conversation', () => {
    const s = store();
    expect(subjectOf({ a: 0, b: 3, scope: 'records' }, s)).toEqual({ scope: 'records', a: 0, b: 3 });
    expect(subjectOf({ a: 1, b: 4, scope: 'inputs' }, s)).toEqual({ scope: 'inputs', a: 0, b: 1 });
    expect(subjectOf({ a: 1, b: 2, scope: 'conversations' }, s)).toEqual({ scope: 'conversations', a: 'C1', b: 'C2' });
    expect(subjectOf({ a: 1, b: 3, scope: 'conversations' }, s)).toBeNull();
    expect(subjectOf({ a: 1, b: 9, scope: 'records' }, s)).toBeNull();
  });

  it('finds the first record of an input', () => {
    const s = store();
    expect(firstKeyOf(0, s)).toBe(0);
    expect(firstKeyOf(1, s)).toBe(3);
    expect(firstKeyOf(2, s)).toBeNull();
  });

  it('says what is compared, the names escaped', () => {
    const s = store();
    expect(recordWords(4, s, inputs)).toBe('record #1 of invoice⟨U+202E⟩gpj.cbor');
    expect(recordWords(9, s, inputs)).toBe('record 9 (no longer loaded)');
    expect(comparedWords({ a: 0, b: 4, scope: 'records' }, s, inputs)).toBe('record #0 of yesterday.cborseq with record #1 of invoice⟨U+202E⟩gpj.cbor');
    expect(comparedWords({ a: 0, b: 4, scope: 'inputs' }, s, inputs)).toBe('the inputs yesterday.cborseq and invoice⟨U+202E⟩gpj.cbor');
    expect(comparedWords({ a: 0, b: 2, scope: 'conversations' }, s, inputs)).toBe(
      'the conversations C1 (of record #0 of yesterday.cborseq) and C2 (of record #2 of yesterday.cborseq)',
    );
  });
});

describe('the shown parts', () => {
  it('leaves out unchanged rows unless asked', () => {
    const rows = [
      { path: 'a', depth: 0, status: 'same', a: '1', b: '1', container: false },
      { path: 'b', depth: 0, status: 'changed', a: '1', b: '2', container: false },
    ] as const;
    expect(shownRows(rows, false).map((r) => r.path)).toEqual(['b']);
    expect(shownRows(rows, true).map((r) => r.path)).toEqual(['a', 'b']);
  });

  it('groups changed stretches into hunks with context, closer ones together, windows inside the bytes', () => {
    const a = new Uint8Array(100);
    const b = new Uint8Array(100);
    const range = (op: ByteRange['op'], from: number, to: number, fields: string[] = []): ByteRange => ({ op, a: [from, to], b: [from, to], fields });
    const ranges = [
      range('equal', 0, 2),
      range('changed', 2, 3, ['kind']),
      range('equal', 3, 10),
      range('changed', 10, 12, ['body']),
      range('equal', 12, 60),
      range('changed', 60, 61, ['metadata']),
      range('equal', 61, 100),
    ];
    const { hunks, more } = byteHunks({ a, b, ranges }, 8);
    expect(more).toBe(0);
    expect(hunks).toHaveLength(2);
    expect(hunks[0].a).toEqual({
      start: 0,
      end: 20,
      marks: [
        [2, 3],
        [10, 12],
      ],
    });
    expect(hunks[0].fields).toEqual(['kind', 'body']);
    expect(hunks[1].b).toEqual({ start: 52, end: 69, marks: [[60, 61]] });
    expect(byteHunks({ a, b, ranges }, 8, 1)).toMatchObject({ hunks: [{ fields: ['kind', 'body'] }], more: 1 });
  });

  it('counts bytes and latencies as a person reads them', () => {
    expect(bytesWords([12, 30])).toBe('bytes 12–29');
    expect(bytesWords([0, 1])).toBe('byte 0');
    expect(bytesWords([5, 5])).toBe('no bytes (at 5)');
    expect(latencyWords(null)).toBe('—');
    expect(latencyWords(340)).toBe('340 µs');
    expect(latencyWords(-120_000)).toBe('−120 ms');
    expect(latencyWords(1_250_000)).toBe('1.25 s');
    // The timeline's wording: three significant figures, minutes past a minute.
    expect(latencyWords(1_500)).toBe('1.5 ms');
    expect(latencyWords(75_000_000)).toBe('1 min 15 s');
  });
});

describe('an aligned hunk', () => {
  it('shows one inserted byte as inserted, and the bytes after it line up again (equal above equal)', () => {
    // B: the same bytes with 0x10 changed to 0x11 and 0x99 inserted after 0x05.
    const a = Uint8Array.from([1, 2, 0x10, 3, 4, 5, 6, 7, 8, 9]);
    const b = Uint8Array.from([1, 2, 0x11, 3, 4, 5, 0x99, 6, 7, 8, 9]);
    const d = byteDiff('received', a, b);
    const { hunks } = byteHunks(d, 8);
    expect(hunks).toHaveLength(1);
    const { columns, more } = alignedColumns(d, hunks[0]);
    expect(more).toBe(0);
    expect(columns.map((c) => c.op)).toEqual(['equal', 'equal', 'changed', 'equal', 'equal', 'equal', 'inserted', 'equal', 'equal', 'equal', 'equal']);
    for (const c of columns) if (c.op === 'equal') expect(a[c.a!]).toBe(b[c.b!]);
    expect(columns[6]).toEqual({ op: 'inserted', a: null, b: 6 });
    expect(columnWords(columns, a, b)).toBe('byte changed at A 2, B 2 (10 → 11); byte only in B (inserted) at B 6 (99)');
    // The other way round, the byte is deleted.
    const back = byteDiff('received', b, a);
    const cols = alignedColumns(back, byteHunks(back, 8).hunks[0]).columns;
    expect(cols.filter((c) => c.op === 'deleted')).toEqual([{ op: 'deleted', a: 6, b: null }]);
  });

  it('counts the columns past its limit', () => {
    const a = new Uint8Array(40).fill(1);
    const b = new Uint8Array(40).fill(2);
    const d = byteDiff('received', a, b);
    expect(alignedColumns(d, byteHunks(d).hunks[0], 16)).toMatchObject({ more: 24 });
  });
});
