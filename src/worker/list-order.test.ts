import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordSummary } from '../wire/summary-pack';
import { orderKeys, verdictRank } from './list-order';
import { InspectorSession } from './session';

const read = (p: string) => new Uint8Array(readFileSync(resolve(__dirname, '../..', p)));

const s = (key: number, over: Partial<RecordSummary>): RecordSummary =>
  ({
    key,
    format: 'agdx.envelope',
    kind: 'command',
    id: null,
    source: null,
    target: null,
    decoded: true,
    valid: true,
    signature: 'unsigned',
    trusted: false,
    warnings: 0,
    operation: null,
    timeMs: null,
    timeFrom: null,
    ...over,
  }) as RecordSummary;

describe('the list order', () => {
  const rows = [
    s(0, { timeMs: 30, kind: 'response', source: 'b' }),
    s(1, { timeMs: null, kind: 'chunk', operation: 'zeta', source: 'a', target: 'z' }),
    s(2, { timeMs: 10, kind: 'command', source: 'a', target: 'b' }),
    s(3, { timeMs: 30, kind: 'chunk', decoded: false }),
    s(4, { timeMs: 20, kind: 'event', valid: false }),
  ];
  const of = (k: number) => rows[k];
  const keys = Int32Array.from([0, 1, 2, 3, 4]);
  const order = (by: Parameters<typeof orderKeys>[1]['by'], descending = false) => [...orderKeys(keys, { by, descending }, of)];

  it('sorts by time, ties in log order and records without a time last, either way', () => {
    expect(order('time')).toEqual([2, 4, 0, 3, 1]);
    expect(order('time', true)).toEqual([0, 3, 4, 2, 1]);
  });

  it('sorts by kind, route and type (the operation before the kind)', () => {
    expect(order('kind')).toEqual([1, 3, 2, 4, 0]);
    expect(order('route')).toEqual([2, 1, 0, 3, 4]);
    expect(order('type')).toEqual([3, 2, 4, 0, 1]);
  });

  it('puts the worst verdicts first', () => {
    expect(order('verdict')).toEqual([3, 4, 0, 1, 2]);
    expect(verdictRank(s(9, { signature: 'valid', trusted: true }))).toBeGreaterThan(verdictRank(s(9, { signature: 'valid', trusted: false })));
    expect(verdictRank(s(9, { signature: 'invalid' }))).toBeLessThan(verdictRank(s(9, { warnings: 1 })));
  });

  it('keeps log order as it is, or reverses it', () => {
    expect(orderKeys(keys, { by: 'log', descending: false }, of)).toBe(keys);
    expect(order('log', true)).toEqual([4, 3, 2, 1, 0]);
  });
});

describe('the summaries the list sorts', () => {
  it("carry each record's time (its log time, else its id's ULID time) and operation; the session's filter sorts by them", async () => {
    const session = new InspectorSession();
    const { records } = await session.load([
      { name: 'deadlines.cborseq', data: new Blob([read('vectors/agdx/made/deadlines.cborseq')]) },
      { name: 'conv.json', data: new Blob([read('vectors/agdx/made/conversation_http_v07.json')]) },
    ]);
    const fromIds = records.filter((r) => r.input === 0);
    const fromLog = records.filter((r) => r.input === 1);
    expect(fromIds.every((r) => r.timeFrom === 'id' && r.timeMs! > 1.7e12)).toBe(true);
    expect(fromLog.every((r) => r.timeFrom === 'log' && r.timeMs! > 1.7e12)).toBe(true);
    expect(records.some((r) => r.operation === 'chat')).toBe(true);
    const byTime = [...session.filter({}, { by: 'time', descending: false })];
    const times = byTime.map((k) => records.find((r) => r.key === k)!.timeMs!);
    expect(times).toEqual(times.slice().sort((a, b) => a - b));
    expect(new Set(byTime).size).toBe(records.length);
    // A filter and an order together: only the kept records, in the order.
    const commands = [...session.filter({ kind: 'command' }, { by: 'time', descending: true })];
    expect(commands.every((k) => records.find((r) => r.key === k)!.kind === 'command')).toBe(true);
    expect(commands.map((k) => records.find((r) => r.key === k)!.timeMs!)).toEqual(
      commands.map((k) => records.find((r) => r.key === k)!.timeMs!).sort((a, b) => b - a),
    );
  });
});
