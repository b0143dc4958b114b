// Issue 25 item 4: the 0.7 bodies people can read, in the record detail, at 1440 and 390 wide: a
// StateDelta's operations and the state after it (from the conversation's last snapshot), a
// snapshot's document as a tree, a session body's labelled values, a context manifest's fragments
// with their token counts, each pointer a link that selects the record it points at (or says the
// record is not in this load); a delta that does not apply says why. Over the sample conversation
// tree (from the Samples menu), the laser-sdk 0.7 vectors, and a log made here.
import { writeFileSync } from 'node:fs';
import type { Envelope } from '../src/core/agdx/envelope';
import { cborBody, iggyExport, sessionId } from '../test/support/session-writer';
import type { CborValue } from '../src/core/cbor/encoder';
import { atEachWidth, expect, type InspectorPage, test, vector } from './fixtures';

const SAMPLE = 'sessions_tree_http_v07.json';

/** The sample conversation tree, loaded from the Samples menu. */
async function openSample(inspector: InspectorPage) {
  await inspector.open();
  await inspector.samplesButton.click();
  await inspector.samplesMenu.getByRole('button', { name: 'Sessions: a laser-sdk 0.7 conversation tree' }).click();
  await expect(inspector.input(SAMPLE)).toContainText('24 records');
}

/** Selects a record of an input by its index, and waits for its detail. */
async function select(inspector: InspectorPage, input: string, index: number) {
  await (await inspector.revealRecord(input, index)).click();
  // The detail's header line: "input · record #N · partition …".
  await expect(inspector.detail.getByTestId('detail-input').locator('..')).toHaveText(new RegExp(`· record #${index}( ·|$)`));
}

/** The readable body of the record shown, by the body's name. */
const readable = (inspector: InspectorPage, name: string) => inspector.detail.getByRole('region', { name: new RegExp(`^Readable ${name}`) });

/** A labelled value of the readable body: the definition after its term. */
const value = (region: ReturnType<typeof readable>, label: string) =>
  region.getByLabel('Body fields').locator(`xpath=./dt[normalize-space(.)="${label}"]/following-sibling::dd[1]`);

