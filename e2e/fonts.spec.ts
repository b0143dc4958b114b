// A load needs no font the page has not looked up already (components/FontWarmup.tsx):
// Chromium on Linux looks a font stack up family by family inside the layout that first shows the
// text, and that layout was the long task of the million-record bench's load.
import type { Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { agdxSequence } from '../test/support/generate';
import { atEachWidth, expect, test } from './fixtures';

/** Every font (first family, size, weight, style) that some text on the page is drawn in. */
function fontsInUse(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>();
    for (const el of document.querySelectorAll('*')) {
      // Text that is laid out (a hidden element's is not, nor the document's title).
      if (el.getClientRects().length === 0 || ![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim())) continue;
      const s = getComputedStyle(el);
      out.add(`${s.fontFamily.split(',')[0]} ${s.fontSize} ${s.fontWeight} ${s.fontStyle}`);
    }
    return [...out].sort();
  });
}

atEachWidth(() => {
  test('a load shows its rows and its first record in fonts the empty page has looked up already', async ({ inspector, page }) => {
    const path = test.info().outputPath('mix-2k.cborseq');
    // The bench's mix: every kind, signed and unsigned, findings and none.
    writeFileSync(path, agdxSequence(2_000, { signedEvery: 7 }));
    await inspector.open();
    const before = new Set(await fontsInUse(page));
    await page.getByLabel('Choose record files').setInputFiles(path);
    await expect(inspector.records('mix-2k.cborseq').first()).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /^Loaded/ })).toBeVisible();
    const after = await fontsInUse(page);
    // The list's styles are there: a test of an empty list would pass with no warm-up at all.
    expect(after.length).toBeGreaterThan(5);
    expect(after.filter((f) => !before.has(f))).toEqual([]);
  });
});
