// Issue 25, item 3 (the timeline): a session's lifecycle drawn as a band along its lane, its paused
// stretch visible (an amber strip, found in the canvas's pixels), the parked work linked to the
// record that unparked it; the summary and the legend say them. At 1440 and 390 wide.
import type { Page } from '@playwright/test';
import { atEachWidth, expect, test, vector } from './fixtures';

/**
 * The longest horizontal run, in CSS pixels, of the paused strip's amber (#b45309, light scheme) two
 * pixels thick: the strip below a paused stretch. The parked link's dashes and the words are shorter.
 */
function longestPausedStrip(page: Page): Promise<number> {
  return page
    .getByTestId('timeline-canvas')
    .locator('canvas')
    .evaluate((el) => {
      const c = el as HTMLCanvasElement;
      const { data, width, height } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      const amber = (x: number, y: number) => {
        const o = (y * width + x) * 4;
        return Math.abs(data[o] - 180) < 20 && Math.abs(data[o + 1] - 83) < 20 && data[o + 2] < 40 && data[o + 3] > 200;
      };
      let best = 0;
      for (let y = 1; y < height; y++) {
        let run = 0;
        for (let x = 0; x < width; x++) {
          run = amber(x, y - 1) && amber(x, y) ? run + 1 : 0;
          best = Math.max(best, run);
        }
      }
      return best / (c.width / c.getBoundingClientRect().width);
    });
}

atEachWidth(({ width }) => {
  test(`the sample conversation tree's sessions are bands on the timeline, the pause visible, the parked work linked (${width})`, async ({
    inspector,
    page,
  }) => {
    await inspector.open();
    await inspector.dropFiles([vector('agdx/sessions/sessions_tree_http_v07.json')]);
    await expect(inspector.input('sessions_tree_http_v07.json')).toContainText('24 records');
    await page.getByRole('tab', { name: 'Timeline' }).click();
    const canvas = page.getByRole('region', { name: 'Timeline' }).getByTestId('timeline-canvas');
    await expect(canvas).toHaveAttribute('data-drawn', 'true');
    await canvas.scrollIntoViewIfNeeded();
    await expect(page.getByTestId('timeline-sessions')).toHaveText('2 sessions · 1 paused stretch · 1 parked → unparked');
    // The legend says what the band and the link are (open on a wide screen, folded on a phone).
    const legend = page.getByRole('note', { name: 'Timeline legend' });
    if (width < 768) await page.getByText('Legend and keys').click();
    await expect(legend).toContainText('session paused');
    await expect(legend).toContainText('parked → unparked');
    // Paused for 4 s of the 20 s drawn: a strip of some tens of pixels at either width.
    await expect.poll(() => longestPausedStrip(page)).toBeGreaterThan(20);
  });
});
