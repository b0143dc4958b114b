// Issue 18, item 7 (the graph): a stream unfolded keeps its diagnostics (gap, duplicates, after the
// end) on its first chunk, which folds it back, with the keyboard too; each chunk shows its sequence
// and what its reader made of it, where it read "chunk —".
import type { Locator } from '@playwright/test';
import { atEachWidth, expect, type InspectorPage, test, vector } from './fixtures';

/**
 * The folded stream's "unfold" button, in view: selecting the stream's first chunk in the list
 * centres the graph on the stream's node. The graph opens on the first record: at 390 wide the
 * stream sits at the canvas's right edge, its button clipped, and a click there is taken by React
 * Flow putting its scrolled wrapper back. The click waits for the centring's move to end: one
 * during it was once taken by the canvas, where the button had been (the stream stayed folded).
 */
async function unfoldButton(inspector: InspectorPage): Promise<Locator> {
  await (await inspector.revealRecord('conversation_http_v07.json', 1)).click();
  await inspector.graphAtRest();
  const unfold = inspector.graph.locator('[data-node-kind="stream"]').getByRole('button', { name: 'unfold' });
  await expect(unfold).toBeInViewport();
  return unfold;
}

atEachWidth(() => {
  test('unfolding a stream keeps its diagnostics, each chunk shows its sequence, and it folds back', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([vector('agdx/made/conversation_http_v07.json')]);
    await expect(inspector.input('conversation_http_v07.json')).toContainText('10 records');
    await inspector.openGraph();
    const canvas = inspector.graph;
    const stream = canvas.locator('[data-node-kind="stream"]');
    await expect(stream).toContainText('gap at 2 · 1 dup · 1 after end');

    await (await unfoldButton(inspector)).click();
    await expect(stream).toHaveCount(0);
    await expect(page.getByTestId('graph-counts')).toContainText('10 nodes');
    // The stream's first chunk: its sequence, and the stream's diagnostics as the folded node said them.
    const head = canvas.locator('.react-flow__node').filter({ has: page.getByTestId('stream-summary') });
    await expect(head).toHaveCount(1);
    await expect(head.getByTestId('stream-summary')).toHaveText('stream: 5 chunks · gap');
    await expect(head.getByTestId('stream-detail')).toHaveText('gap at 2 · 1 dup · 1 after end');
    await expect(head.getByTestId('chunk-role')).toHaveText('applied');
    await expect(head).toContainText('chunk seq 0');
    await expect(head.locator('[data-node-kind="record"]')).toHaveAttribute('data-alarm', 'true');
    await expect(page.getByTestId('unfolded')).toContainText('Unfolded: 1');

    // Zoomed out, every chunk is drawn: none reads "chunk —"; each says what its reader did with it.
    const chunks = canvas.locator('.react-flow__node').filter({ hasText: /^chunk / });
    await inspector.showWholeGraph(chunks, 5);
    await expect(canvas.locator('.react-flow__node').filter({ hasText: /^chunk\s*—/ })).toHaveCount(0);
    const role = (seq: string, words: string) => chunks.filter({ hasText: `chunk seq ${seq}` }).filter({ hasText: words });
    await expect(role('1', 'applied')).toHaveCount(1);
    await expect(role('1', 'duplicate: dropped')).toHaveCount(1);
    await expect(role('3', 'gap: seq 2 missing before it')).toHaveCount(1);
    await expect(role('4', 'after the end: dropped')).toHaveCount(1);
    await expect(role('3', 'gap').locator('[data-node-kind]')).toHaveAttribute('data-alarm', 'true');

    // Folded back from the first chunk, with the keyboard: Tab from the node reaches its fold button.
    await head.focus();
    await page.keyboard.press('Tab');
    const fold = head.getByRole('button', { name: 'fold the stream back' });
    await expect(fold).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(stream).toHaveCount(1);
    await expect(stream).toContainText('gap at 2 · 1 dup · 1 after end');
    await expect(page.getByTestId('graph-counts')).toContainText('6 nodes');
    await expect(page.getByTestId('unfolded')).toHaveCount(0);
  });

  test('"Fold all back", off the canvas, folds what was unfolded', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([vector('agdx/made/conversation_http_v07.json')]);
    await expect(inspector.input('conversation_http_v07.json')).toContainText('10 records');
    await inspector.openGraph();
    const stream = inspector.graph.locator('[data-node-kind="stream"]');
    await (await unfoldButton(inspector)).click();
    await expect(stream).toHaveCount(0);
    await page.getByRole('button', { name: 'Fold all back' }).click();
    await expect(stream).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Fold all back' })).toHaveCount(0);
  });
});
