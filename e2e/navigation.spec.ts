// Issue 27: navigation, keyboard only, at 1440 and 390 wide. A filter that hides the selection
// selects the first record it keeps (and says so), the list is one Tab stop, PageDown, End and
// Home move and select; what is pasted (hex, then CBOR diagnostic notation) is selected, scrolled
// to and shown; a paste nothing can be read from stays in the dialog with its reason and place.
import { readFileSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { agdxSequence } from '../test/support/generate';
import { atEachWidth, expect, type InspectorPage, test, vector } from './fixtures';

/** The selected row of the list, which must be one. */
const selectedRow = (inspector: InspectorPage) => inspector.page.getByRole('listbox', { name: 'Records' }).locator('[role="option"][aria-selected="true"]');

/** Whether `row` lies wholly inside the list's scrolled box (not hidden above or below it). */
async function inView(inspector: InspectorPage, row: ReturnType<typeof selectedRow>): Promise<boolean> {
  const box = await inspector.box(inspector.recordScroller);
  const r = await inspector.box(row);
  return r.y >= box.y - 0.5 && r.y + r.height <= box.y + box.height + 0.5;
}

atEachWidth(() => {
  test('keyboard only: a filter, Tab into the list, PageDown, End and Home select; the kept invalid record is opened', async ({ inspector, page }) => {
    await inspector.openWithSamples();
    // The first sample is selected (a valid command); the validity filter "invalid" hides it.
    await expect(inspector.detail).toContainText('conversation.cborseq · record #0');
    await inspector.tabTo(page.getByLabel('Validity'));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel('Validity')).toHaveValue('invalid');
    await expect(page.getByTestId('shown')).toHaveText('2 of 16');
    // The first record the filter keeps is selected instead, its detail open, and the list says so.
    await expect(page.getByTestId('list-notice')).toContainText('The filter hides the record that was selected, command 01J0Y1…0001 (conversation.cborseq #0)');
    await expect(page.getByTestId('list-notice')).toContainText('the first record it keeps is selected instead, command 01J0Y1…0001 (conversation.cborseq #5)');
    await expect(inspector.detail).toContainText('conversation.cborseq · record #5');
    await expect(inspector.detail.getByLabel(/^Valid: no/)).toBeVisible();

    // One Tab stop into the list: the selected, kept record.
    const list = page.getByRole('listbox', { name: 'Records' });
    await inspector.tabTo(list.locator('[role="option"][tabindex="0"]'));
    await expect(list.locator('[role="option"][tabindex="0"]')).toHaveCount(1);
    await expect(page.locator(':focus')).toHaveAttribute('data-index', '5');
    await expect(page.locator(':focus')).toHaveAttribute('aria-selected', 'true');
    // End: the last kept record, selected and opened; Home: the first again; PageDown: a screen on (here, the end).
    await page.keyboard.press('End');
    await expect(page.locator(':focus')).toHaveAttribute('data-input', 'agent_invalid_status_bad_operation.bin');
    await expect(selectedRow(inspector)).toHaveAttribute('data-input', 'agent_invalid_status_bad_operation.bin');
    await expect(inspector.detail).toContainText('agent_invalid_status_bad_operation.bin · record #0');
    await expect(inspector.detail.getByLabel(/^Valid: no/)).toBeVisible();
    await page.keyboard.press('Home');
    await expect(page.locator(':focus')).toHaveAttribute('data-index', '5');
    await expect(inspector.detail).toContainText('conversation.cborseq · record #5');
    await page.keyboard.press('PageDown');
    await expect(inspector.detail).toContainText('agent_invalid_status_bad_operation.bin · record #0');
    // The page itself did not scroll away: the keys went to the list.
    expect(await page.evaluate(() => document.scrollingElement?.scrollTop ?? 0)).toBeLessThan(5);
  });

  test('keyboard only: pasted hex, then pasted diagnostic notation, are each selected, scrolled to and shown', async ({ inspector, page }) => {
    const hex = readFileSync(vector('agdx/made/conversation.cborseq')).toString('hex');
    const diag = readFileSync(vector('agdx/made/command.diag.txt'), 'utf8');
    await inspector.openWithSamples();
    for (const [text, name, reads] of [
      [hex, 'pasted text 1', 'hex(cbor-seq): 7 records (command, chunk × 3, response, command, agdx.envelope), 1 not decoded'],
      [diag, 'pasted text 2', 'diag(cbor): 1 record (command)'],
    ] as const) {
      await inspector.tabTo(inspector.opener('Paste'), { key: 'Shift+Tab', max: 120 });
      await page.keyboard.press('Enter');
      await expect(page.getByLabel(/Hex, base64 or JSON/)).toBeFocused();
      await page.keyboard.insertText(text);
      // The dialog says what it reads as before it is loaded.
      await expect(page.getByTestId('paste-reading')).toHaveText(`Reads as ${reads}.`);
      await inspector.tabTo(page.getByRole('button', { name: 'Inspect' }));
      await page.keyboard.press('Enter');
      await expect(inspector.dialog).toBeHidden();
      // The new input's first record is selected, in view in the list, and its detail is open.
      await expect(selectedRow(inspector)).toHaveAttribute('data-input', name);
      await expect(selectedRow(inspector)).toHaveAttribute('data-index', '0');
      await expect.poll(() => inView(inspector, selectedRow(inspector))).toBe(true);
      await expect(inspector.detail).toContainText(`${name} · record #0`);
      await expect(inspector.detail).toContainText('agdx.envelope · command');
    }
    // Shown as diagnostic notation beside the hex, as it was pasted.
    await inspector.tabTo(page.getByRole('button', { name: 'Diagnostic notation' }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('diagnostic-view')).toContainText('"kind": "command",');
    await expect(page.getByTestId('diagnostic-view')).toContainText('"metadata": {\n    "priority": "high"\n  }');
  });

  test('a paste nothing can be read from keeps the dialog, with its reason at the line, column and byte where it fails', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.tabTo(inspector.opener('Paste'));
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('{"kind": "command",\n "record": h\'01J0\'}');
    await inspector.tabTo(page.getByRole('button', { name: 'Inspect' }));
    await page.keyboard.press('Enter');
    const problem = page.getByTestId('paste-problem');
    await expect(problem).toContainText("it stops at line 2, column 16: 'J' is not a hex digit (in h'…')");
    await expect(problem).toHaveAttribute('role', 'alert');
    await expect(page.getByTestId('paste-place')).toHaveText('Line 2, column 16 (byte 35):');
    await expect(problem.locator('mark')).toHaveText('J');
    // Not loaded; the text stays to be fixed: fixed, it is read and loaded.
    await expect(inspector.dialog).toBeVisible();
    await expect(page.getByRole('group', { name: /^Input / })).toHaveCount(0);
    const box = page.getByLabel(/Hex, base64 or JSON/);
    await expect(box).toHaveValue(/h'01J0'/);
    await box.fill(readFileSync(vector('agdx/made/command.diag.txt'), 'utf8'));
    await expect(problem).toBeHidden();
    await inspector.tabTo(page.getByRole('button', { name: 'Inspect' }));
    await page.keyboard.press('Enter');
    await expect(inspector.dialog).toBeHidden();
    await expect(inspector.detail).toContainText('pasted text');
  });
});

