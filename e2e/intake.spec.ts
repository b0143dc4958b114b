import { readFileSync } from 'node:fs';
import { expect, test, vector } from './fixtures';

const laser = (f: string) => vector(`agdx/laser-wire-0.0.1/${f}`);

test('dropping several fixtures at once shows every record with its three badges', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([
    laser('agent_command.bin'),
    laser('agent_invalid_command_no_correlation.bin'),
    laser('agent_command_signed.bin'),
    laser('agent_dead_letter.bin'),
  ]);

  const command = inspector.records('agent_command.bin');
  await expect(command).toHaveCount(1);
  await expect(command.getByLabel('Decoded: yes')).toBeVisible();
  await expect(command.getByLabel('Valid: yes')).toBeVisible();
  await expect(command.getByLabel('Signed: unsigned')).toBeVisible();

  const invalid = inspector.records('agent_invalid_command_no_correlation.bin');
  await expect(invalid.getByLabel('Decoded: yes')).toBeVisible();
  await expect(invalid.getByLabel(/Valid: no/)).toBeVisible();

  await expect(inspector.records('agent_command_signed.bin').getByLabel('Signed: unknown key')).toBeVisible();
  // The dead letter and the envelope inside it.
  await expect(inspector.records('agent_dead_letter.bin')).toHaveCount(2);
  await expect(page.getByRole('status')).toContainText('Loaded 5 records from 4 inputs');
});

test('a bad file beside good ones shows its error while the good ones show normally', async ({ inspector, page }) => {
  await inspector.open();
  const bad = test.info().outputPath('garbage.bin');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(bad, Buffer.from([0x02, 0xff, 0x00, 0x13, 0x37]));
  await inspector.dropFiles([laser('agent_event.bin'), bad, laser('agent_response.bin')]);

  await expect(inspector.input('garbage.bin').getByTestId('input-error')).toContainText('input/unrecognized');
  await expect(inspector.records('agent_event.bin').getByLabel('Valid: yes')).toBeVisible();
  await expect(inspector.records('agent_response.bin').getByLabel('Valid: yes')).toBeVisible();
  await inspector.records('garbage.bin').click();
  await expect(inspector.detail.getByRole('alert')).toContainText('input/unrecognized');
  await expect(page.getByRole('alert').filter({ hasText: 'worker' })).toHaveCount(0);
});

test('clicking a finding highlights its bytes and its field; clicking a byte selects its field', async ({ inspector }) => {
  await inspector.open();
  await inspector.dropFiles([laser('agent_invalid_status_bad_operation.bin')]);
  await inspector.records('agent_invalid_status_bad_operation.bin').click();

  await inspector.findings.locator('tr[data-rule="agdx/matrix/operation"]').click();
  const operation = inspector.tree.locator('[role="treeitem"][data-path="operation"]');
  await expect(operation).toHaveAttribute('aria-selected', 'true');
  // The operation value "telemetry" is a text head byte plus 9 bytes.
  const lit = inspector.hex.locator('[data-selected]');
  await expect(lit).toHaveCount(10);
  const offsets = await lit.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-offset'))));
  const bytes = readFileSync(laser('agent_invalid_status_bad_operation.bin'));
  expect(Buffer.from(offsets.slice(1).map((o) => bytes[o])).toString()).toBe('telemetry');

  // A byte of the source value selects the source field and lights up all its bytes.
  const sourceAt = bytes.indexOf(Buffer.from('source-agent'));
  await inspector.hex.locator(`[data-offset="${sourceAt + 3}"]`).click();
  await expect(inspector.tree.locator('[role="treeitem"][data-path="source"]')).toHaveAttribute('aria-selected', 'true');
  await expect(inspector.hex.locator('[data-selected]')).toHaveCount(13);
});

test('a pasted hex envelope decodes', async ({ inspector }) => {
  await inspector.open();
  const hex = readFileSync(laser('agent_command.bin')).toString('hex');
  await inspector.paste(hex.replace(/(.{64})/g, '$1\n'));
  const rows = inspector.records('pasted text 1');
  await expect(rows).toHaveCount(1);
  await expect(rows.getByLabel('Valid: yes')).toBeVisible();
  await expect(inspector.input('pasted text 1')).toContainText('hex(cbor)');
  await rows.click();
  await expect(inspector.tree.locator('[role="treeitem"][data-path="record"]')).toContainText('01J0Y1ZAG00000000000000001');
});

test('a pasted Iggy JSON export shows its records with headers', async ({ inspector }) => {
  await inspector.open();
  await inspector.paste(readFileSync(vector('agdx/iggy/record_http_v07.json'), 'utf8'));
  const rows = inspector.records('pasted text 1');
  await expect(rows).toHaveCount(1);
  await rows.click();
  const headers = inspector.detail.getByRole('table', { name: 'Headers' });
  await expect(headers).toContainText('agdx.av');
  await expect(headers).toContainText('uint32');
  await expect(headers.getByRole('row', { name: /gen_ai.conversation.id/ })).toContainText('01J0Y1ZAG00000000000000002');
  await expect(inspector.detail).toContainText('partition 1, offset 41');
  await expect(inspector.detail.getByLabel('Body')).toContainText('"ask": "plan the trip"');
});

test('the samples load on the first visit, and the samples menu loads them again', async ({ inspector, page }) => {
  await inspector.open('');
  await expect(inspector.records('conversation.cborseq')).toHaveCount(7);
  await expect(inspector.records('record_http_v07.json')).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole('option')).toHaveCount(0);
  await page.getByText('Samples ▾').click();
  await page.getByRole('button', { name: 'Dead letter' }).click();
  await expect(inspector.records('agent_dead_letter.bin')).toHaveCount(2);
});

test('the record list is keyboard reachable', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/conversation.cborseq')]);
  const rows = inspector.records('conversation.cborseq');
  await expect(rows).toHaveCount(7);
  await rows.first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(inspector.detail).toContainText('conversation.cborseq · record #2');
});
