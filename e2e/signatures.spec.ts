import { readFileSync } from 'node:fs';
import { expect, test, vector } from './fixtures';

const keyFile = JSON.parse(readFileSync(vector('agdx/made/keys.json'), 'utf8'));
const sourceKey = keyFile.keys.find((k: { agent: string }) => k.agent === 'source-agent').public_key as string;
const otherKey = keyFile.keys.find((k: { agent: string }) => k.agent === 'other-agent').public_key as string;

test('a registered key makes a signed record valid and trusted, across a reload, until it is removed', async ({ inspector, page }) => {
  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(sourceKey);
  await page.getByLabel('Agent (for keys that do not name one)').fill('source-agent');
  await page.getByRole('button', { name: 'Add key' }).click();
  await expect(page.getByRole('row', { name: 'Key fe812c12f3ab4ce6' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();

  await inspector.dropFiles([vector('agdx/made/signed_command.bin')]);
  const row = inspector.records('signed_command.bin');
  await expect(row.getByLabel('Signed: signature valid')).toHaveText('Signature valid, trusted');
  await row.click();
  const panel = page.getByTestId('signature');
  await expect(panel).toHaveAttribute('data-status', 'valid');
  await expect(page.getByTestId('trust')).toHaveText('yes');
  await expect(panel).toContainText('fe812c12f3ab4ce6');
  // The signing input in its three segments; the domain is the 17 ASCII bytes of agdx.signature.v1.
  await expect(panel.locator('[data-segment="domain"]')).toContainText('61 67 64 78 2e 73 69 67 6e 61 74 75 72 65 2e 76 31');

  await page.reload();
  await expect(page.getByRole('button', { name: 'Keys (1)' })).toBeVisible();
  await inspector.dropFiles([vector('agdx/made/signed_command.bin')]);
  await expect(inspector.records('signed_command.bin').getByLabel('Signed: signature valid')).toHaveText('Signature valid, trusted');

  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByRole('row', { name: 'Key fe812c12f3ab4ce6' }).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(inspector.records('signed_command.bin').getByLabel('Signed: unknown key')).toBeVisible();
  await inspector.records('signed_command.bin').click();
  await expect(page.getByTestId('signature')).toHaveAttribute('data-status', 'unknown_key');
});

test('a record signed by a registered key of another agent is valid but not trusted, and says why', async ({ inspector, page }) => {
  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(JSON.stringify({ keys: [{ agent: 'other-agent', public_key: otherKey }] }));
  await page.getByRole('button', { name: 'Add key' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([vector('agdx/made/signed_by_other_agent.bin')]);
  const row = inspector.records('signed_by_other_agent.bin');
  await expect(row.getByLabel('Signed: signature valid')).toHaveText('Signature valid, not trusted');
  await row.click();
  await expect(page.getByTestId('trust')).toHaveText('no');
  await expect(page.getByTestId('signature')).toContainText('registered for "other-agent", not for the record\'s source "source-agent"');
});

test('the placeholder-signed fixture stays unknown_key, and a relabelled codec shows the context mismatch', async ({ inspector, page }) => {
  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(readFileSync(vector('agdx/made/keys.json'), 'utf8'));
  await page.getByRole('button', { name: 'Add key' }).click();
  await expect(page.getByRole('button', { name: 'Keys (2)' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([vector('agdx/laser-wire-0.0.1/agent_command_signed.bin'), vector('agdx/made/signed_context_mismatch_http_v07.json')]);
  await expect(inspector.records('agent_command_signed.bin').getByLabel('Signed: unknown key')).toBeVisible();
  await inspector.records('signed_context_mismatch_http_v07.json').click();
  await expect(page.getByTestId('signature')).toContainText('MISMATCH');
  await expect(page.getByTestId('trust')).toHaveText('no');
});
