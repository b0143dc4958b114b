// Dates from numbers found in records: out of range is said, never thrown (Date throws on it).

/** ISO time of epoch microseconds, or null when no date can hold it. */
export function isoFromMicros(micros: bigint | number | string): string | null {
  let ms: number;
  try {
    ms = Number(BigInt(micros) / 1000n);
  } catch {
    return null;
  }
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** ISO time of epoch seconds (may be fractional), or null when no date can hold it. */
export function isoFromSeconds(seconds: number): string | null {
  const d = new Date(seconds * 1000);
  return Number.isFinite(seconds) && !Number.isNaN(d.getTime()) ? d.toISOString() : null;
}
