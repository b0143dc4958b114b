import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agdxSequence } from '../test/support/generate';
import { expect, test, vector } from './fixtures';

const hostileDir = vector('hostile');
const corpus = readdirSync(hostileDir)
  .map((f) => join(hostileDir, f))
  .filter((p) => statSync(p).isFile() && !p.endsWith('ORIGIN.md'));

test('the hostile corpus dropped at once: no dialog, no navigation, no CSP violation, every input judged, the app responsive', async ({ inspector, page }) => {
  const dialogs: string[] = [];
  const problems: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await inspector.open();
  const url = page.url();
  expect(corpus.length).toBeGreaterThan(20);
  await page.getByLabel('Choose record files').setInputFiles(corpus);
  await expect(page.getByRole('status').filter({ hasText: /Loaded [\d,]+ records? from/ })).toBeVisible({ timeout: 60_000 });
  const status = (await page
    .getByRole('status')
    .filter({ hasText: /Loaded/ })
    .textContent())!;
  expect(status).toContain(`from ${corpus.length} inputs`);

  // Every input has a header and at least one record with its verdicts (or its error).
  await expect(page.getByRole('listbox', { name: 'Records' })).toBeVisible();
  await expect(page.getByTestId('shown')).not.toHaveText('0 records');
  // The list is windowed: walk it with the filter instead of the DOM. Undecoded records all carry a code.
  await page.getByLabel('Validity').selectOption('undecoded');
  await expect(page.getByTestId('shown')).toHaveText(/^[1-9][\d,]* of /);
  const undecoded = page.getByRole('listbox', { name: 'Records' }).getByRole('option');
  await expect(undecoded.first().getByLabel(/Decoded: no \(.+\/.+\)/)).toBeVisible();
  await page.getByLabel('Validity').selectOption('');

  // Responsive: a record opens, its detail shows, the graph and the agents view draw.
  await page.getByRole('listbox', { name: 'Records' }).getByRole('option').first().click();
  await expect(inspector.detail).toBeVisible();
  await page.getByRole('tab', { name: 'Graph' }).click();
  await expect(page.getByTestId('graph-counts')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Agents' }).click();
  await expect(page.getByRole('table', { name: 'Agents' })).toBeVisible();

  expect(page.url()).toBe(url);
  expect(dialogs).toEqual([]);
  expect(problems).toEqual([]);
  // Script text in records stays text: the corpus's alert() payloads raised no dialog (above).
});

test('a decode that runs past its budget is stopped, reported for that input, and the app goes on with the others', async ({ inspector, page }) => {
  const big = test.info().outputPath('slow-20k.cborseq');
  writeFileSync(big, agdxSequence(20_000, { signedEvery: 1_000_000 }));
  // A tiny watchdog budget and a slowed-down load make the big input run past its budget.
  await inspector.timings({ slowLoadMs: 4000, watchdogMs: 1500 });
  await inspector.open();
  // A first small load, so the worker and its pool have started before the budget matters.
  await inspector.dropFiles([vector('agdx/laser-wire-0.0.1/agent_error.bin')]);
  await expect(inspector.records('agent_error.bin')).toHaveCount(1);
  await page
    .getByLabel('Choose record files')
    .setInputFiles([vector('agdx/laser-wire-0.0.1/agent_event.bin'), big, vector('agdx/laser-wire-0.0.1/agent_response.bin')]);
  await expect(page.getByRole('alert').filter({ hasText: 'stopped and restarted' })).toContainText('slow-20k.cborseq');
  await expect(inspector.records('agent_event.bin')).toHaveCount(1);
  await expect(inspector.records('agent_response.bin')).toHaveCount(1);
  await expect(inspector.records('slow-20k.cborseq')).toHaveCount(0);
  // The stopped input is reported on its own, with a Retry.
  const notRead = page.getByRole('list', { name: 'Inputs not read' });
  await expect(notRead.getByRole('listitem')).toHaveCount(1);
  await expect(notRead).toContainText('slow-20k.cborseq was not read: the worker gave no answer');
  // It is not read again by itself: well past a batch and the watchdog's budget, it is still not there.
  await page.waitForTimeout(3_000);
  await expect(inspector.records('slow-20k.cborseq')).toHaveCount(0);
  await expect(notRead.getByRole('listitem')).toHaveCount(1);
  // Still usable.
  await inspector.dropFiles([vector('agdx/laser-wire-0.0.1/agent_command.bin')]);
  await expect(inspector.records('agent_command.bin').getByLabel('Valid: yes')).toBeVisible();
  // Retry reads it again: its first records show. (The budget is still tiny, so the watchdog stops it
  // once more and reports it again; the other inputs stay.)
  await notRead.getByRole('button', { name: 'Retry slow-20k.cborseq' }).click();
  await expect(inspector.records('slow-20k.cborseq').first()).toBeVisible();
  await expect(notRead).toContainText('slow-20k.cborseq was not read');
  await expect(inspector.records('slow-20k.cborseq')).toHaveCount(0);
  await expect(inspector.records('agent_command.bin')).toHaveCount(1);
  await expect(inspector.records('agent_event.bin')).toHaveCount(1);
});
