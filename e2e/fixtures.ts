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
}

export const test = base.extend<{ inspector: InspectorPage }>({
  inspector: async ({ page }, use) => {
    await use(new InspectorPage(page));
  },
});

export { expect };
