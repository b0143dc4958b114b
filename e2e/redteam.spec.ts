// The red team in the browser (issue 14 item 10): links crafted at test time, as an attacker would
// make them (e2e/crafted.ts: the project's encoder, or by hand), opened in a fresh browser context.
// Whatever a link holds, no verdict is one the opener's registry does not back, and the "Shared
// view" banner says what the link preset.
import type { Browser } from '@playwright/test';
import { encodePermalink, type ShareState } from '../src/core/share/permalink';
import { BIDI_NAME, freshAgent, freshWorkflow, handLink, inflationBombLink, itemBomb, otherKeyFile, readVector, tamperedSignedCommand, view } from './crafted';
import { expect, InspectorPage, test, vector } from './fixtures';

const agent = freshAgent('e2e suite');
const workflow = freshWorkflow(agent);
const tamperedWorkflow = freshWorkflow(agent, { tamperTip: true });

const state = (inputs: [string, Uint8Array][], patch: Partial<ShareState> = {}): ShareState => ({
  inputs: inputs.map(([name, bytes]) => ({ name, bytes })),
  redacted: false,
  view: view() as ShareState['view'],
  ...patch,
});

/**
 * Opens `fragment` in a fresh browser context (its own storage: an empty registry), after adding
 * `keyFile` to that registry through the Keys dialog when one is given.
 */
