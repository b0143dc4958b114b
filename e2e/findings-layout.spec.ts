// Issue 18 item 3: the Findings table no longer overlaps itself. Long hashes and paths break inside
// their cell; where the detail pane is narrow, each finding is a card of the same cells. At a
// laptop's width, a small laptop's and a phone's: no cell overlaps another, nothing runs out of its
// cell, and the headers (where the table layout shows them) sit side by side, whole.
import { expect, overlaps, test, vector } from './fixtures';

const FILE = 'synthetic_tampered_intermediate_payload_only.serialized.json';

for (const width of [1440, 1024, 390]) {
  test(`at ${width} px: the findings' cells and headers do not overlap, long hashes break inside their cell`, async ({ inspector, page }) => {
    await page.setViewportSize({ width, height: 900 });
    await inspector.open();
    await inspector.dropFiles([vector(`agentdna/synthetic/${FILE}`)]);
    await inspector.records(FILE).first().click();
    const table = inspector.findings;
    await expect(table.locator('tbody tr')).toHaveCount(3);
    // The record's findings carry a 64-digit hash in the message and a 51-character path.
    await expect(table).toContainText('6631438886cad3c5e70345725ef8c4a44d51ee2e865cb4c7f606141425541e64');

    const tableBox = await inspector.box(table);
    for (const row of await table.locator('tbody tr').all()) {
      const cells = await row.locator('td').all();
      const boxes = await Promise.all(cells.map((c) => inspector.box(c)));
      for (let i = 0; i < boxes.length; i++) {
        // Inside the table horizontally, and clear of every other cell of its row.
        expect(boxes[i].x, `cell ${i} left`).toBeGreaterThanOrEqual(tableBox.x - 0.5);
        expect(boxes[i].x + boxes[i].width, `cell ${i} right`).toBeLessThanOrEqual(tableBox.x + tableBox.width + 0.5);
        for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i], boxes[j]), `cells ${i} and ${j} of a row overlap`).toBe(false);
      }
      // No text runs out of its cell (it would be drawn over the next one).
      const overflowing = await row.locator('td').evaluateAll((tds) => tds.filter((td) => td.scrollWidth > td.clientWidth + 1).map((td) => td.textContent));
      expect(overflowing).toEqual([]);
    }

    const headers = table.locator('thead th');
    const wide = await table.evaluate((t) => getComputedStyle(t).display === 'table');
    if (wide) {
      // The table layout: every header drawn whole, side by side.
      const boxes = await Promise.all((await headers.all()).map((h) => inspector.box(h)));
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i], boxes[j]), `headers ${i} and ${j} overlap`).toBe(false);
      expect(await headers.evaluateAll((ths) => ths.filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent))).toEqual([]);
      await expect(headers).toHaveText(['Severity', 'Rule', 'Message', 'Field', 'Bytes']);
    } else {
      // Stacked cards: the header row is for assistive technology only (not drawn at all), and each
      // card names its field and bytes itself.
      expect(await table.locator('thead').evaluate((el) => el.getBoundingClientRect().width <= 1)).toBe(true);
      const first = table.locator('tbody tr').first();
      await expect(first.locator('td').nth(3).getByText('field', { exact: true })).toBeVisible();
      await expect(first.locator('td').nth(3)).toContainText('envelope.parent_envelope[1].status_code');
      await expect(first.locator('td').nth(4).getByText('bytes', { exact: true })).toBeVisible();
    }
    // At a laptop's width the detail pane is wide enough for the table.
    if (width === 1440) expect(wide).toBe(true);
    if (width === 390) expect(wide).toBe(false);
    await table.screenshot({ path: test.info().outputPath(`findings-${width}.png`) });
  });
}

test('a finding is chosen by its message, with the keyboard or the mouse anywhere on its row, and shows its field', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector(`agentdna/synthetic/${FILE}`)]);
  await inspector.records(FILE).first().click();
  const hashRow = inspector.findings.locator('tr[data-rule="agentdna/hash"]');
  await hashRow.getByRole('button', { name: /the stored hash/ }).focus();
  await page.keyboard.press('Enter');
  await expect(hashRow).toHaveAttribute('aria-current', 'true');
  await expect(inspector.tree.locator('[aria-selected="true"]')).toHaveCount(1);
  // A click on the row's field cell (not on the button's text) chooses that row too.
  const statusRow = inspector.findings.locator('tr[data-rule="agentdna/status-code"]');
  // (Choosing the first finding scrolled its field into view: back to the table.)
  await statusRow.scrollIntoViewIfNeeded();
  const field = await inspector.box(statusRow.locator('td').nth(3));
  await page.mouse.click(field.x + field.width / 2, field.y + field.height / 2);
  await expect(statusRow).toHaveAttribute('aria-current', 'true');
  await expect(hashRow).not.toHaveAttribute('aria-current', 'true');
});