test('the compact list shows at least 24 rows on a 1440×900 screen; PageDown moves a screenful and selects', async ({ inspector, page }) => {
  const path = test.info().outputPath('log-3000.cborseq');
  writeFileSync(path, agdxSequence(3000, { signedEvery: 1_000_000 }));
  await inspector.open();
  await page.getByLabel('Choose record files').setInputFiles(path);
  await expect(page.getByTestId('shown')).toHaveText('3,000 records');
  await expect(inspector.recordScroller).toHaveAttribute('data-density', 'compact');
  const measure = async () => {
    const box = await inspector.box(inspector.recordScroller);
    return inspector.recordScroller.evaluate((el, b) => {
      const whole = [...el.querySelectorAll('[role="option"]')].filter((r) => {
        const rect = r.getBoundingClientRect();
        return rect.top >= b.y - 0.5 && rect.bottom <= b.y + b.height + 0.5;
      });
      return { whole: whole.length, height: Math.round(whole[0].getBoundingClientRect().height) };
    }, box);
  };
  // Polled: the page's layout (the load's status line, the detail) settles after the last record.
  await expect.poll(async () => (await measure()).whole).toBeGreaterThanOrEqual(24);
  const rows = await measure();
  expect(rows.height).toBeLessThanOrEqual(32);
  // The comfortable rows stay an option (a third as many fit).
  await inspector.setDensity('comfortable');
  const comfortable = await inspector.recordScroller.evaluate((el) => el.querySelector('[role="option"]')!.getBoundingClientRect().height);
  expect(comfortable).toBeGreaterThan(90);
  await inspector.setDensity('compact');

  // PageDown from the first record selects the one a screen further, and it is in view.
  await inspector.tabTo(page.getByRole('listbox', { name: 'Records' }).locator('[role="option"][tabindex="0"]'));
  await expect(page.locator(':focus')).toHaveAttribute('data-index', '0');
  await page.keyboard.press('PageDown');
  // Polled: the selection and the scroll follow the key a frame or two later.
  await expect.poll(async () => Number(await selectedRow(inspector).getAttribute('data-index'))).toBeGreaterThanOrEqual(rows.whole - 2);
  await expect.poll(() => inView(inspector, selectedRow(inspector))).toBe(true);
  await page.keyboard.press('End');
  await expect(selectedRow(inspector)).toHaveAttribute('data-index', '2999');
  await expect(page.locator(':focus')).toHaveAttribute('data-index', '2999');
  await expect(inspector.detail).toContainText('log-3000.cborseq · record #2999');
});

