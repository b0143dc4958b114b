// What a signature does not cover, on the page: a field appended to a genuinely signed envelope.
import { readFileSync, writeFileSync } from 'node:fs';
import { CborWriter } from '../src/core/cbor/encoder';
import { expect, test, vector } from './fixtures';

test('a field appended to a signed envelope: valid and trusted, and the panel and the tree say it is not signed', async ({ inspector, page }) => {
  const signed = readFileSync(vector('agdx/made/signed_command.bin'));
  // One more entry in the envelope map (its head counts it), written with the project's encoder.
  const appended = new CborWriter()
    .raw(signed[0] + 1)
    .append(new Uint8Array(signed.subarray(1)))
    .text('approved_by')
    .text('the CFO')
    .finish();
  const file = test.info().outputPath('appended.cbor');
  writeFileSync(file, appended);

  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(readFileSync(vector('agdx/made/keys.json'), 'utf8'));
  await page.getByRole('button', { name: 'Add key' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([file]);
  await inspector.records('appended.cbor').click();
  const signature = page.getByTestId('signature');
  await expect(signature).toHaveAttribute('data-status', 'valid');
  await expect(page.getByTestId('trust')).toHaveText('yes');
  await expect(page.getByTestId('not-covered')).toContainText('The signature does not cover: approved_by.');
  const node = inspector.tree.locator('[data-path="approved_by"]');
  await expect(node.getByTestId('not-signed')).toHaveText('not signed');
  // A covered field carries no such mark.
  await expect(inspector.tree.locator('[data-path="source"]').getByTestId('not-signed')).toHaveCount(0);
});
