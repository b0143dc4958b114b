import { readFileSync } from 'node:fs';
import { expect, test, vector } from './fixtures';

const synthetic = (name: string) => vector(`agentdna/synthetic/synthetic_${name}.serialized.json`);
const expected = JSON.parse(readFileSync(vector('agentdna/synthetic/synthetic_expected.json'), 'utf8'));
const traces = JSON.parse(readFileSync(vector('agentdna/synthetic/synthetic_traces.json'), 'utf8'));

test("a valid and a tampered workflow show AgentDNA's mode verdicts and mark the tampered envelope", async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([synthetic('valid_fanin_dag'), synthetic('tampered_intermediate_payload_only')]);

  await inspector.records('synthetic_valid_fanin_dag.serialized.json').click();
  for (const mode of ['light', 'heavy', 'boundary']) await expect(page.getByTestId(`mode-${mode}`)).toHaveText(String(expected.valid_fanin_dag[mode]));
  await expect(page.getByRole('list', { name: 'Envelopes' }).locator('[data-tampered]')).toHaveCount(0);

  const tamperedRow = inspector.records('synthetic_tampered_intermediate_payload_only.serialized.json');
  await expect(tamperedRow.getByLabel(/Valid: no/)).toBeVisible();
  await tamperedRow.click();
  for (const mode of ['light', 'heavy', 'boundary']) {
    await expect(page.getByTestId(`mode-${mode}`)).toHaveText(String(expected.tampered_intermediate_payload_only[mode]));
  }
  // Light and boundary pass (1000) although an intermediate envelope was changed: the inspector marks it.
  const marked = page.getByRole('list', { name: 'Envelopes' }).locator('[data-tampered]');
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText('Hash mismatch');
});

test('the hashed content and the signed bytes are visible for a selected envelope', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([synthetic('valid_single_root')]);
  await inspector.records('synthetic_valid_single_root.serialized.json').click();
  const root = traces['root(user)'];
  await page.getByRole('list', { name: 'Envelopes' }).getByRole('button').first().click();
  await expect(page.getByTestId('content-json')).toHaveText(root.content_json);
  await expect(page.getByTestId('signed-bytes')).toHaveText(root['ecdsa_e_hex (leftmost 32 bytes of ascii message)']);
  await expect(page.getByLabel('Envelope detail')).toContainText(root.signer_did);
});

test('a large file of workflows streams in: progress, first records before the end, cancel keeps what was read', async ({ inspector, page }) => {
  const { agentdnaWorkflows } = await import('../test/support/generate');
  const path = test.info().outputPath('workflows-200.json');
  (await import('node:fs')).writeFileSync(path, agentdnaWorkflows(200, 5));
  // Checked on the pool, 200 workflows come in a few large parts: a long pause between them leaves
  // time to cancel on a busy machine.
  await inspector.timings({ slowLoadMs: 2000 });
  await inspector.open();
  await page.getByLabel('Choose record files').setInputFiles(path);

  await expect(page.getByTestId('progress')).toContainText('records');
  await expect(inspector.records('workflows-200.json').first()).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Cancelled' });
  await expect(status).toContainText(/Cancelled: kept \d+ records? from 1 input/);
  const kept = Number(/kept (\d+)/.exec((await status.textContent())!)![1]);
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(200);
  await expect(inspector.input('workflows-200.json')).toContainText('(cancelled)');
});

test("a workflow array is checked on the verifier pool with libsecp256k1 (WebAssembly) under the page's CSP: every signature valid", async ({
  inspector,
  page,
}) => {
  const { agentdnaWorkflows } = await import('../test/support/generate');
  const path = test.info().outputPath('workflows-40.json');
  (await import('node:fs')).writeFileSync(path, agentdnaWorkflows(40, 5));
  const warnings: string[] = [];
  const wasm: number[] = [];
  page.on('worker', (w) => w.on('console', (m) => warnings.push(m.text())));
  page.on('response', (r) => {
    if (r.url().endsWith('.wasm')) wasm.push(r.status());
  });
  await inspector.open();
  await page.getByLabel('Choose record files').setInputFiles(path);
  await expect(page.getByRole('status').filter({ hasText: /Loaded 40 records/ })).toBeVisible();
  // The verifier workers (and the inspector worker) fetched the module; none fell back to noble.
  expect(wasm.length).toBeGreaterThan(0);
  expect(wasm.every((s) => s === 200)).toBe(true);
  expect(warnings.filter((w) => /libsecp256k1/.test(w))).toEqual([]);
  const rows = inspector.records('workflows-40.json');
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ has: page.getByLabel(/Valid: no/) })).toHaveCount(0);
  // The last workflow: its agents' keys were proven by earlier ones, so its checks went the quick way
  // (a verification, no recovery); opened, its envelope still lists both candidate keys.
  await inspector.recordScroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await rows.last().click();
  for (const mode of ['light', 'heavy', 'boundary']) await expect(page.getByTestId(`mode-${mode}`)).toHaveText('1000');
  await page.getByRole('list', { name: 'Envelopes' }).getByRole('button').first().click();
  const keys = page.getByLabel('Envelope detail').locator('li', { hasText: /^truncate\/\d: / });
  await expect(keys).toHaveCount(2);
  await expect(keys.filter({ hasText: 'truncate/0:' })).toHaveCount(1);
  await expect(keys.filter({ hasText: 'truncate/1:' })).toHaveCount(1);
  await expect(keys.filter({ hasText: '← matches from' })).toHaveCount(1);
});
