// Issue 17 item 6: the whole path — load (the samples, or Paste), select a record, switch tabs, open
// Share — with the keyboard alone: no click, no focus() from the test, only Tab, arrows, Enter, Esc.
import { readFileSync } from 'node:fs';
import { expect, type InspectorPage, test, vector } from './fixtures';

/** From a loaded list: a record selected, the Graph tab opened, Share opened and closed, by keys only. */
async function selectSwitchShare(inspector: InspectorPage, input: string) {
  const page = inspector.page;
  // Into the list: its focusable row is the first record; Enter selects it, the arrows move on.
  const list = page.getByRole('listbox', { name: 'Records' });
  await inspector.tabTo(list.getByRole('option').first());
  await page.keyboard.press('Enter');
  await expect(inspector.records(input).first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(inspector.records(input).nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(inspector.detail).toContainText(`${input} · record #1`);

  // The tab bar is one stop (the open tab); the arrows switch tabs.
  await inspector.tabTo(page.getByRole('tab', { name: 'Record' }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Graph' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Graph' })).toBeFocused();
  await expect(page.getByTestId('graph-counts')).toBeVisible();

  // Back up to Share, open it: focus is inside; the link carries the view; Esc gives focus back.
  const share = inspector.opener('Share');
  await inspector.tabTo(share, { key: 'Shift+Tab', max: 80 });
  await page.keyboard.press('Enter');
  await expect(inspector.dialog).toBeVisible();
  expect(await inspector.focusIsIn(inspector.dialog)).toBe(true);
  await expect(page.getByLabel('Permalink')).toHaveValue(/#v1\./);
  await inspector.tabTo(page.getByRole('button', { name: 'Copy link' }));
  await page.keyboard.press('Escape');
  await expect(inspector.dialog).toBeHidden();
  await expect(share).toBeFocused();
}

test('keyboard only: the samples, a record, the Graph tab, Share', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.tabTo(inspector.samplesButton);
  await page.keyboard.press('Enter');
  // Tab goes from the button into its samples.
  await page.keyboard.press('Tab');
  await expect(inspector.samplesMenu.getByRole('button', { name: 'All samples' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(inspector.samplesMenu).toBeHidden();
  await expect(inspector.samplesButton).toBeFocused();
  await expect(inspector.records('conversation.cborseq')).toHaveCount(7);
  await selectSwitchShare(inspector, 'conversation.cborseq');
});

test('keyboard only: Paste, a record, the Graph tab, Share', async ({ inspector, page }) => {
  const hex = readFileSync(vector('agdx/made/conversation.cborseq')).toString('hex');
  await inspector.open();
  await inspector.tabTo(inspector.opener('Paste'));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel(/Hex, base64 or JSON/)).toBeFocused();
  await page.keyboard.insertText(hex);
  await inspector.tabTo(page.getByRole('button', { name: 'Inspect' }));
  await page.keyboard.press('Enter');
  await expect(inspector.dialog).toBeHidden();
  await expect(inspector.records('pasted text 1')).toHaveCount(7);
  await selectSwitchShare(inspector, 'pasted text 1');
});

test('keyboard only: the fields are one Tab stop; the arrows move and open, Enter selects a field and lights its bytes', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/conversation.cborseq')]);
  await inspector.tabTo(inspector.records('conversation.cborseq').first());
  await page.keyboard.press('Enter');
  const tree = inspector.tree;
  const items = tree.getByRole('treeitem');
  await inspector.tabTo(items.first());
  // One stop: the next Tab leaves the tree.
  await page.keyboard.press('Tab');
  expect(await inspector.focusIsIn(tree)).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(items.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(inspector.hex.locator('[data-selected]').first()).toBeVisible();
  // Up from the end to the metadata map (open): Left closes it, Right opens it, Right again goes into it, Left goes back up.
  const metadata = tree.locator('[role="treeitem"][data-path="metadata"]');
  await page.keyboard.press('End');
  for (let i = 0; i < 5 && !(await metadata.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowUp');
  await expect(metadata).toBeFocused();
  await expect(metadata).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(metadata).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowRight');
  await expect(metadata).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(tree.locator('[role="treeitem"][data-path="metadata.priority"]')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(metadata).toBeFocused();
});
