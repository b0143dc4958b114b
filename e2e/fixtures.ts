// One fixtures file: the page object and helpers every spec uses.
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { MIN_ZOOM, READABLE_ZOOM } from '../src/ui/graph/viewport';

export const vector = (rel: string) => resolve(process.cwd(), 'vectors', rel);

/** The two sizes every must-show spec of issue 18 runs at: a laptop and a phone. */
export const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** The widths of VIEWPORTS, for a spec that sets its own height. */
export const WIDTHS = VIEWPORTS.map((v) => v.width);

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

/** test-timings.ts's seam, set before the page's own scripts run. */
export async function setTimings(page: Page, t: { watchdogMs?: number; slowLoadMs?: number }) {
  await page.addInitScript((timings) => {
    (globalThis as { __envelopeInspectorTimings?: unknown }).__envelopeInspectorTimings = timings;
  }, t);
}

export class InspectorPage {
  constructor(readonly page: Page) {}

  /**
   * Sets the watchdog's base budget and a pause between a large load's batches for the pages this
   * test opens from now on (src/ui/test-timings.ts: a production build takes them from no URL).
   */
  async timings(t: { watchdogMs?: number; slowLoadMs?: number }) {
    await setTimings(this.page, t);
  }

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

  /** The box the record list scrolls in: the listbox of records and the inputs' headers beside it. */
  get recordScroller(): Locator {
    return this.page.getByTestId('record-scroller');
  }

  /**
   * What every row of the list shows under `testId` (and its title), top to bottom: the list is
   * windowed, so it is scrolled through, a screen at a time.
   */
  async listed(testId: string): Promise<{ text: string; title: string | null }[]> {
    const list = this.recordScroller;
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
    const list = this.recordScroller;
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

  /**
   * What a signature badge says in full ("Signature valid, trusted"): a compact row's mark says it in
   * its name ("Signed: signature valid, trusted"), a comfortable row's badge and the detail's in text.
   */
  async expectSigned(scope: Locator, words: string) {
    const badge = this.signatureBadge(scope);
    await expect(badge).toHaveAccessibleName(`Signed: ${words.charAt(0).toLowerCase()}${words.slice(1)}`);
  }

  /** Downloads one of the toolbar's exports (the Export menu). */
  async exportAs(label: 'Report (JSON)' | 'Summary (Markdown)' | 'Bundle (.eibundle)') {
    await this.page
      .getByRole('banner')
      .getByRole('button', { name: /^Export/ })
      .click();
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByRole('list', { name: 'Export' }).getByRole('button', { name: label }).click(),
    ]);
    return download;
  }

  /** Adds entries to the key registry as a key file's text, through the Keys dialog. */
  async addKeys(text: string) {
    await this.opener('Keys').click();
    await this.dialog.getByLabel(/^Key \(hex/).fill(text);
    await this.dialog.getByRole('button', { name: /^Add key/ }).click();
    await this.dialog.getByRole('button', { name: 'Close' }).click();
  }

  get graph(): Locator {
    return this.page.locator('.react-flow');
  }

  /** Opens the Graph tab and waits for its nodes. */
  async openGraph() {
    await this.page.getByRole('tab', { name: 'Graph' }).click();
    await expect(this.graph.locator('.react-flow__node').first()).toBeVisible();
  }

  /**
   * Shows every node of the graph: the graph opens on the selection's neighbourhood and Fit stops at
   * a readable zoom, so after Fit it zooms out (the "-" key) until React Flow, which draws only what
   * is in view, has drawn `count` nodes matching `nodes`.
   */
  async showWholeGraph(nodes: Locator, count: number) {
    await this.page.getByRole('button', { name: /^Fit the graph/ }).click();
    await expect.poll(() => this.graphZoom()).toBeGreaterThanOrEqual(READABLE_ZOOM);
    await this.page.getByLabel(/^Graph canvas/).focus();
    // Down to the graph's least zoom (MIN_ZOOM) if need be: a tall graph's last node may
    // come into view only there, and where the zooms land depends on the canvas's size.
    for (let i = 0; i < 20 && (await nodes.count()) < count; i++) {
      const before = await this.graphZoom();
      if (before <= MIN_ZOOM + 1e-6) break;
      await this.page.keyboard.press('-');
      await expect.poll(() => this.graphZoom()).toBeLessThan(before);
    }
    await expect(nodes).toHaveCount(count);
  }

  /**
   * Waits for the graph's viewport to be at rest: selecting a record centres the graph on it in an
   * animated move (250 ms), and a click on a node's button during it can land where the button was.
   * At rest: the viewport's transform is the same in two readings 300 ms apart (longer than the move).
   */
  async graphAtRest() {
    const viewport = this.graph.locator('.react-flow__viewport');
    let last: string | null = null;
    await expect
      .poll(
        async () => {
          const now = await viewport.evaluate((el) => (el as HTMLElement).style.transform);
          const still = now === last;
          last = now;
          return still;
        },
        { intervals: [300] },
      )
      .toBe(true);
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
      return {
        asciiRight: Math.max(...ascii),
        viewRight: right,
        scrolls: view.scrollWidth > view.clientWidth,
        perRow: Number((view.querySelector('[data-bytes-per-row]') as HTMLElement).dataset.bytesPerRow),
      };
    });
  }

  /** Opens the app as a first visit does: the bundled samples load; waits for them all. */
  async openWithSamples() {
    await this.open('');
    await expect(this.page.getByRole('status').filter({ hasText: /^Loaded \d+ records from 9 inputs\.$/ })).toBeVisible();
    // Its header, not its rows: the list is windowed, and on a phone not all seven rows are in the page.
    await expect(this.input('conversation.cborseq')).toContainText('7 records');
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

  /** The list's rows one line each (compact, the default) or taller, with the badges in words. */
  async setDensity(density: 'compact' | 'comfortable') {
    const toggle = this.page.getByRole('button', { name: 'Comfortable rows' });
    if ((await toggle.getAttribute('aria-pressed')) !== String(density === 'comfortable')) await toggle.click();
    await expect(this.recordScroller).toHaveAttribute('data-density', density);
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
export function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
  tolerance = 0.5,
): boolean {
  return a.x + a.width - tolerance > b.x && b.x + b.width - tolerance > a.x && a.y + a.height - tolerance > b.y && b.y + b.height - tolerance > a.y;
}

export const test = base.extend<{ inspector: InspectorPage }>({
  inspector: async ({ page }, use) => {
    await use(new InspectorPage(page));
  },
});

export { expect };
