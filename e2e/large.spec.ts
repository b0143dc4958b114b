import { writeFileSync } from 'node:fs';
import { agdxSequence } from '../test/support/generate';
import { expect, test } from './fixtures';

test('a 20,000-record file shows progress, can be cancelled with what was read kept, and a filter narrows the list', async ({ inspector, page }) => {
  const path = test.info().outputPath('conversation-20k.cborseq');
  writeFileSync(path, agdxSequence(20_000, { signedEvery: 1_000_000 }));
  await inspector.timings({ slowLoadMs: 150 });
  await inspector.open();
  await page.getByLabel('Choose record files').setInputFiles(path);

  const progress = page.getByTestId('progress');
  await expect(progress).toContainText('records');
  await expect(progress).not.toContainText(/^0 records/);
  // First records are on screen before the file is done.
  await expect(inspector.records('conversation-20k.cborseq').first()).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Cancelled' })).toContainText(/Cancelled: kept [\d,]+ records from 1 input/);
  const status = await page.getByRole('status').filter({ hasText: 'Cancelled' }).textContent();
  const kept = Number(/kept ([\d,]+)/.exec(status!)![1].replace(/,/g, ''));
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(20_000);
  await expect(page.getByTestId('shown')).toHaveText(`${kept.toLocaleString('en')} records`);
  await expect(inspector.input('conversation-20k.cborseq')).toContainText('(cancelled)');

  // Filters run in the worker over everything kept.
  await page.getByLabel('Kind').selectOption('error');
  await expect(page.getByTestId('shown')).toHaveText(new RegExp(`^[\\d,]+ of ${kept.toLocaleString('en')}$`));
  const shown = Number((await page.getByTestId('shown').textContent())!.split(' of ')[0].replace(/,/g, ''));
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(kept);
  const rows = inspector.records('conversation-20k.cborseq');
  await expect(rows.first()).toContainText('error');
  for (const text of await rows.allTextContents()) expect(text.startsWith('error')).toBe(true);
  await page.getByLabel('Source').fill('agent-3');
  await expect(page.getByTestId('shown')).not.toHaveText(`${shown.toLocaleString('en')} of ${kept.toLocaleString('en')}`);
  // Narrower still, not emptied: errors from agent-3 only.
  await expect(page.getByTestId('shown')).toHaveText(new RegExp(`^[1-9][\\d,]* of ${kept.toLocaleString('en')}$`));
  for (const text of await rows.allTextContents()) expect(text).toContain('agent-3');
});

test("a load's list frame (filter, header, an empty list said to be busy) is drawn as it starts, before its first records", async ({ inspector, page }) => {
  const path = test.info().outputPath('frame-first.cborseq');
  writeFileSync(path, agdxSequence(20_000, { signedEvery: 1_000_000 }));
  await inspector.open();
  // Which of the page's changes (one observer call per task that changed it) first held the filter
  // bar, the busy list and a record row. Laid out together with the first rows, the frame made
  // theirs the million-record load's longest frame (56–72 ms).
  await page.evaluate(() => {
    const w = window as unknown as { __firsts: Record<string, number>; __fieldWrites: number };
    w.__firsts = {};
    w.__fieldWrites = 0;
    let call = 0;
    new MutationObserver((changes) => {
      call++;
      // The filter's fields are drawn once, not for each batch (React rewrites a drawn input's attributes).
      for (const c of changes)
        if (c.type === 'attributes' && (c.target as Element).closest('search')?.matches('[aria-label="Filter records"]')) w.__fieldWrites++;
      const seen = {
        filter: !!document.querySelector('search[aria-label="Filter records"]'),
        busy: !!document.querySelector('[role="listbox"][aria-busy="true"]'),
        row: !!document.querySelector('[role="option"]'),
      };
      for (const [k, v] of Object.entries(seen)) if (v && w.__firsts[k] === undefined) w.__firsts[k] = call;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await page.getByLabel('Choose record files').setInputFiles(path);
  await expect(inspector.records('frame-first.cborseq').first()).toBeVisible();
  const firsts = await page.evaluate(() => (window as unknown as { __firsts: Record<string, number> }).__firsts);
  expect(firsts.filter).toBeDefined();
  expect(firsts.busy).toBe(firsts.filter);
  expect(firsts.row).toBeGreaterThan(firsts.filter);
  await expect(page.getByRole('listbox', { name: 'Records' })).not.toHaveAttribute('aria-busy');
  await expect(page.getByRole('status').filter({ hasText: /^Loaded/ })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __fieldWrites: number }).__fieldWrites)).toBe(0);
});
