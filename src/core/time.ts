// Dates from numbers found in records: out of range is said, never thrown (Date throws on it).
import { ulidTimeMs } from './bytes';

/** ISO time of epoch microseconds, or null when no date can hold it. */
export function isoFromMicros(micros: bigint | number | string): string | null {
  let ms: number;
  // Milliseconds, toward zero: a safe integer's by arithmetic that is exact for one (n % 1000 and
  // the multiple of 1000 left), any other by BigInt (which throws for what is not an integer).
  const n = typeof micros === 'bigint' ? Number(micros) : Number.NaN;
  if (Number.isSafeInteger(n)) ms = (n - (n % 1000)) / 1000;
  else {
    try {
      ms = Number(BigInt(micros) / 1000n);
    } catch {
      return null;
    }
  }
  // Times in a log come in runs within one millisecond, and a report's messages name two at a
  // time (a deadline and its answer): the last few texts are kept.
  for (let i = 0; i < RECENT_ISO; i++) if (recentMs[i] === ms) return recentIso[i];
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return null;
  const iso = d.toISOString();
  recentMs[nextIso] = ms;
  recentIso[nextIso] = iso;
  nextIso = (nextIso + 1) % RECENT_ISO;
  return iso;
}
const RECENT_ISO = 4;
const recentMs = new Float64Array(RECENT_ISO).fill(Number.NaN);
const recentIso: string[] = new Array(RECENT_ISO).fill('');
let nextIso = 0;

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
 * For ordering and latencies; trust is judged by the signed time (agdxSignedTime) alone, which a
 * log time can only narrow (keys/trust.ts).
 */
export function agdxRecordTime(logTimeMicros: bigint | null, recordId: Uint8Array | null | undefined): RecordTimeOf | null {
  return agdxLogTime(logTimeMicros) ?? agdxSignedTime(recordId);
}

/** The time an AGDX signature covers: the record id's ULID time (ms → µs), or null when the id carries none. */
export function agdxSignedTime(recordId: Uint8Array | null | undefined): RecordTimeOf | null {
  if (recordId && recordId.length >= 6) {
    const ms = ulidTimeMs(recordId);
    if (ms > 0) return { micros: BigInt(ms) * 1000n, from: "the record id's ULID time" };
  }
  return null;
}

/** A record's log time (Iggy's append time, from the export around it): no signature covers it. */
export function agdxLogTime(logTimeMicros: bigint | null): RecordTimeOf | null {
  return logTimeMicros === null ? null : { micros: logTimeMicros, from: "the record's log time" };
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

/**
 * A duration in microseconds as a person reads it, to about three significant figures: `12 µs`,
 * `350 ms`, `2.5 s`, `3 min 4 s`, `2 h 5 min`, `3 d 4 h`. A negative duration keeps its sign. Exact
 * for any bigint (a hostile deadline may be 2^64 µs away).
 */
export function formatDuration(micros: bigint | number): string {
  if (typeof micros === 'number' && !Number.isFinite(micros)) throw new TypeError('formatDuration: a finite number of microseconds');
  const v = typeof micros === 'bigint' ? micros : BigInt(Math.round(micros));
  if (v < 0n) return `−${formatDuration(-v)}`;
  if (v < 1000n) return `${v} µs`;
  if (v < 1_000_000n) return `${decimal(v, 1000n)} ms`;
  if (v < 60_000_000n) return `${decimal(v, 1_000_000n)} s`;
  const s = v / 1_000_000n;
  if (s < 3600n) return `${s / 60n} min${s % 60n ? ` ${s % 60n} s` : ''}`;
  if (s < 86_400n) return `${s / 3600n} h${(s % 3600n) / 60n ? ` ${(s % 3600n) / 60n} min` : ''}`;
  const days = s / 86_400n;
  const hours = (s % 86_400n) / 3600n;
  return `${days} d${hours && days < 100n ? ` ${hours} h` : ''}`;
}

/** v / unit with at most three significant figures (unit ≤ v < 1000 × unit), trailing zeros dropped. */
function decimal(v: bigint, unit: bigint): string {
  const whole = v / unit;
  const places = whole >= 100n ? 0 : whole >= 10n ? 1 : 2;
  const scale = 10n ** BigInt(places);
  const scaled = (v * scale) / unit;
  const int = scaled / scale;
  const frac = (scaled % scale).toString().padStart(places, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : `${int}`;
}

/**
 * A time as people type it, in UTC, to epoch microseconds: `2024-05-31`, `2024-05-31 16:09`,
 * `2024-05-31T16:09:37`, `2024-05-31 16:09:37.123456` (up to six decimals), each with an optional
 * `Z` or ` UTC`; or plain digits, read as microseconds already. Empty text is no time (null);
 * anything else says what is wrong.
 */
export function parseUtcMicros(text: string): { micros: bigint | null } | { problem: string } {
  if (typeof text !== 'string') throw new TypeError('parseUtcMicros: text must be a string');
  const t = text.trim();
  if (t === '') return { micros: null };
  if (/^\d+$/.test(t)) return { micros: BigInt(t) };
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(?:\s*(?:Z|UTC))?$/i.exec(t);
  if (!m) return { problem: `"${t}" is not a date: write it as 2024-05-31 or 2024-05-31 16:09:37 (UTC)` };
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1, 7).map((v) => v ?? undefined) as string[];
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const back = new Date(ms);
  if (
    Number.isNaN(ms) ||
    back.getUTCFullYear() !== Number(y) ||
    back.getUTCMonth() !== Number(mo) - 1 ||
    back.getUTCDate() !== Number(d) ||
    back.getUTCHours() !== Number(h) ||
    back.getUTCMinutes() !== Number(mi) ||
    back.getUTCSeconds() !== Number(s)
  )
    return { problem: `"${t}" is not a time that exists` };
  if (ms < 0) return { problem: `"${t}" is before 1970: a window bound is epoch microseconds` };
  return { micros: BigInt(ms) * 1000n + BigInt((m[7] ?? '').padEnd(6, '0')) };
}

/** Epoch microseconds (0 or more) as a UTC date and time with the micros shown: `2024-05-31 16:09:37.000000 UTC`; null when no date holds it. */
export function utcFromMicros(micros: bigint): string | null {
  if (typeof micros !== 'bigint') throw new TypeError('utcFromMicros: micros must be a bigint');
  const iso = micros < 0n ? null : isoFromMicros(micros);
  if (iso === null) return null;
  const frac = micros % 1_000_000n;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${frac.toString().padStart(6, '0')} UTC`;
}