test('a link of one selected record out of 10,000 is under 2,000 characters, its size shown before it is chosen, and opens on that record', async ({
  inspector,
  page,
  browser,
}) => {
  // 10,000 records loaded, and the link of all of them measured: slow on a busy machine.
  test.setTimeout(120_000);
  const path = test.info().outputPath('log-10k.cborseq');
  writeFileSync(path, agdxSequence(10_000, { signedEvery: 1_000_000 }));
  await inspector.open();
  await page.getByLabel('Choose record files').setInputFiles(path);
  await expect(page.getByTestId('shown')).toHaveText('10,000 records');
  // The last record, by the keyboard.
  await inspector.tabTo(page.getByRole('listbox', { name: 'Records' }).locator('[role="option"][tabindex="0"]'));
  await page.keyboard.press('End');
  await expect(inspector.detail).toContainText('log-10k.cborseq · record #9999');
  // Its fields, to know it again (a chunk has no record id); the links to records it names are not part of it.
  const bare = (text: string | null) => (text ?? '').replace(/go to it|its answer|not loaded/g, '');
  const fields = bare(await inspector.tree.textContent());
  expect(fields).toContain('conversation');

  await inspector.opener('Share').click();
  // Each part's size is shown before one is chosen: everything is far too long; the selected record is short.
  await expect(page.getByTestId('share-size-all')).toHaveText(/^\(([\d,]{7,}) characters\)$/);
  const size = (await page.getByTestId('share-size-selected').textContent())!;
  const chars = Number(/([\d,]+) characters/.exec(size)![1].replace(/,/g, ''));
  expect(chars).toBeLessThan(2_000);
  await page.getByRole('radio', { name: /^The selected record: / }).check();
  await expect(page.getByTestId('link-size')).toHaveText(`${chars.toLocaleString('en')} characters`);
  const url = await page.getByLabel('Permalink').inputValue();
  expect(url.length).toBe(chars);

  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByRole('article', { name: 'Record detail' })).toContainText('log-10k.cborseq · record #0');
  await expect(other.getByRole('tree', { name: 'Fields' })).toContainText('sequence');
  expect(bare(await other.getByRole('tree', { name: 'Fields' }).textContent())).toBe(fields);
  await expect(other.getByTestId('shown')).toHaveText('1 record');
  await context.close();
});

