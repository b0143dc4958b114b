// The suite's Chromium turns its omnibox popup off with --disable-features, which replaces the list
// Playwright passes (Chromium reads only the last): the config restates Playwright's, and this holds
// it to the installed Playwright's, so an upgrade that disables another feature is not lost.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISABLED_FEATURES } from '../playwright.config';

/** The features Playwright's Chromium launcher disables, read from its source as installed. */
function playwrightsDisabledFeatures(): string[] {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('playwright-core/package.json'));
  const source = readFileSync(join(root, 'lib/coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([^\]]*)\]/.exec(source);
  if (!list) throw new Error("playwright-core's disabledFeatures list was not found: read its chromiumSwitches and update this test");
  return [...list[1].matchAll(/^\s*"([A-Za-z0-9]+)",?\s*$/gm)].map((m) => m[1]);
}

describe('the Playwright config', () => {
  it("restates every feature Playwright's own launcher disables, beside the omnibox popup's", () => {
    const theirs = playwrightsDisabledFeatures();
    expect(theirs.length).toBeGreaterThan(10);
    expect(theirs.filter((f) => !DISABLED_FEATURES.includes(f))).toEqual([]);
    expect(DISABLED_FEATURES).toEqual(expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup']));
  });
});
