// Number formatting for the page. Not toLocaleString: its first call loads the ICU number data,
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
