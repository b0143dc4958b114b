// Formatting for the page: record strings made safe to show, and numbers.
// The one display escaper lives in the core (the worker's graph faces and the Markdown summary use it too).
export { displayLines, displayText } from '../core/unsafe-chars';

// Number formatting. Not toLocaleString: its first call loads the ICU number data,
// which took ~80 ms on the main thread in the middle of a large load (bench/run.ts saw the long task).

/** A byte as two lower-case hex digits. */
export const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** 100000 → "100,000"; English grouping, as the rest of the UI text is English. */
export function groupDigits(n: number): string {
  const s = String(Math.trunc(n));
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = digits.slice(Math.max(0, end - 3), end) + (out ? ',' + out : '');
  return (neg ? '-' : '') + out;
}

/**
 * A byte span `[start, end)` as both the hex view (hex offsets) and a person counting (decimal)
 * read it: `[0x72, 0x7a) 114–122`.
 */
export function formatSpan(span: readonly [number, number]): string {
  if (!Array.isArray(span) || span.length !== 2 || !span.every((n) => Number.isSafeInteger(n) && n >= 0))
    throw new TypeError('formatSpan: span must be [start, end) of byte offsets');
  const [start, end] = span;
  return `[0x${start.toString(16)}, 0x${end.toString(16)}) ${start}–${end}`;
}

/**
 * A name cut in its middle to at most `max` characters (code points): `synthetic_tamp…load.serialized.json`.
 * Names that differ only at their end (most file names of one family do) stay apart, as they would
 * not if cut at the end.
 */
export function middleEllipsis(name: string, max: number): string {
  if (typeof name !== 'string' || !(max >= 3)) throw new TypeError('middleEllipsis: a name and a length of at least 3');
  const chars = Array.from(name);
  if (chars.length <= max) return name;
  const tail = Math.floor((max - 1) / 2);
  const head = max - 1 - tail;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/**
 * A time in epoch ms as the list's time column shows it (the clock to the millisecond, in UTC) and
 * in full for its tooltip; null when no date holds it.
 */
export function clockOf(ms: number): { clock: string; iso: string } | null {
  const d = new Date(ms);
  if (!Number.isFinite(ms) || Number.isNaN(d.getTime())) return null;
  const iso = d.toISOString();
  return { clock: iso.slice(11, 23), iso };
}
