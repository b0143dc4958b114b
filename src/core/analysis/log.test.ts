// A key change folds the log again and keeps the rest (analysis/log.ts refoldLog): the refolded
// analysis shares the graph, its objects and the timing with the one before, and does not hold
// that one (or a chain of them, one per key change) alive.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { agdxSequence } from '../../../test/support/generate';
import { inspect } from '../inspect';
import { logFactsOf } from '../records';
import { analyzeLog, refoldLog } from './log';
import { withVerdicts } from '../log/entry';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

const records = inspect([{ name: 'log.cborseq', bytes: agdxSequence(400) }], { detail: false }).records;
const facts = logFactsOf(records);
// The verdicts as a key change would renew them: every entry's, so each refold has new facts.
const renewed = () => withVerdicts(facts, (i) => ({ signature: { ...records[i].verdict.signature }, invalid: true }));

describe('refoldLog', () => {
  it('shares what rests on no verdict, folds anew, and keeps the findings by record', () => {
    const first = analyzeLog(facts);
    const next = refoldLog(first, renewed());
    expect(next.compact).toBe(first.compact);
    expect(next.timing).toBe(first.timing);
    expect(next.folds).not.toBe(first.folds);
    expect([...next.findings].map(([i, fs]) => [i, fs.map((f) => f.rule)])).toEqual([...first.findings].map(([i, fs]) => [i, fs.map((f) => f.rule)]));
    expect(() => refoldLog({ ...first }, renewed())).toThrow(TypeError);
  });

  it('lets the analyses before it go', async () => {
    let current = analyzeLog(facts);
    current.timing; // made, and shared from here on
    const earlier: WeakRef<object>[] = [];
    for (let i = 0; i < 3; i++) {
      earlier.push(new WeakRef(current));
      current = refoldLog(current, renewed());
    }
    // A WeakRef's target lives to the end of the job that made it: collect after it.
    await new Promise((r) => setTimeout(r, 0));
    gc();
    expect(earlier.map((w) => w.deref() === undefined)).toEqual([true, true, true]);
    expect(current.compact.records).toBeGreaterThan(100);
  });
});