atEachWidth(({ width }) => {
  test(`a StateDelta lists its operations and shows the state after it, from the snapshot it links to (${width})`, async ({ inspector, page }) => {
    await openSample(inspector);
    await select(inspector, SAMPLE, 18);
    const delta = readable(inspector, 'StateDelta');
    await expect(delta).toBeVisible();
    await expect(value(delta, 'Operation id')).toHaveText('booker-1');
    await expect(delta.getByRole('list', { name: 'Patch operations' }).getByRole('listitem')).toHaveText([
      'replace /step value "book"',
      'add /flights/- value "TP1351"',
    ]);
    const state = delta.getByRole('tree', { name: 'State after this delta' });
    await expect(state.getByRole('treeitem')).toHaveText([/^▾state \(revision 2\)\{2 members\}/, /^step"book"/, /^▾flights\[1 item\]/, /^\[0\]"TP1351"/]);

    // The snapshot it started from is a link: by keyboard, to the snapshot and its document as a tree.
    const snapshotLink = delta.getByTestId('state-after').getByRole('button', { name: /record #8$/ });
    await snapshotLink.focus();
    await page.keyboard.press('Enter');
    const snapshot = readable(inspector, 'StateSnapshot');
    await expect(snapshot).toBeVisible();
    await expect(value(snapshot, 'Revision')).toHaveText('1');
    await expect(snapshot.getByRole('tree', { name: 'Snapshot document' }).getByRole('treeitem')).toHaveText([
      /^▾document\{2 members\}/,
      /^step"search"/,
      /^flights\[0 items\]/,
    ]);
  });

  test(`session bodies as labelled values; a parked record links to the record it holds (${width})`, async ({ inspector }) => {
    await openSample(inspector);
    await select(inspector, SAMPLE, 6);
    const start = readable(inspector, 'SessionStart');
    await expect(start.getByText('SessionStart (submitted)')).toBeVisible();
    await expect(value(start, 'Label')).toHaveText('Book flights');
    await expect(value(start, 'Agent')).toHaveText('booker');
    await expect(value(start, 'SDK')).toHaveText('typescript 0.7.0');
    await expect(value(start, 'Budget: tokens')).toHaveText('5000');

    await select(inspector, SAMPLE, 11);
    await expect(value(readable(inspector, 'SessionTransition'), 'Actor')).toHaveText('booker');

    await select(inspector, SAMPLE, 21);
    await expect(value(readable(inspector, 'SessionEnd'), 'Reason')).toHaveText('booked');

    await select(inspector, SAMPLE, 13);
    const parking = readable(inspector, 'SessionParking');
    await expect(value(parking, 'Role')).toHaveText('booker');
    await value(parking, 'Parked record')
      .getByRole('button', { name: /record #12$/ })
      .click();
    await expect(inspector.detail.getByRole('heading', { level: 2 })).toContainText('command');
    await expect(inspector.detail.getByTestId('detail-input').locator('..')).toContainText('record #12 ·');
  });

  test(`a ContextManifest's fragments with their token counts, each linked to the record it points at (${width})`, async ({ inspector }) => {
    await openSample(inspector);
    await select(inspector, SAMPLE, 4);
    const manifest = readable(inspector, 'ContextManifest');
    await expect(value(manifest, 'Tokens')).toHaveText('21');
    const fragments = manifest.getByRole('list', { name: 'Fragments' }).getByRole('listitem');
    await expect(fragments).toHaveCount(2);
    await expect(fragments.nth(0)).toContainText('12 tokens · 48 bytes');
    await expect(fragments.nth(1)).toContainText('9 tokens · 36 bytes');
    await fragments
      .nth(1)
      .getByRole('button', { name: /record #3$/ })
      .click();
    await expect(inspector.detail.getByRole('heading', { level: 2 })).toContainText('response');
    await expect(inspector.detail.getByTestId('detail-input').locator('..')).toContainText('record #3 ·');
  });

  test(`over the 0.7 vectors: pointers outside the load say so, a delta without a snapshot before it says so (${width})`, async ({ inspector }) => {
    await inspector.open();
    await inspector.dropFiles([vector('agdx/laser-sdk-ts-0.7.0/iggy_export.json')]);
    await expect(inspector.input('iggy_export.json')).toContainText('35 records');
    await select(inspector, 'iggy_export.json', 17);
    const delta = readable(inspector, 'StateDelta');
    await expect(delta.getByRole('list', { name: 'Patch operations' }).getByRole('listitem')).toHaveText(['add /step value 2']);
    await expect(delta.getByTestId('state-after')).toHaveText(
      'No state to show after this delta: no StateSnapshot of this conversation comes before this delta in the log.',
    );
    await select(inspector, 'iggy_export.json', 19);
    const fragments = readable(inspector, 'ContextManifest').getByRole('list', { name: 'Fragments' }).getByRole('listitem');
    await expect(fragments.nth(0)).toContainText('not in this load');
    await expect(fragments.nth(1)).toContainText('memory 01KWM3K3XEP3NP5TN850J17YBP, version 2');
    await select(inspector, 'iggy_export.json', 10);
    const end = readable(inspector, 'SessionEnd');
    await expect(value(end, 'Error')).toHaveText('tool_failure');
    await expect(value(end, 'Error message')).toHaveText('search timed out');
  });
});

test('a delta that does not apply to the state says which operation failed and why', async ({ inspector }, testInfo) => {
  const conversation = sessionId(0xd1, 1764633600000);
  const lineage = { parent: sessionId(0xd0, 1764633600000), root: sessionId(0xd0, 1764633600000) };
  const event = (n: number, operation: string, body: CborValue) => ({
    at: n * 1000,
    env: {
      kind: 'event',
      record: sessionId(0xe0 + n, 1764633600000 + n),
      conversation,
      ...lineage,
      source: 'booker',
      operation,
      body: cborBody(body),
    } as Envelope,
  });
  const path = testInfo.outputPath('bad_delta_http_v07.json');
  writeFileSync(
    path,
    iggyExport(
      [
        event(1, 'state_snapshot', { base_revision: 1n, document: { step: 'search' } }),
        event(2, 'state_delta', { base_revision: 1n, patch: [{ op: 'remove', path: '/flights/0' }], op_id: 'bad' }),
      ],
      { start: 1764633600000000 },
    ),
  );
  await inspector.open();
  await inspector.dropFiles([path]);
  await expect(inspector.input('bad_delta_http_v07.json')).toContainText('2 records');
  await select(inspector, 'bad_delta_http_v07.json', 1);
  const delta = readable(inspector, 'StateDelta');
  await expect(delta.getByTestId('state-failed')).toHaveText(
    'Could not apply this delta: operation 1 (remove /flights/0) failed: /flights/0: no member "flights"',
  );
  await expect(delta.getByRole('tree')).toHaveCount(0);
});
