// Times as people type them (UTC) and as a window shows them, with the micros.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoFromMicros, parseUtcMicros, utcFromMicros } from './time';

/** isoFromMicros as plain BigInt arithmetic and Date, with nothing kept between calls. */
function plainIso(micros: bigint | number | string): string | null {
  let ms: number;
  try {
    ms = Number(BigInt(micros) / 1000n);
  } catch {
    return null;
  }
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

describe('isoFromMicros', () => {
  it('is the plain BigInt reckoning for any time, in runs and alternating as a report asks them, and null past any date', () => {
    const micros = fc.oneof(
      fc.bigInt({ min: -(1n << 63n), max: 1n << 63n }),
      fc.bigInt({ min: -9_000_000_000_000_000n, max: 9_000_000_000_000_000n }),
      fc.bigInt({ min: 1_717_171_717_000_000n, max: 1_717_171_719_000_000n }),
      fc.constantFrom(-1n, -999n, -1000n, -1001n, 0n, 999n, 1000n, 8_640_000_000_000_000_000n, 8_640_000_000_000_001_000n, -8_640_000_000_000_000_999n),
    );
    fc.assert(
      fc.property(fc.array(micros, { minLength: 1, maxLength: 12 }), (times) => {
        for (const t of [...times, ...times.reverse()]) expect(isoFromMicros(t), String(t)).toBe(plainIso(t));
      }),
      { numRuns: 500, seed: 29 },
    );
    for (const other of [1.5, '12', 'x', -2000, Number.MAX_SAFE_INTEGER + 2]) expect(isoFromMicros(other), String(other)).toBe(plainIso(other));
  });
});

describe('parseUtcMicros', () => {
  it('reads a date, a date and time, seconds and up to six decimals, as UTC; plain digits are micros already', () => {
    expect(parseUtcMicros('2024-06-01')).toEqual({ micros: 1_717_200_000_000_000n });
    expect(parseUtcMicros(' 2024-06-01 00:00 ')).toEqual({ micros: 1_717_200_000_000_000n });
    expect(parseUtcMicros('2024-05-31T16:08:37Z')).toEqual({ micros: 1_717_171_717_000_000n });
    expect(parseUtcMicros('2024-05-31 16:08:37.5 UTC')).toEqual({ micros: 1_717_171_717_500_000n });
    expect(parseUtcMicros('2024-05-31 16:08:37.000001')).toEqual({ micros: 1_717_171_717_000_001n });
    expect(parseUtcMicros('1717171717000000')).toEqual({ micros: 1_717_171_717_000_000n });
    expect(parseUtcMicros('')).toEqual({ micros: null });
  });

  it('says what is wrong with anything else', () => {
    expect(parseUtcMicros('tomorrow')).toEqual({ problem: expect.stringMatching(/is not a date/) });
    expect(parseUtcMicros('2024-02-30')).toEqual({ problem: expect.stringMatching(/not a time that exists/) });
    expect(parseUtcMicros('2024-05-31 24:00')).toEqual({ problem: expect.stringMatching(/not a time that exists/) });
    expect(parseUtcMicros('2024-05-31 16:08:37.1234567')).toEqual({ problem: expect.stringMatching(/is not a date/) });
    expect(parseUtcMicros('1969-12-31')).toEqual({ problem: expect.stringMatching(/before 1970/) });
    expect(() => parseUtcMicros(5 as unknown as string)).toThrow(TypeError);
  });

  it('round-trips with utcFromMicros, micros shown', () => {
    for (const micros of [0n, 1n, 1_717_171_717_000_000n, 1_717_171_717_123_456n]) {
      const text = utcFromMicros(micros)!;
      expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6} UTC$/);
      expect(parseUtcMicros(text)).toEqual({ micros });
    }
    expect(utcFromMicros(1_717_171_717_123_456n)).toBe('2024-05-31 16:08:37.123456 UTC');
    expect(utcFromMicros(-1n)).toBeNull();
    expect(utcFromMicros(10n ** 30n)).toBeNull();
  });
});
