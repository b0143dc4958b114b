// No debug switch in a production build: a link's `?watchdog=` or `?slowload=` sets nothing there;
// only a script run before the page's (the end-to-end tests') can, and only within bounds.
import { afterEach, describe, expect, it } from 'vitest';
import { testTimings, WATCHDOG_DEFAULT_MS } from './test-timings';

afterEach(() => {
  globalThis.__envelopeInspectorTimings = undefined;
});

describe('testTimings', () => {
  it('a production build ignores the URL: ?watchdog=1e12 cannot turn the watchdog off, ?slowload cannot slow a load', () => {
    expect(testTimings('?watchdog=1000000000000&slowload=5000', false)).toEqual({ watchdogMs: WATCHDOG_DEFAULT_MS, slowLoadMs: 0 });
    expect(testTimings('?watchdog=1', false)).toEqual({ watchdogMs: WATCHDOG_DEFAULT_MS, slowLoadMs: 0 });
  });

  it('the dev server reads them from the URL, bounded: the budget is never longer than the default', () => {
    expect(testTimings('?watchdog=1500&slowload=4000', true)).toEqual({ watchdogMs: 1500, slowLoadMs: 4000 });
    expect(testTimings('?watchdog=1000000000000&slowload=99999', true)).toEqual({ watchdogMs: WATCHDOG_DEFAULT_MS, slowLoadMs: 5000 });
  });

  it("the tests' seam sets them in any build, bounded the same way", () => {
    globalThis.__envelopeInspectorTimings = { watchdogMs: 1500, slowLoadMs: 150 };
    expect(testTimings('', false)).toEqual({ watchdogMs: 1500, slowLoadMs: 150 });
    globalThis.__envelopeInspectorTimings = { watchdogMs: 1e12, slowLoadMs: -1 };
    expect(testTimings('', false)).toEqual({ watchdogMs: WATCHDOG_DEFAULT_MS, slowLoadMs: 0 });
  });
});
