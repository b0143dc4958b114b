// Dates from numbers found in records: out of range is said, never thrown (Date throws on it).
import { ulidTimeMs } from './bytes';

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

/** When a record was made, and where that time came from, for the trust decision and the folds. */
export interface RecordTimeOf {
  micros: bigint;
  /** In words: "the record's log time", "the record id's ULID time", "the envelope's epoch". */
  from: string;
}

/**
 * An AGDX record's time: its log time (Iggy's append time) when known, else its record id's ULID
 * time (ms → µs), else null. An id whose first 48 bits are zero carries no time (it is not a ULID).
 */
export function agdxRecordTime(logTimeMicros: bigint | null, recordId: Uint8Array | null | undefined): RecordTimeOf | null {
  if (logTimeMicros !== null) return { micros: logTimeMicros, from: "the record's log time" };
  if (recordId && recordId.length >= 6) {
    const ms = ulidTimeMs(recordId);
    if (ms > 0) return { micros: BigInt(ms) * 1000n, from: "the record id's ULID time" };
  }
  return null;
}

/**
 * An AgentDNA envelope's `epoch` (seconds, as its JSON number text) in microseconds, exactly
 * (digits past the sixth decimal are dropped), or null when it is not a number of sane size.
 */
export function epochSecondsToMicros(text: string | null): bigint | null {
  const m = text === null ? null : /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || m[2].length + (m[3]?.length ?? 0) > 40) return null;
  const exp = Number(m[4] ?? 0);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 40) return null;
  const frac = m[3] ?? '';
  const digits = BigInt(m[2] + frac);
  const shift = exp + 6 - frac.length;
  const micros = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
  return m[1] === '-' ? -micros : micros;
}
