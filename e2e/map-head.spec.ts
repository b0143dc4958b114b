// A missing field points at the map's head: an envelope with no conversation (its map head written
// in three bytes, b9 00 02) opens with those bytes lit in the hex view and named in the error line.
import { expect, test } from './fixtures';

test('agdx/missing-field lights the bytes of the map head, and its error line shows them again', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.paste('b90002646b696e64656576656e7466736f757263656161');
  await page.locator('[role="option"][data-record-key]').first().click();
  const bytes = page.getByTestId('error-bytes');
  await expect(bytes).toHaveText("bytes 0–2 (the map's head)");
  const lit = inspector.hex.locator('[data-selected]');
  await expect(lit).toHaveCount(3);
  await expect(lit.first()).toHaveAttribute('data-offset', '0');
  // Another byte chosen, then the error's bytes again.
  await inspector.hex.locator('[data-offset="5"]').click();
  await expect(lit.first()).not.toHaveAttribute('data-offset', '0');
  await bytes.click();
  await expect(lit).toHaveCount(3);
  await expect(lit.first()).toHaveAttribute('data-offset', '0');
});
