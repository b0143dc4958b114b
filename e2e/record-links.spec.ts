// Issue 18, item 7 (the Record view): cause, cause_at and correlation are links to the records they
// name, resolved in the worker; a name no loaded record answers to says so.
import { atEachWidth, expect, test } from './fixtures';

atEachWidth(() => {
  test('clicking cause in the Record view selects the parent record; cause_at that matches nothing says so', async ({ inspector, page }) => {
    await inspector.openWithSamples();
    // The response of the conversation sample: its cause is the command at #0; its cause_at names a log position not loaded.
    await (await inspector.revealRecord('conversation.cborseq', 4)).click();
    await expect(inspector.detail.getByRole('heading', { level: 2 })).toContainText('response');
    const links = inspector.detail.getByRole('definition');
    const related = inspector.detail.getByLabel('Related records');
    await expect(related.getByRole('term')).toHaveText(['cause', 'cause_at', 'correlation']);
    const cause = related.locator('[data-field="cause"]');
    await expect(cause).toContainText('01J0Y1…0001');
    const ghost = related.locator('[data-field="cause_at"]');
    await expect(ghost.locator('[data-ghost]')).toHaveText('missing: not loaded');
    await expect(ghost).toContainText('stream 1, topic 2, partition 3, offset 41');
    await expect(ghost).toContainText('no loaded record is at this log position');
    await expect(links).toHaveCount(3);

    await cause.getByRole('button', { name: 'command 01J0Y1…0001 · record #0' }).click();
    await expect(inspector.detail.getByRole('heading', { level: 2 })).toContainText('command');
    await expect(inspector.detail).toContainText('conversation.cborseq · record #0');
    await expect(inspector.records('conversation.cborseq').and(page.locator('[data-index="0"]'))).toHaveAttribute('aria-selected', 'true');
    // The command's correlation lists what answers it; back in history returns to the response.
    await expect(inspector.detail.getByLabel('Related records').locator('[data-field="correlation"]')).toContainText('this command, answered by');
    await page.goBack();
    await expect(inspector.detail.getByRole('heading', { level: 2 })).toContainText('response');
  });

  test('the links work from the keyboard, and from the field tree with the pointer', async ({ inspector, page }) => {
    await inspector.openWithSamples();
    await (await inspector.revealRecord('conversation.cborseq', 4)).click();
    const correlation = inspector.detail.getByLabel('Related records').locator('[data-field="correlation"]').getByRole('button');
    await inspector.tabTo(correlation);
    await page.keyboard.press('Enter');
    await expect(inspector.detail).toContainText('conversation.cborseq · record #0');

    // In the field tree: the command's correlation leads to what answers it first (the stream's first chunk).
    await inspector.tree
      .locator('[data-path="correlation"]')
      .getByRole('button', { name: /^its answer: chunk/ })
      .click();
    await expect(inspector.detail).toContainText('conversation.cborseq · record #1');
  });
});