async function openFresh(browser: Browser, fragment: string, keyFile?: string) {
  const context = await browser.newContext();
  const inspector = new InspectorPage(await context.newPage());
  if (keyFile) {
    await inspector.open();
    await inspector.page.getByRole('button', { name: /^Keys/ }).click();
    await inspector.page.getByLabel(/^Key \(hex/).fill(keyFile);
    await inspector.page.getByRole('button', { name: 'Add key' }).click();
    await inspector.page.getByRole('button', { name: 'Close' }).click();
  }
  await inspector.page.goto(`/#${fragment}`);
  return { context, inspector, page: inspector.page, banner: inspector.page.getByRole('region', { name: 'Shared view' }) };
}

for (const [registry, keyFile] of [
  ['an empty registry', undefined],
  ['a registry that trusts someone else', otherKeyFile()],
] as const) {
  test(`${registry}: a workflow signed by a fresh DID of its own opens as valid and bound, never trusted`, async ({ browser }) => {
    const { context, inspector, page, banner } = await openFresh(browser, await encodePermalink(state([['fresh.json', workflow]])), keyFile);
    const status = page.getByRole('status').filter({ hasText: /Opened a shared view/ });
    await expect(status).toContainText(
      keyFile ? /signatures are trusted only as your registry \(\d+ entries\) backs them/ : 'your registry is empty, so no signature is trusted',
    );
    await expect(status).not.toContainText(/checked against your keys/);
    const row = inspector.records('fresh.json');
    await expect(row.getByLabel('Signed: signature valid')).toHaveText('Signature valid, not trusted: DID not in your registry');
    await row.click();
    const signature = page.getByTestId('signature');
    await expect(signature).toContainText('signature valid · key bound to DID · DID not in your registry');
    await expect(page.getByTestId('trust')).toHaveText('no: DID not in your registry');
    await expect(banner.getByTestId('preset-keys')).toContainText('a link never carries keys');
    // Nowhere on the page is anything "trusted".
    await expect(page.getByText('Signature valid, trusted')).toHaveCount(0);
    await expect(page.getByText(/^trusted \(/)).toHaveCount(0);
    await context.close();
  });
}

test('a link whose filter hides the invalid records says so with the count, and Show all records reveals them', async ({ browser }) => {
  const inputs: [string, Uint8Array][] = [
    ['fresh.json', workflow],
    ['tampered-workflow.json', tamperedWorkflow],
    ['conversation.cborseq', readVector('agdx/made/conversation.cborseq')],
  ];
  // By hand, with filter members that are none of the list's.
  const link = handLink({
    v: 1,
    inputs: inputs.map(([name, bytes]) => ({ name, bytes })),
    redacted: false,
    view: view({ filters: { validity: 'valid', keys: agent.did }, tab: 'javascript:alert(1)' }),
  });
  const { context, inspector, page, banner } = await openFresh(browser, link);
  const shown = page.getByTestId('shown');
  await expect(shown).toHaveText(/^(\d+) of (\d+)$/);
  const [, visible, total] = /^(\d+) of (\d+)$/.exec((await shown.textContent())!)!.map(Number);
  expect(total - visible).toBeGreaterThanOrEqual(2);
  const filters = banner.getByTestId('preset-filters');
  await expect(filters).toContainText(`validity = valid: ${total - visible} of ${total} records hidden`);
  await expect(filters).toContainText('Ignored, not a filter here: keys');
  await expect(banner.getByTestId('preset-selection')).toContainText('Tab: Record (the link asked for “javascript:alert(1)”, which is no tab here)');
  await expect(inspector.records('tampered-workflow.json')).toHaveCount(0);

  await filters.getByRole('button', { name: 'Show all records' }).click();
  await expect(shown).toHaveText(`${total} records`);
  await expect(page.getByLabel('Validity')).toHaveValue('');
  await expect(inspector.records('tampered-workflow.json').getByLabel(/Valid: no/)).toBeVisible();
  await expect(filters).toContainText('validity = valid (no longer applied)');
  // Chosen again by hand, the same filter is the link's again, and its count comes back.
  await page.getByLabel('Validity').selectOption('valid');
  await expect(filters).toContainText(`validity = valid: ${total - visible} of ${total} records hidden`);
  await context.close();
});

test("a forged `redacted` flag: the banner gives the claim as the sender's word, and the invalid signature stays invalid", async ({ browser }) => {
  const link = await encodePermalink(
    state(
      [
        ['tampered-workflow.json', tamperedWorkflow],
        ['tampered-command.bin', tamperedSignedCommand()],
      ],
      { redacted: true },
    ),
  );
  const { context, inspector, page, banner } = await openFresh(browser, link, otherKeyFile());
  const redaction = banner.getByTestId('preset-redaction');
  await expect(redaction).toContainText('the sender says bodies were redacted: signatures over them cannot be re-checked.');
  await expect(redaction).toContainText('But 2 records of the link have bodies that are not blank: the claim does not hold for them');
  for (const name of ['tampered-workflow.json', 'tampered-command.bin']) {
    const row = inspector.records(name);
    await expect(row.getByLabel('Signed: signature invalid')).toBeVisible();
    await row.click();
    await expect(page.getByTestId('signature')).toHaveAttribute('data-status', 'invalid');
    await expect(page.getByTestId('signature')).toContainText(
      'the link says bodies were redacted, but this body is not blank: the claim does not hold for this record',
    );
    await expect(page.getByTestId('trust')).toHaveText('no: the signature does not hold');
  }
  await context.close();
});

test('a bidi-laden input name is shown escaped, never reordered', async ({ browser }) => {
  const { context, inspector, page } = await openFresh(browser, await encodePermalink(state([[BIDI_NAME, workflow]])));
  const escaped = 'invoice⟨U+202E⟩gpj.cbor';
  await expect(inspector.input(escaped)).toContainText(escaped);
  await inspector.records(BIDI_NAME).click();
  await expect(page.getByTestId('detail-input')).toHaveText(escaped);
  // No bidi control reaches the page's text: the status line, the list and the detail show the escape.
  expect(await page.evaluate(() => /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/.test(document.body.textContent ?? ''))).toBe(false);
  await context.close();
});

test('item bombs and a link past 8 MiB open to a clear error, and the app stays usable', async ({ browser }) => {
  // An input of one array past the item cap: its record says so, the others are judged.
  const bombInput = await encodePermalink(
    state([
      ['bomb.cbor', itemBomb()],
      ['fresh.json', workflow],
    ]),
  );
  const opened = await openFresh(browser, bombInput);
  await expect(opened.inspector.records('bomb.cbor').getByLabel('Decoded: no (cbor/too-many-items)')).toBeVisible();
  await expect(opened.inspector.input('bomb.cbor')).toContainText('cbor/too-many-items');
  await expect(opened.inspector.records('fresh.json').getByLabel('Signed: signature valid')).toHaveText(
    'Signature valid, not trusted: DID not in your registry',
  );
  await opened.context.close();

  // The link's own structure an item bomb; a link that would decompress past 8 MiB.
  const filters = Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`f${i}`, 'x']));
  const cases: [string, RegExp][] = [
    [handLink({ v: 1, inputs: [], redacted: false, view: view({ filters }) }), /damaged .*holds more than 65536 items/],
    [inflationBombLink(), /would decompress to more than 8 MiB, the most a link may hold here; it was not opened/],
  ];
  for (const [link, message] of cases) {
    const { context, inspector, page } = await openFresh(browser, link);
    await expect(page.getByRole('alert')).toContainText(message);
    await inspector.dropFiles([vector('agdx/made/signed_command.bin')]);
    await expect(inspector.records('signed_command.bin').getByLabel('Valid: yes')).toBeVisible();
    await context.close();
  }
});
