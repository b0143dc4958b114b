import { describe, expect, it } from 'vitest';
import { MARK } from '../../wire/timeline-pack';
import { centreOn, firstMarkFrom, fitView, FIT_MARGIN, MAX_PER_PX, MIN_PER_PX, markNear, panBy, ticks, tOf, wheelFactor, xOf, zoomAt } from './view';

/** Packed marks at these (time, lane) pairs, in time order. */
function marks(...rows: [number, number][]): Float64Array {
  const out = new Float64Array(rows.length * MARK.STRIDE);
  rows.forEach(([t, lane], i) => {
    out[i * MARK.STRIDE + MARK.T] = t;
    out[i * MARK.STRIDE + MARK.LANE] = lane;
    out[i * MARK.STRIDE + MARK.RECORD] = 100 + i;
  });
  return out;
}

describe('the timeline view', () => {
  it('fits a stretch of time inside the margins, and a single instant into a second around it', () => {
    const v = fitView(0, 6_000_000, 1000);
    expect(xOf(v, 0)).toBeCloseTo(FIT_MARGIN);
    expect(xOf(v, 6_000_000)).toBeCloseTo(1000 - FIT_MARGIN);
    const one = fitView(5, 5, 1000);
    expect(xOf(one, 5)).toBeCloseTo(500);
    expect(one.perPx * (1000 - 2 * FIT_MARGIN)).toBeCloseTo(1_000_000);
    expect(() => fitView(0, 1, 0)).toThrow(TypeError);
    expect(() => fitView(2, 1, 100)).toThrow(TypeError);
  });

  it('zooms about a pixel, which keeps its time, within limits; pans by pixels; centres on a time', () => {
    const v = { start: 0, perPx: 1000 };
    const z = zoomAt(v, 2, 300);
    expect(tOf(z, 300)).toBeCloseTo(tOf(v, 300));
    expect(z.perPx).toBe(500);
    expect(zoomAt(v, 1e30, 0).perPx).toBe(MIN_PER_PX);
    expect(zoomAt(v, 1e-30, 0).perPx).toBe(MAX_PER_PX);
    expect(() => zoomAt(v, 0, 0)).toThrow(TypeError);
    expect(panBy(v, 50)).toEqual({ start: 50_000, perPx: 1000 });
    expect(xOf(centreOn(v, 1_000_000, 800), 1_000_000)).toBe(400);
  });

  it('a wheel notch zooms by about 10%, toward the reader when scrolled up (negative deltaY), bounded for huge deltas', () => {
    expect(wheelFactor(-50, 0)).toBeGreaterThan(1.1);
    expect(wheelFactor(50, 0)).toBeLessThan(0.91);
    expect(wheelFactor(-3, 1)).toBeCloseTo(wheelFactor(-48, 0));
    expect(wheelFactor(1e9, 0)).toBeCloseTo(wheelFactor(600, 0));
  });

  it('ticks at a nice step at least the asked distance apart, labelled from the origin', () => {
    const v = fitView(0, 6_000_000, 1000);
    const t = ticks(v, 1000);
    expect(t.map((x) => x.label)).toEqual(['0', '+1 s', '+2 s', '+3 s', '+4 s', '+5 s', '+6 s']);
    for (let i = 1; i < t.length; i++) expect(t[i].x - t[i - 1].x).toBeGreaterThanOrEqual(90);
    // Before the origin (a deadline weeks earlier), and at a scale past days.
    expect(ticks({ start: -2e6, perPx: 10_000 }, 500).map((x) => x.label)).toEqual(['−2 s', '−1 s', '0', '+1 s', '+2 s', '+3 s']);
    expect(ticks({ start: 0, perPx: 1e12 }, 500).length).toBeGreaterThan(0);
  });

  it('finds the first mark at a time, and the mark of a lane nearest a pixel', () => {
    const m = marks([0, 0], [10, 1], [20, 0], [20, 1], [40, 0]);
    expect([-1, 0, 5, 20, 21, 41].map((t) => firstMarkFrom(m, t))).toEqual([0, 0, 1, 2, 4, 5]);
    const v = { start: 0, perPx: 1 };
    expect(markNear(m, v, 0, 18, 6)).toBe(2);
    expect(markNear(m, v, 1, 18, 6)).toBe(3);
    expect(markNear(m, v, 1, 30, 6)).toBe(-1);
    expect(markNear(m, v, 0, 33, 6)).toBe(-1);
    expect(markNear(m, v, 0, 36, 6)).toBe(4);
  });
});
