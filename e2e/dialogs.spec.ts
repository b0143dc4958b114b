// Issue 18 item 4: dialogs that trap nobody no longer. Each dialog keeps Tab inside it, closes on
// Esc and gives focus back to the button that opened it; the Samples menu closes on Esc, an outside
// click, a choice or Clear, and covers none of the tabs. At a laptop's width and a phone's.
import { expect, overlaps, test, WIDTHS } from './fixtures';

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    for (const name of ['Keys', 'Share', 'Paste'] as const) {
      test(`${name}: Tab and Shift+Tab stay inside, Esc closes it, focus returns to its button`, async ({ inspector, page }) => {
        await inspector.openWithSamples();
        const opener = inspector.opener(name);
        await opener.focus();
        await page.keyboard.press('Enter');
        const dialog = inspector.dialog;
        await expect(dialog).toBeVisible();
        expect(await inspector.focusIsIn(dialog)).toBe(true);
        // More presses than the dialog has controls: the focus wraps and never reaches the page behind.
        const stops = await dialog.evaluate((el) => el.querySelectorAll('button, input, select, textarea, a[href]').length);
        await inspector.expectFocusStaysIn(dialog, 'Tab', stops + 3);
        await inspector.expectFocusStaysIn(dialog, 'Shift+Tab', stops + 3);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await expect(opener).toBeFocused();
        // The Close button does the same.
        await page.keyboard.press('Enter');
        await expect(dialog).toBeVisible();
        await dialog.getByRole('button', { name: 'Close' }).click();
        await expect(dialog).toBeHidden();
        await expect(opener).toBeFocused();
      });
    }

    test('the Samples menu closes on Esc, an outside click, a choice and Clear, and covers none of the tabs', async ({ inspector, page }) => {
      await inspector.openWithSamples();
      const button = inspector.samplesButton;
      const menu = inspector.samplesMenu;
      await expect(button).toHaveAttribute('aria-expanded', 'false');

      await button.click();
      await expect(menu).toBeVisible();
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      // Nothing of the tab bar is under it.
      const tabs = page.getByRole('tablist', { name: 'View' });
      expect(overlaps(await inspector.box(menu), await inspector.box(tabs))).toBe(false);
      for (const tab of await page.getByRole('tab').all()) expect(overlaps(await inspector.box(menu), await inspector.box(tab))).toBe(false);

      // Esc, from inside the menu: closed, focus back on its button.
      await menu.getByRole('button').first().focus();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(button).toBeFocused();

      // An outside click.
      await button.click();
      await expect(menu).toBeVisible();
      await page.getByRole('heading', { name: 'Envelope Inspector' }).click();
      await expect(menu).toBeHidden();

      // Clear.
      await button.click();
      await expect(menu).toBeVisible();
      // The toolbar's Clear (a first visit's note has a "Clear samples" of its own).
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      await expect(menu).toBeHidden();
      await expect(page.getByRole('option')).toHaveCount(0);

      // A choice: it loads and closes, focus back on the button.
      await button.click();
      await menu.getByRole('button', { name: 'Dead letter' }).click();
      await expect(menu).toBeHidden();
      await expect(button).toBeFocused();
      await expect(inspector.records('agent_dead_letter.bin')).toHaveCount(2);
    });
  });
}
