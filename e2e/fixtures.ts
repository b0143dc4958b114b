// One fixtures file: the page object and helpers every spec uses.
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

export const vector = (rel: string) => resolve(process.cwd(), 'vectors', rel);

export class InspectorPage {
  constructor(readonly page: Page) {}

  /** Opens the app without the first-visit samples, so a test sees only what it loads. */
  async open(query = '?samples=none') {
    await this.page.goto(`/${query}`);
    await expect(this.page.getByRole('heading', { name: 'Envelope Inspector' })).toBeVisible();
  }

  /** A real drag and drop: a DataTransfer holding the files, dispatched on the page. */
  async dropFiles(paths: string[]) {
    const files = paths.map((p) => ({ name: basename(p), data: [...readFileSync(p)] }));
    const transfer = await this.page.evaluateHandle((list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([new Uint8Array(f.data)], f.name));
      return dt;
    }, files);
    const target = this.page.locator('main');
    await target.dispatchEvent('dragenter', { dataTransfer: transfer });
    await target.dispatchEvent('dragover', { dataTransfer: transfer });
    await target.dispatchEvent('drop', { dataTransfer: transfer });
  }

  async paste(text: string) {
    await this.page.getByRole('button', { name: 'Paste' }).click();
    await this.page.getByLabel(/Hex, base64 or JSON/).fill(text);
    await this.page.getByRole('button', { name: 'Inspect' }).click();
  }

  input(name: string): Locator {
    return this.page.getByRole('group', { name: `Input ${name}` });
  }

  /** The rows of an input's records (the list is windowed: rows far out of view are not in the page). */
  records(inputName: string): Locator {
    return this.page.getByRole('listbox', { name: 'Records' }).locator(`[role="option"][data-input="${inputName}"]`);
  }

  get detail(): Locator {
    return this.page.getByRole('article', { name: 'Record detail' });
  }

  get hex(): Locator {
    return this.page.getByRole('region', { name: 'Hex view' });
  }

  get tree(): Locator {
    return this.page.getByRole('tree', { name: 'Fields' });
  }

  get findings(): Locator {
    return this.page.getByRole('table', { name: 'Findings' });
  }

  /** Opens the app as a first visit does: the bundled samples load; waits for them all. */
  async openWithSamples() {
    await this.open('');
    await expect(this.page.getByRole('status').filter({ hasText: /^Loaded \d+ records from 8 inputs\.$/ })).toBeVisible();
    await expect(this.records('conversation.cborseq')).toHaveCount(7);
  }

  /** The open modal dialog (one at a time). */
  get dialog(): Locator {
    return this.page.getByRole('dialog');
  }

  /** The toolbar button that opens the Keys, Share or Paste dialog. */
  opener(name: 'Keys' | 'Share' | 'Paste'): Locator {
    return this.page.getByRole('banner').getByRole('button', { name: new RegExp(`^${name}`) });
  }

  get samplesButton(): Locator {
    return this.page.getByRole('button', { name: /^Samples/ });
  }

  get samplesMenu(): Locator {
    return this.page.getByRole('list', { name: 'Samples' });
  }

  /** Whether the focused element is inside `container`. */
  focusIsIn(container: Locator): Promise<boolean> {
    return container.evaluate((el) => el.contains(document.activeElement));
  }

  /** Presses `key` `times` times, checking after each press that focus stayed inside `container`. */
  async expectFocusStaysIn(container: Locator, key: 'Tab' | 'Shift+Tab', times: number) {
    for (let i = 0; i < times; i++) {
      await this.page.keyboard.press(key);
      expect(await this.focusIsIn(container), `focus after ${key} #${i + 1}`).toBe(true);
    }
  }

  /**
   * Presses Tab (or Shift+Tab) until `target` has focus, as a keyboard user moves through the page;
   * fails if it is not reached within `max` presses.
   */
  async tabTo(target: Locator, { key = 'Tab', max = 60 }: { key?: 'Tab' | 'Shift+Tab'; max?: number } = {}) {
    for (let i = 0; i < max; i++) {
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
      await this.page.keyboard.press(key);
    }
    await expect(target, `reached with ${key} in ${max} presses`).toBeFocused();
  }

  /** The bounding box of `locator`, which must be on screen. */
  async box(locator: Locator) {
    const b = await locator.boundingBox();
    expect(b, 'on screen').not.toBeNull();
    return b!;
  }
}

/** Whether two boxes share any area (touching edges do not count). */
export function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }, tolerance = 0.5): boolean {
  return a.x + a.width - tolerance > b.x && b.x + b.width - tolerance > a.x && a.y + a.height - tolerance > b.y && b.y + b.height - tolerance > a.y;
}

/** The widths every must-show spec of issue 18 runs at: a laptop and a phone. */
export const WIDTHS = [1440, 390] as const;

export const test = base.extend<{ inspector: InspectorPage }>({
  inspector: async ({ page }, use) => {
    await use(new InspectorPage(page));
  },
});

export { expect };
