// A record's summary is made once from its envelope; made again (a list query, the load's end, a key
// change) it reads what that envelope said from the summary columns, as a bulk-read record's
// envelope is let go once its batch is summarized (core/import/fast-record.ts).
import { describe, expect, it } from 'vitest';
import { agdxSequence, BENCH_PUBLIC_KEY } from '../../test/support/generate';
import { toHex } from '../core/bytes';
import { parseKeys } from '../core/keys/keys';
import { InspectorSession } from './session';
import { summarize } from './summarize';

describe('summaries made again', () => {
  it('say what the first said of each envelope, after the load and after a key change', async () => {
    const session = new InspectorSession();
    const bytes = agdxSequence(4500, { signedEvery: 40 });
    const first = new Map<number, unknown>();
    await session.load([{ name: 'log.cborseq', data: new Blob([bytes.slice()]) }], {
      batch: (b) => {
        for (const r of b.records) first.set(r.key, { operation: r.operation, timeMs: r.timeMs, timeFrom: r.timeFrom });
      },
    });
    const state = session.state;
    expect(first.size).toBe(4500);
    const said = (k: number) => {
      const s = state.summaryOf(k)!;
      return { operation: s.operation, timeMs: s.timeMs, timeFrom: s.timeFrom };
    };
    expect(new Set([...first.values()].map((s) => (s as { operation: string | null }).operation)).size).toBeGreaterThan(2);
    for (const [k, s] of first) expect(said(k)).toEqual(s);
    // The same as made from the record now (its envelope read again from the input).
    for (let k = 0; k < 4500; k += 97) expect(state.summaryOf(k)).toEqual(summarize(k, state.records[k], state.logRules(k)));
    const changed = await session.setKeys(parseKeys(JSON.stringify({ keys: [{ agent: 'bench', public_key: toHex(BENCH_PUBLIC_KEY) }] })).keys);
    expect(changed.length).toBeGreaterThan(0);
    for (const s of changed) expect({ operation: s.operation, timeMs: s.timeMs, timeFrom: s.timeFrom }).toEqual(first.get(s.key));
    for (const [k, s] of first) expect(said(k)).toEqual(s);
  });
});
