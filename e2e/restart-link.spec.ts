// Issue 17 item 5 (part): a worker restart after a permalink was opened reads that link's inputs
// again (the link replaced what was loaded before it), then the inputs loaded after it.
import { writeFileSync } from 'node:fs';
import { agdxSequence } from '../test/support/generate';
import { expect, setTimings, test, vector } from './fixtures';

test('a worker restart after opening a permalink opens the link again, then reads what was loaded after it', async ({ inspector, page, browser }) => {
  // A permalink of one record.
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/signed_command.bin')]);
  await expect(inspector.records('signed_command.bin')).toHaveCount(1);
  await inspector.opener('Share').click();
  const link = page.getByLabel('Permalink');
  await expect(link).toHaveValue(/#v1\./);
  const fragment = (await link.inputValue()).split('#')[1];

  // Opened elsewhere, with a tiny watchdog budget and a slowed-down load (as e2e/hostile.spec.ts).
  const context = await browser.newContext();
  const other = await context.newPage();
  await setTimings(other, { slowLoadMs: 4000, watchdogMs: 1500 });
  await other.goto(`/?samples=none#${fragment}`);
  const records = (name: string) => other.getByRole('listbox', { name: 'Records' }).locator(`[role="option"][data-input="${name}"]`);
  await expect(records('signed_command.bin')).toHaveCount(1);
  await expect(other.getByRole('region', { name: 'Shared view' })).toBeVisible();

  // Something loaded after the link, then an input the worker hangs on: it is stopped and restarted.
  const big = test.info().outputPath('slow-20k.cborseq');
  writeFileSync(big, agdxSequence(20_000, { signedEvery: 1_000_000 }));
  await other.getByLabel('Choose record files').setInputFiles([vector('agdx/laser-wire-0.0.1/agent_event.bin')]);
  await expect(records('agent_event.bin')).toHaveCount(1);
  await other.getByLabel('Choose record files').setInputFiles([big]);
  await expect(other.getByRole('alert').filter({ hasText: 'stopped and restarted' })).toContainText('slow-20k.cborseq');

  // The new worker has the link's record (opened again) and the one loaded after it; not the stuck one.
  await expect(records('signed_command.bin')).toHaveCount(1);
  await expect(records('agent_event.bin')).toHaveCount(1);
  await expect(records('slow-20k.cborseq')).toHaveCount(0);
  // And they are the worker's: their details open.
  await records('signed_command.bin').click();
  await expect(other.getByRole('article', { name: 'Record detail' })).toContainText('signed_command.bin · record #0');
  await context.close();
});