atEachWidth(() => {
  test("the graph opens on the selected record's neighbourhood with its text at 12 px or more; late and unanswered answers, and records sharing an id, are marked on their nodes", async ({
    inspector,
  }) => {
    await inspector.openWithSamples();
    await inspector.openGraph();
    const selected = inspector.graph.locator('.react-flow__node:has([data-selected])');
    // On a phone the canvas is below the list: scrolled to, as a person would.
    await inspector.graph.scrollIntoViewIfNeeded();
    await expect(selected).toBeInViewport();
    const canvas = await inspector.box(inspector.graph);
    const node = await inspector.box(selected);
    expect(node.x >= canvas.x - 1 && node.x + node.width <= canvas.x + canvas.width + 1).toBe(true);
    // Every piece of text on the nodes in view, at its font size times the zoom.
    await expect.poll(() => inspector.graphZoom()).toBeGreaterThanOrEqual(12 / 11);
    const zoom = await inspector.graphZoom();
    const smallest = await inspector.graph
      .locator('.react-flow__node')
      .evaluateAll((nodes) =>
        Math.min(
          ...nodes.flatMap((n) =>
            [...n.querySelectorAll('*')]
              .filter((el) => [...el.childNodes].some((c) => c.nodeType === 3 && c.textContent!.trim()))
              .map((el) => Number.parseFloat(getComputedStyle(el).fontSize)),
          ),
        ),
      );
    expect(smallest * zoom).toBeGreaterThanOrEqual(12);
    // Its neighbours are drawn around it: the response answering it (late: after the command's deadline).
    await expect(inspector.graph.getByTestId('node-timing').filter({ hasText: 'late' })).toHaveAttribute('title', /after its deadline/);
    // Two commands from two inputs share an id: their nodes say where each is.
    const places = await inspector.graph.getByTestId('node-place').allTextContents();
    expect(places).toEqual(expect.arrayContaining(['conversation.cborseq #0']));
    expect(new Set(places).size).toBe(places.length);
  });
});

test('a command whose deadline passed unanswered is marked on its node', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/deadlines.cborseq')]);
  await inspector.openGraph();
  await page.getByRole('button', { name: /^Fit the graph/ }).click();
  const marks = inspector.graph.getByTestId('node-timing');
  await expect(marks.filter({ hasText: 'unanswered' })).toHaveCount(1);
  await expect(marks.filter({ hasText: 'unanswered' })).toHaveAttribute('title', /no response or error in input 0 answers this command/);
  await expect(marks.filter({ hasText: 'late' })).toHaveCount(1);
});

