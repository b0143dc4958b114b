// Issue 18, errors and first visit: a file that is plainly something else (a PNG, an empty file) is
// named as what it is and counted as an unreadable input, not as a record, with one message; a first
// visit says its records are samples, with Clear and Open files at hand, once.
import { writeFileSync } from 'node:fs';
import { atEachWidth, expect, test, vector } from './fixtures';

atEachWidth(() => {
  test('a PNG dropped on the page is named as a PNG and counted as unreadable, not as a record', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([vector('files/pixel.png')]);
    const status = page.getByRole('status').filter({ hasText: 'Loaded' });
    await expect(status).toHaveText('Loaded 0 records from 1 input (it is unreadable).');
    await expect(page.getByTestId('shown')).toHaveText('0 records');

    // One message, on the input: what the file is.
    const input = inspector.input('pixel.png');
    await expect(input).toContainText('file(png) · unreadable · 69 B');
    await expect(input.getByTestId('input-error')).toContainText('a PNG image, not an agent record');
    const row = inspector.records('pixel.png');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Not a record');
    await expect(row).not.toContainText('PNG');
    await expect(row.getByLabel('Signed: unsigned')).toHaveCount(0);

    // The detail: the one message and the bytes, no empty findings, signature or field panels.
    await row.click();
    await expect(inspector.detail.getByRole('heading', { level: 2 })).toHaveText('Not a record');
    await expect(inspector.detail.getByRole('alert')).toContainText('a PNG image, not an agent record');
    await expect(inspector.detail.getByText(/^Findings \(/)).toHaveCount(0);
    await expect(inspector.detail.getByRole('heading', { name: 'Signature' })).toHaveCount(0);
    await expect(inspector.detail.getByRole('heading', { name: 'Fields' })).toHaveCount(0);
    await expect(inspector.hex).toContainText('PNG');
    await expect(page.getByText('CBOR reads')).toHaveCount(0);
  });

  test('an empty file says so, beside a record that reads', async ({ inspector, page }) => {
    await inspector.open();
    const empty = test.info().outputPath('empty.cbor');
    writeFileSync(empty, Buffer.alloc(0));
    await inspector.dropFiles([empty, vector('agdx/laser-wire-0.0.1/agent_event.bin')]);
    await expect(page.getByRole('status').filter({ hasText: 'Loaded' })).toHaveText('Loaded 1 record from 2 inputs (1 unreadable).');
    await expect(page.getByTestId('shown')).toHaveText('1 record');
    await expect(inspector.input('empty.cbor').getByTestId('input-error')).toContainText('an empty file');
    await expect(inspector.records('agent_event.bin').getByLabel('Valid: yes')).toBeVisible();
  });

  test('a first visit says the records are samples, with Open files and Clear at hand; once', async ({ inspector, page }) => {
    const indexFetches: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/samples/index.json')) indexFetches.push(r.url());
    });
    await inspector.open('');
    const note = page.getByRole('region', { name: 'About these records' });
    await expect(note).toContainText('These 16 records are samples');
    // The samples' index was fetched once: the Samples menu and the load (both asking as the page
    // starts) share it.
    expect(indexFetches).toHaveLength(1);
    await expect(note.getByRole('button', { name: 'Open files…' })).toBeVisible();
    await expect(note.getByRole('button', { name: 'Clear samples' })).toBeVisible();
    await note.getByRole('button', { name: 'Dismiss this note' }).click();
    await expect(note).toHaveCount(0);
    // Focus goes to the page's first control, not lost.
    await expect(page.getByRole('button', { name: 'Open files' })).toBeFocused();

    // A later visit loads nothing by itself and says nothing.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Envelope Inspector' })).toBeVisible();
    await expect(page.getByText('Drop AGDX records anywhere on this page.')).toBeVisible();
    await expect(note).toHaveCount(0);
  });

  test("the note's Clear clears the samples, and its Open files reads the files chosen", async ({ inspector, page }) => {
    await inspector.open('');
    const note = page.getByRole('region', { name: 'About these records' });
    await note.getByRole('button', { name: 'Clear samples' }).click();
    await expect(note).toHaveCount(0);
    await expect(page.getByText('Drop AGDX records anywhere on this page.')).toBeVisible();

    await page.evaluate(() => localStorage.removeItem('envelope-inspector.visited'));
    await page.reload();
    await expect(note).toContainText('These 16 records are samples');
    await note.getByLabel('Choose record files instead of the samples').setInputFiles(vector('agdx/laser-wire-0.0.1/agent_event.bin'));
    await expect(page.getByRole('status').filter({ hasText: 'Loaded' })).toHaveText('Loaded 1 record from 1 input.');
    await expect(await inspector.revealRecord('agent_event.bin', 0)).toBeVisible();
    await expect(note).toHaveCount(0);
  });
});
