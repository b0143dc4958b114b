// One fixtures file: the page object and helpers every spec uses.
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

export const vector = (rel: string) => resolve(process.cwd(), 'vectors', rel);

/** The two widths the issue 18 specs run at: a laptop and a phone. */
export const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** One `describe` per width of VIEWPORTS, the page opened at that size. */
export function atEachWidth(body: (size: (typeof VIEWPORTS)[number]) => void): void {
  for (const size of VIEWPORTS) {
    test.describe(`${size.width} wide`, () => {
      test.use({ viewport: size });
      body(size);
    });
  }
}

/** WCAG contrast ratio of two sRGB colours ([r, g, b], 0–255). */
export function contrast(fg: readonly number[], bg: readonly number[]): number {
  const lum = (c: readonly number[]) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

/** An element's text and background colours in sRGB (the page's CSS gives lab() and oklch(): a canvas converts). */
export async function coloursOf(el: Locator): Promise<{ fg: number[]; bg: number[] }> {
  return el.evaluate((node) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const rgb = (css: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const style = getComputedStyle(node);
    return { fg: rgb(style.color), bg: rgb(style.backgroundColor) };
  });
}

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

  /**
   * What every row of the list shows under `testId` (and its title), top to bottom: the list is
   * windowed, so it is scrolled through, a screen at a time.
   */
  async listed(testId: string): Promise<{ text: string; title: string | null }[]> {
    const list = this.page.getByRole('listbox', { name: 'Records' });
    const seen = new Map<number, { text: string; title: string | null }>();
    const total = await list.evaluate((el) => el.scrollHeight);
    for (let top = 0; ; top += 200) {
      await list.evaluate((el, y) => el.scrollTo(0, y), top);
      await this.page.waitForTimeout(50);
      const rows = await list.evaluate(
        (el, id) =>
          [...el.querySelectorAll('[role="option"]')].map((row) => {
            const cell = row.querySelector(`[data-testid="${id}"]`);
            return { key: Number((row as HTMLElement).dataset.recordKey), text: cell?.textContent ?? '', title: cell?.getAttribute('title') ?? null };
          }),
        testId,
      );
      for (const r of rows) seen.set(r.key, { text: r.text, title: r.title });
      if (top >= total) break;
    }
    await list.evaluate((el) => el.scrollTo(0, 0));
    return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  }

  /** The row of an input's record by its index in the input, scrolled into the (windowed) list first. */
  async revealRecord(inputName: string, index: number): Promise<Locator> {
    const list = this.page.getByRole('listbox', { name: 'Records' });
    const row = list.locator(`[role="option"][data-input="${inputName}"][data-index="${index}"]`);
    const total = await list.evaluate((el) => el.scrollHeight);
    for (let top = 0; (await row.count()) === 0 && top <= total; top += 200) {
      await list.evaluate((el, y) => el.scrollTo(0, y), top);
      await this.page.waitForTimeout(50);
    }
    await row.scrollIntoViewIfNeeded();
    return row;
  }

  /** A record row's (or the detail header's) signature badge. */
  signatureBadge(scope: Locator): Locator {
    return scope.getByTestId('signature-badge');
  }

  /** Adds entries to the key registry as a key file's text, through the Keys dialog. */
  async addKeys(text: string) {
    await this.page.getByRole('button', { name: /^Keys/ }).click();
    await this.page.getByLabel(/^Key \(hex/).fill(text);
    await this.page.getByRole('button', { name: /^Add key/ }).click();
    await this.page.getByRole('button', { name: 'Close' }).click();
  }

  get graph(): Locator {
    return this.page.locator('.react-flow');
  }

  /** Opens the Graph tab and waits for its nodes. */
  async openGraph() {
    await this.page.getByRole('tab', { name: 'Graph' }).click();
    await expect(this.graph.locator('.react-flow__node').first()).toBeVisible();
  }

  /** React Flow's zoom, read from its viewport's transform in the DOM. */
  async graphZoom(): Promise<number> {
    const transform = await this.graph.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
    const m = /scale\(([\d.]+)\)/.exec(transform);
    if (!m) throw new Error(`no scale in the viewport transform: ${transform}`);
    return Number(m[1]);
  }

  /** The graph / detail separator. */
  get split(): Locator {
    return this.page.getByRole('separator', { name: /^Resize/ });
  }

  /**
   * How the hex view's ASCII column sits in it: the right edge of its widest line against the
   * view's visible right edge, and whether the view scrolls sideways.
   */
  async hexAsciiFit(): Promise<{ asciiRight: number; viewRight: number; scrolls: boolean; perRow: number }> {
    return this.hex.evaluate((view) => {
      const box = view.getBoundingClientRect();
      const right = box.left + view.clientLeft + view.clientWidth;
      const ascii = [...view.querySelectorAll('[data-ascii]')].map((e) => e.getBoundingClientRect().right);
      return { asciiRight: Math.max(...ascii), viewRight: right, scrolls: view.scrollWidth > view.clientWidth, perRow: Number((view.querySelector('[data-bytes-per-row]') as HTMLElement).dataset.bytesPerRow) };
    });
  }
}

export const test = base.extend<{ inspector: InspectorPage }>({
  inspector: async ({ page }, use) => {
    await use(new InspectorPage(page));
  },
});

export { expect };
