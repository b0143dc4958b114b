import { describe, expect, it } from 'vitest';
import type { RecordSummary } from '../wire/summary-pack';
import { SummaryColumns } from './summary-columns';

const summary = (key: number, over: Partial<RecordSummary> = {}) =>
  ({ key, valid: true, errors: 0, warnings: 0, redacted: false, operation: null, timeMs: null, timeFrom: null, ...over }) as RecordSummary;
const none = { operation: null, timeMs: null, timeFrom: null };

describe('SummaryColumns', () => {
  it('keeps the counts and what the envelope said of each summary at its key, and knows which keys have none', () => {
    const c = new SummaryColumns();
    c.set(summary(0));
    c.set(summary(2, { valid: false, errors: 3, warnings: 70_000, redacted: true }));
    expect(c.length).toBe(3);
    expect(c.get(0)).toEqual({ valid: true, errors: 0, warnings: 0, redacted: false, ...none });
    expect(c.has(1)).toBe(false);
    expect(c.get(1)).toBeUndefined();
    expect(c.get(2)).toEqual({ valid: false, errors: 3, warnings: 70_000, redacted: true, ...none });
    expect(c.get(3)).toBeUndefined();
    expect(c.get(-1)).toBeUndefined();
  });

  it('grows past its first capacity without losing what it held, replaces a key, and clears', () => {
    const c = new SummaryColumns();
    const said = (key: number) =>
      ({
        operation: key % 3 ? `op${key % 3}` : null,
        timeMs: key % 5 ? 1_733_000_000_000 + key : null,
        timeFrom: key % 5 ? (key % 2 ? 'log' : 'id') : null,
      }) as const;
    for (let key = 0; key < 5000; key++) c.set(summary(key, { errors: key % 7, valid: key % 2 === 0, ...said(key) }));
    c.set(summary(10, { errors: 99, valid: false }));
    expect(c.length).toBe(5000);
    expect(c.get(4999)).toEqual({ valid: false, errors: 4999 % 7, warnings: 0, redacted: false, ...said(4999) });
    expect(c.get(1000)).toEqual({ valid: true, errors: 1000 % 7, warnings: 0, redacted: false, ...said(1000) });
    expect(c.get(10)).toEqual({ valid: false, errors: 99, warnings: 0, redacted: false, ...none });
    for (let key = 0; key < 5000; key++) if (key !== 10) expect(c.get(key)).toMatchObject(said(key));
    c.clear();
    expect(c.length).toBe(0);
    expect(c.has(0)).toBe(false);
  });

  it('throws a TypeError for a key that is not a record number', () => {
    expect(() => new SummaryColumns().set(summary(-1))).toThrow(TypeError);
    expect(() => new SummaryColumns().set(summary(1.5))).toThrow(TypeError);
  });
});
