// What a load leaves for later, so a large one holds and does little more than its records: the
// deadline and clock findings' spans are found when a record is shown (not when the list counts
// them or the rule filter indexes them), and the timeline's pairs are made when it is drawn, once.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { agdxSequence } from '../../test/support/generate';
import { InspectorSession } from './session';

const counts = vi.hoisted(() => ({ located: 0, timingLinks: 0 }));

vi.mock('../core/graph/keys', async (importOriginal) => {
  const real = await importOriginal<typeof import('../core/graph/keys')>();
  return { ...real, spanOfPath: (...args: Parameters<typeof real.spanOfPath>) => (counts.located++, real.spanOfPath(...args)) };
});
// A record read in bulk finds a top-level field without its tree (views.ts): that counts too.
vi.mock('../core/import/views', async (importOriginal) => {
  const real = await importOriginal<typeof import('../core/import/views')>();
  const locate = real.envelopeViews.locate!;
  const counted: typeof locate = (record, path) => {
    const span = locate(record, path);
    if (span !== undefined) counts.located++;
    return span;
  };
  return { ...real, envelopeViews: Object.assign((r: Parameters<typeof real.envelopeViews>[0]) => real.envelopeViews(r), { locate: counted }) };
});
vi.mock('../core/analysis/timing', async (importOriginal) => {
  const real = await importOriginal<typeof import('../core/analysis/timing')>();
  return { ...real, timingLinks: (...args: Parameters<typeof real.timingLinks>) => (counts.timingLinks++, real.timingLinks(...args)) };
});

beforeEach(() => {
  counts.located = 0;
  counts.timingLinks = 0;
});

const TIMING = /^agdx\/(deadline\/|graph\/clock-skew)/;

describe('a load of the page worker', () => {
  it('counts and indexes timing findings without finding their fields, and finds them when a record is shown', async () => {
    const session = new InspectorSession();
    await session.load([{ name: 'log.cborseq', data: new Blob([agdxSequence(2_000) as Uint8Array<ArrayBuffer>]) }], { batch: () => {} });
    const present = session.rulesPresent().rules.filter((r) => TIMING.test(r.id));
    // The log does carry such findings (else this would test nothing).
    const timed = present.reduce((n, r) => n + r.records, 0);
    expect(timed).toBeGreaterThan(50);
    // The load did not locate the timing findings' fields (at most a few of other findings').
    const atLoad = counts.located;
    expect(atLoad).toBeLessThan(timed);
    const keys = session.filter({ rule: 'agdx/graph/clock-skew' });
    expect(keys.length).toBeGreaterThan(50);
    expect(counts.located).toBe(atLoad);

    const detail = session.detail(keys[0])!;
    const skew = detail.findings.find((f) => f.rule === 'agdx/graph/clock-skew')!;
    expect(skew.span).not.toBeNull();
    expect(counts.located).toBeGreaterThan(atLoad);
    // Only this record's findings were located, not every record's.
    expect(counts.located - atLoad).toBeLessThanOrEqual(detail.findings.length);
    // Found once: shown again, the record's spans are not looked for again.
    const afterOne = counts.located;
    expect(session.detail(keys[0])!.findings.find((f) => f.rule === 'agdx/graph/clock-skew')!.span).toEqual(skew.span);
    expect(counts.located).toBe(afterOne);
  });

  it("makes the timeline's pairs and skews when the timeline is first drawn, and keeps them", async () => {
    const session = new InspectorSession();
    await session.load([{ name: 'log.cborseq', data: new Blob([agdxSequence(500) as Uint8Array<ArrayBuffer>]) }], { batch: () => {} });
    expect(counts.timingLinks).toBe(0);
    session.timeline();
    session.timeline();
    expect(counts.timingLinks).toBe(1);
  });
});
