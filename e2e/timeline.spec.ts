// Issue 17, the Timeline tab: a mark selects its record (and a record selected elsewhere is ringed on
// the timeline), a missed deadline is drawn where a person sees it (a thick red bar from the deadline
// to the late answer, found in the canvas's pixels), and the keyboard zooms and pans.
import { atEachWidth, expect, test, vector, type InspectorPage } from './fixtures';
import type { Page } from '@playwright/test';

const INPUT = 'deadlines.cborseq';

async function openTimeline(inspector: InspectorPage, page: Page) {
  await inspector.open();
  await inspector.dropFiles([vector(`agdx/made/${INPUT}`)]);
  await expect(page.getByRole('status').filter({ hasText: 'Loaded' })).toHaveText('Loaded 12 records from 1 input.');
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const region = page.getByRole('region', { name: 'Timeline' });
  const canvas = region.getByTestId('timeline-canvas');
  await expect(canvas).toHaveAttribute('data-drawn', 'true');
  await canvas.scrollIntoViewIfNeeded();
  return { region, canvas };
}

/**
 * The longest horizontal run of the missed-deadline red (#dc2626, light scheme) that is at least
 * three pixels thick, in CSS pixels: the bar drawn from a missed deadline to its late answer. Text,
 * the dashed line of an unanswered deadline and a stream's gap mark are thinner or shorter.
 */
function longestMissedBar(page: Page): Promise<number> {
  return page
    .getByTestId('timeline-canvas')
    .locator('canvas')
    .evaluate((el) => {
      const c = el as HTMLCanvasElement;
      const { data, width, height } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      const red = (x: number, y: number) => {
        const o = (y * width + x) * 4;
        return Math.abs(data[o] - 220) < 30 && data[o + 1] < 80 && data[o + 2] < 80 && data[o + 3] > 200;
      };
      let best = 0;
      for (let y = 1; y < height - 1; y++) {
        let run = 0;
        for (let x = 0; x < width; x++) {
          run = red(x, y - 1) && red(x, y) && red(x, y + 1) ? run + 1 : 0;
          best = Math.max(best, run);
        }
      }
      return best / (c.width / c.getBoundingClientRect().width);
    });
}

atEachWidth(() => {
  test('a mark selects its record, and a record selected in the list is ringed on the timeline', async ({ inspector, page }) => {
    await openTimeline(inspector, page);
    const ring = page.getByTestId('timeline-focus');
    // Where the ring is, in the canvas's own pixels (its centre; the page may scroll between reads).
    const ringAt = () =>
      ring.evaluate((el) => {
        const m = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec((el as HTMLElement).style.transform);
        return m && (el as HTMLElement).style.display !== 'none' ? `${Math.round(Number(m[1]) + 12)},${Math.round(Number(m[2]) + 12)}` : null;
      });
    // The first command (#0) chosen in the list: the ring is on its mark.
    await (await inspector.revealRecord(INPUT, 0)).click();
    await expect(page.getByTestId('timeline-selected')).toContainText('command chat');
    await expect.poll(ringAt).not.toBeNull();
    const first = (await ringAt())!;
    // The late response (#7) chosen in the list: the timeline rings its mark and says what it is.
    await (await inspector.revealRecord(INPUT, 7)).click();
    await expect(page.getByTestId('timeline-selected')).toContainText('response');
    await expect(page.getByTestId('timeline-selected')).toContainText('booker');
    await expect.poll(ringAt).not.toBe(first);
    const late = (await ringAt())!;

    // The first command again from the list; then a click on the response's mark selects it.
    await (await inspector.revealRecord(INPUT, 0)).click();
    await expect(inspector.detail).toContainText('command');
    await expect.poll(ringAt).toBe(first);
    const [x, y] = late.split(',').map(Number);
    const canvas = page.getByTestId('timeline-canvas');
    await canvas.scrollIntoViewIfNeeded();
    await canvas.click({ position: { x, y } });
    await expect(inspector.detail.getByRole('heading').first()).toContainText('response');
    await expect(page.getByRole('listbox', { name: 'Records' }).locator(`[role="option"][data-input="${INPUT}"][data-index="7"]`)).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect.poll(ringAt).toBe(late);
  });

  test('a missed deadline is drawn as a red bar to the late answer, and named above the canvas', async ({ inspector, page }) => {
    const { region } = await openTimeline(inspector, page);
    // Drawn: a thick red run from the deadline (+2 s) to the answer (+4.5 s) across the canvas.
    await expect.poll(() => longestMissedBar(page)).toBeGreaterThan(50);
    // Said: the summary and the problem list (which selects the late answer).
    await expect(region.getByTestId('timeline-summary')).toContainText('1 missed');
    const missed = region.getByTestId('timeline-missed');
    await expect(missed).toHaveCount(1);
    await expect(missed).toContainText('Deadline missed by 2.5 s');
    await missed.click();
    await expect(inspector.detail.getByRole('heading').first()).toContainText('response');
    await expect(inspector.detail).toContainText('agdx/deadline/missed');
  });

  test('the keyboard zooms in and out about the middle, and pans', async ({ inspector, page }) => {
    const { canvas } = await openTimeline(inspector, page);
    const range = page.getByTestId('timeline-range');
    const span = async () => Number(await range.getAttribute('data-span-micros'));
    const fitted = await span();
    expect(fitted).toBeGreaterThan(6_000_000);
    await canvas.focus();
    await page.keyboard.press('+');
    await expect.poll(span).toBeLessThan(fitted / 1.4);
    await page.keyboard.press('+');
    await expect.poll(span).toBeLessThan(fitted / 2);
    const zoomed = await span();
    const before = await range.textContent();
    await page.keyboard.press('ArrowRight');
    await expect(range).not.toHaveText(before!);
    expect(await span()).toBeCloseTo(zoomed, 0);
    await page.keyboard.press('-');
    await expect.poll(span).toBeGreaterThan(zoomed * 1.4);
    await page.keyboard.press('Home');
    await expect.poll(span).toBeCloseTo(fitted, 0);
  });
});
