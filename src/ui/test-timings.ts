// The two timings the end-to-end tests change: the watchdog's base budget and a pause between a
// large load's batches (to watch progress, cancel, or run a load past its budget). A URL never sets
// them in a production build: a shared link could otherwise turn the watchdog off
// (`?watchdog=1e12`) and hang the tab on an input it would have stopped. The tests set them with a
// script run before the page's own (Playwright's addInitScript, e2e/fixtures.ts `timings`): only
// code already running in the page can, and the watchdog's budget can only be shortened. The dev
// server also reads `?watchdog=MS` and `?slowload=MS`, for people watching it work.

/** What a test may set, on `globalThis.__envelopeInspectorTimings` before the page loads. */
export interface TestTimings {
  /** The watchdog's base budget (ms); at most the default. */
  watchdogMs?: number;
  /** A pause between a large load's batches (ms), up to 5 s. */
  slowLoadMs?: number;
}

declare global {
  var __envelopeInspectorTimings: TestTimings | undefined;
}

/** The default base budget of the watchdog: a load may go this long without a word from the worker. */
export const WATCHDOG_DEFAULT_MS = 20_000;

const clamp = (v: unknown, max: number): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.min(max, v) : 0);

/** The timings in force: the tests' (or the dev server's URL), bounded; the defaults otherwise. */
export function testTimings(search = globalThis.location?.search ?? '', dev = import.meta.env.DEV): { watchdogMs: number; slowLoadMs: number } {
  const set = globalThis.__envelopeInspectorTimings;
  const url = dev ? new URLSearchParams(search) : null;
  const watchdog = clamp(url ? Number(url.get('watchdog') ?? 0) || set?.watchdogMs : set?.watchdogMs, WATCHDOG_DEFAULT_MS);
  return {
    watchdogMs: watchdog || WATCHDOG_DEFAULT_MS,
    slowLoadMs: clamp(url ? Number(url.get('slowload') ?? 0) || set?.slowLoadMs : set?.slowLoadMs, 5000),
  };
}
