// Issue 18, the graph at its default zoom: fitted no smaller than a readable zoom (React Flow's
// zoom ≥ 0.6, read from its viewport's transform), a small minimap hidden on a small canvas, a
// usable canvas on a phone, and a graph / detail split that the pointer and the keys move.
import { atEachWidth, expect, test, vector } from './fixtures';

atEachWidth((size) => {
  test('the samples open in the graph at a readable zoom, on a canvas of a usable size', async ({ inspector, page }) => {
    // A first visit: the samples load by themselves.
    await inspector.open('');
    await expect(page.getByRole('status').filter({ hasText: 'Loaded' })).toHaveText('Loaded 16 records from 9 inputs.');
    await inspector.openGraph();
    await expect.poll(() => inspector.graphZoom()).toBeGreaterThanOrEqual(0.6);
    // The selected record's node is in view (on a phone, once the page is scrolled to the canvas below the list).
    await inspector.graph.scrollIntoViewIfNeeded();
    await expect(inspector.graph.locator('.react-flow__node:has([data-selected])')).toBeInViewport();

    const canvas = (await inspector.graph.boundingBox())!;
    expect(canvas.height).toBeGreaterThanOrEqual(300);
    expect(canvas.width).toBeGreaterThanOrEqual(size.width < 600 ? 380 : 900);
    const minimap = inspector.graph.locator('.react-flow__minimap');
    if (size.width < 600) await expect(minimap).toHaveCount(0);
    else {
      const box = (await minimap.boundingBox())!;
      expect(box.width * box.height).toBeLessThan(canvas.width * canvas.height * 0.05);
    }

    // "0" (and the fit button) fit again, never below the readable zoom.
    await inspector.graph.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.getByRole('button', { name: /^Fit the graph/ }).click();
    await expect.poll(() => inspector.graphZoom()).toBeGreaterThanOrEqual(0.6);
  });

  test('a larger graph still opens at a readable zoom, and the person pans from there', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([
      vector('agdx/made/registry_log_http_v07.json'),
      vector('agdx/made/conversation_http_v07.json'),
      vector('agdx/made/conversation.cborseq'),
    ]);
    await expect(page.getByRole('status').filter({ hasText: 'Loaded' })).toContainText('from 3 inputs');
    await inspector.openGraph();
    await expect.poll(() => inspector.graphZoom()).toBeGreaterThanOrEqual(0.6);
    const before = await inspector.graph.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
    const pane = (await inspector.graph.locator('.react-flow__pane').boundingBox())!;
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await page.mouse.down();
    await page.mouse.move(pane.x + pane.width / 2 - 80, pane.y + pane.height / 2 - 60, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => inspector.graph.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform)).not.toBe(before);
  });

  test('the graph / detail split moves with the keys and the pointer, and is kept', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([vector('agdx/made/conversation_http_v07.json')]);
    await inspector.openGraph();
    const split = inspector.split;
    await expect(split).toHaveAttribute('aria-orientation', 'horizontal');
    await expect(split).toHaveAttribute('aria-valuenow', '58');
    const panel = page.getByRole('tabpanel', { name: 'Graph' });
    const before = (await panel.boundingBox())!.height;

    await split.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(split).toHaveAttribute('aria-valuenow', '68');
    await expect.poll(async () => (await panel.boundingBox())!.height).toBeGreaterThan(before);
    await page.keyboard.press('Home');
    await expect(split).toHaveAttribute('aria-valuenow', '25');
    await page.keyboard.press('End');
    await expect(split).toHaveAttribute('aria-valuenow', '85');

    // Dragged up by the pointer.
    const handle = (await split.boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2, handle.y - 150, { steps: 6 });
    await page.mouse.up();
    const dragged = Number(await split.getAttribute('aria-valuenow'));
    expect(dragged).toBeLessThan(85);
    expect(dragged).toBeGreaterThanOrEqual(25);

    // Kept in this browser.
    await page.reload();
    await inspector.dropFiles([vector('agdx/made/conversation_http_v07.json')]);
    await inspector.openGraph();
    await expect(inspector.split).toHaveAttribute('aria-valuenow', String(dragged));
  });
});