test.describe('1024 × 768', () => {
  test.use({ viewport: { width: 1024, height: 768 } });
  test("the timeline's problems are rows of one height in a list that scrolls, and the chart keeps half the pane", async ({ inspector, page }) => {
    const path = test.info().outputPath('log-2000.cborseq');
    writeFileSync(path, agdxSequence(2000, { signedEvery: 1_000_000 }));
    await inspector.open();
    await page.getByLabel('Choose record files').setInputFiles(path);
    await expect(page.getByTestId('shown')).toHaveText('2,000 records');
    await page.getByRole('tab', { name: 'Timeline' }).click();
    const problems = page.getByTestId('timeline-problems');
    await expect(problems.getByRole('button').first()).toBeVisible();
    const heights = await problems.locator('li').evaluateAll((items) => items.map((li) => li.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThan(8);
    expect(new Set(heights.map(Math.round))).toEqual(new Set([20]));
    expect(await problems.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    const panel = await inspector.box(page.getByRole('region', { name: 'Timeline' }));
    const chart = await inspector.box(page.getByTestId('timeline-chart'));
    expect(chart.height).toBeGreaterThanOrEqual(panel.height / 2 - 1);
  });
});

atEachWidth((size) => {
  test('the comparison takes the whole pane, A beside B (stacked on a phone), its byte diff aligned with the inserted byte shown as such; the tab is on screen', async ({
    inspector,
    page,
  }) => {
    // B: the command with one more character in its source (the text's head changes, one byte is inserted).
    const a = readFileSync(vector('agdx/laser-wire-0.0.1/agent_command.bin'));
    const needle = Buffer.concat([Buffer.from([0x6c]), Buffer.from('source-agent')]);
    const at = a.indexOf(needle);
    const b = Buffer.concat([a.subarray(0, at), Buffer.from([0x6d]), Buffer.from('source-agentX'), a.subarray(at + needle.length)]);
    const dir = test.info().outputPath();
    writeFileSync(`${dir}/a.bin`, a);
    writeFileSync(`${dir}/b.bin`, b);
    await inspector.open();
    await page.getByLabel('Choose record files').setInputFiles([`${dir}/a.bin`, `${dir}/b.bin`]);
    await inspector.records('a.bin').click();
    await inspector.detail.getByRole('button', { name: 'Compare with…' }).click();
    await page.getByRole('dialog').getByRole('combobox').fill('b.bin');
    await expect(page.getByRole('dialog').getByRole('option')).toHaveCount(1);
    await page.keyboard.press('Enter');
    const region = page.getByRole('region', { name: 'Comparison' });
    await expect(region.getByTestId('aligned-hunk')).toBeVisible();
    // The whole pane: no record detail below it.
    await expect(inspector.detail).toHaveCount(0);
    const tab = await inspector.box(page.getByRole('tab', { name: 'Compare' }));
    expect(tab.x + tab.width).toBeLessThanOrEqual(size.width);
    const cardA = await inspector.box(region.getByTestId('side-A'));
    const cardB = await inspector.box(region.getByTestId('side-B'));
    if (size.width > 600) expect(Math.abs(cardA.y - cardB.y)).toBeLessThan(2);
    else expect(cardB.y).toBeGreaterThanOrEqual(cardA.y + cardA.height - 1);
    // The byte diff: one changed byte (the text's head), one inserted (X), and the bytes after it line up again.
    const hunk = region.getByTestId('aligned-hunk');
    await expect(hunk.locator('[data-op="changed"]')).toHaveCount(1);
    const inserted = hunk.locator('[data-op="inserted"]');
    await expect(inserted).toHaveCount(1);
    await expect(inserted.locator('[data-side="A"]')).toHaveText('··');
    await expect(inserted.locator('[data-side="B"]')).toHaveText('58');
    const after = hunk.locator('[data-op="inserted"] + [data-op="equal"]');
    await expect(after.locator('[data-side="A"]')).toHaveText((await after.locator('[data-side="B"]').textContent())!);
    await expect(hunk.locator('.sr-only')).toContainText('byte only in B (inserted) at B');
    // Its records' details are a click away: the Record tab opens on B.
    await region.getByRole('button', { name: "Show B's detail" }).click();
    await expect(page.getByRole('tab', { name: 'Record' })).toHaveAttribute('aria-selected', 'true');
    await expect(inspector.detail).toContainText('b.bin · record #0');
  });
});

test('the samples hold an AgentDNA workflow and a record signed by a public test key: one click trusts the key, and the record is trusted', async ({
  inspector,
  page,
}) => {
  await inspector.openWithSamples();
  await expect(inspector.records('agentdna_workflow.json')).toHaveCount(1);
  const badge = inspector.signatureBadge(inspector.records('signed_command.bin'));
  await expect(badge).toHaveAttribute('aria-label', 'Signed: unknown key');
  await inspector.records('signed_command.bin').click();
  await expect(inspector.detail).toContainText("Signed by the samples' public test key fe812c12f3ab4ce6");
  await inspector.detail.getByRole('button', { name: 'Trust the sample key' }).click();
  // Added through the registry: the Keys button counts it, the record is re-checked and trusted.
  await expect(inspector.opener('Keys')).toHaveText('Keys (1)');
  await expect(badge).toHaveAttribute('aria-label', 'Signed: signature valid, trusted');
  await expect(inspector.signatureBadge(inspector.detail)).toHaveText('Signature valid, trusted');
  await expect(inspector.detail.getByTestId('sample-key-trusted')).toContainText('is in your registry');
  await expect(page.getByRole('region', { name: 'About these records' }).getByTestId('sample-key-trusted')).toHaveText('Sample key trusted.');
  // It is an ordinary registry entry: the Keys dialog lists it, for source-agent.
  await inspector.opener('Keys').click();
  await expect(inspector.dialog).toContainText('fe812c12f3ab4ce6');
});

test('keyboard only: the findings are one Tab stop, and the arrow keys, Home and End move to a finding and select it (its bytes lit)', async ({
  inspector,
  page,
}) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/laser-wire-0.0.1/agent_invalid_error_last.bin')]);
  await expect(inspector.detail).toContainText('agent_invalid_error_last.bin · record #0');
  const rows = inspector.findings.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  // One stop: the first finding's message (its rule id is the row's other control).
  await inspector.tabTo(rows.nth(0).locator('[data-finding="0"]'));
  await expect(inspector.findings.locator('[data-finding][tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1).locator('[data-finding="1"]')).toBeFocused();
  await expect(rows.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(inspector.hex.locator('[data-selected]').first()).toBeVisible();
  await page.keyboard.press('Home');
  await expect(rows.nth(0)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('End');
  await expect(rows.nth(1)).toHaveAttribute('aria-current', 'true');
  // Tab leaves the findings after the selected row's rule id and message.
  await page.keyboard.press('Shift+Tab');
  await expect(rows.nth(1).getByRole('button', { name: /^agdx\// })).toBeFocused();
});

atEachWidth(() => {
  test('keyboard only: the list sorts by a column (time, newest first), says so, and goes back to log order', async ({ inspector, page }) => {
    await inspector.openWithSamples();
    const sortBar = page.getByRole('toolbar', { name: 'Sort the records by' });
    // One Tab stop (Kind, in log order); the arrows move along the columns.
    await inspector.tabTo(sortBar.getByRole('button', { name: 'Kind' }));
    await expect(sortBar.locator('button[tabindex="0"]')).toHaveCount(1);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const time = sortBar.getByRole('button', { name: /^Time/ });
    await expect(time).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(time).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('sorted-by')).toContainText('Sorted by time, oldest first');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('sorted-by')).toContainText('Sorted by time, newest first');
    // The rows in view, newest first (their times whole in their tooltips; records of no time last), no input headers.
    await expect(page.getByRole('group', { name: /^Input / })).toHaveCount(0);
    // In the order they are drawn (the list is windowed: the selected row is made wherever it is);
    // the worker's answer may come after the words change.
    const drawnTimes = async () =>
      (
        await inspector.recordScroller.getByTestId('row-time').evaluateAll((els) =>
          els
            .map((e) => ({ top: e.getBoundingClientRect().top, title: e.getAttribute('title') ?? '' }))
            .sort((a, b) => a.top - b.top)
            .map((e) => e.title),
        )
      )
        .map((t) => /^(\S+Z) /.exec(t)?.[1])
        .filter((t): t is string => !!t);
    await expect
      .poll(async () => {
        const t = await drawnTimes();
        return t.length > 3 && t.join() === [...t].sort().reverse().join();
      })
      .toBe(true);
    // Not all of one time: the order shows.
    expect((await drawnTimes())[0] > (await drawnTimes()).at(-1)!).toBe(true);
    // A third time: log order again, the inputs' headers back.
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('sorted-by')).toHaveCount(0);
    await expect(time).toHaveAttribute('aria-pressed', 'false');
    await expect(inspector.input('conversation.cborseq')).toBeVisible();
  });
});

test('copy buttons: the id, the hex (all, then a selected field), the diagnostic notation and the body go to the clipboard', async ({
  inspector,
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await inspector.open();
  await inspector.dropFiles([vector('agdx/laser-wire-0.0.1/agent_command.bin')]);
  await expect(inspector.detail).toContainText('agent_command.bin · record #0');
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  const bytes = readFileSync(vector('agdx/laser-wire-0.0.1/agent_command.bin'));

  await inspector.detail.getByRole('button', { name: 'Copy id' }).click();
  await expect(inspector.detail.getByRole('button', { name: /^Copy id/ })).toContainText('✓ copied');
  expect(await clipboard()).toBe(await inspector.detail.getByTestId('detail-id').getAttribute('title'));

  await inspector.detail.getByRole('button', { name: 'Copy hex' }).click();
  expect(await clipboard()).toBe(bytes.toString('hex'));
  // A field selected: its bytes only.
  const kind = inspector.tree.locator('[role="treeitem"][data-path="kind"]');
  await kind.click();
  await inspector.detail.getByRole('button', { name: 'Copy selected hex' }).click();
  const selected = await clipboard();
  expect(selected.length).toBeGreaterThan(0);
  expect(selected.length).toBeLessThan(bytes.length * 2);
  expect(bytes.toString('hex')).toContain(selected);
  expect(Buffer.from(selected, 'hex').toString('latin1')).toContain('command');

  await page.getByRole('button', { name: 'Diagnostic notation' }).click();
  await inspector.detail.getByRole('button', { name: 'Copy diagnostic notation' }).click();
  const diag = await clipboard();
  expect(diag).toContain('"kind": "command"');
  expect(diag).toBe(await page.getByTestId('diagnostic-view').textContent());

  await inspector.detail.getByRole('button', { name: 'Copy body' }).click();
  expect(await clipboard()).toBe(await inspector.detail.getByRole('region', { name: 'Body' }).textContent());
});
