// The red team in the browser (issue 14 item 10): links crafted at test time, as an attacker would
// make them (e2e/crafted.ts: the project's encoder, or by hand), opened in a fresh browser context.
// Whatever a link holds, no verdict is one the opener's registry does not back, and the "Shared
// view" banner says what the link preset.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { encodePermalink, type ShareState } from '../src/core/share/permalink';
import {
  BIDI_NAME,
  bindingKeyFile,
  borrowedQuarantine,
  chainWorkflow,
  didKeyFile,
  forgedEnvelope,
  freshAgent,
  freshWorkflow,
  handLink,
  hostileInputs,
  inflationBombLink,
  itemBomb,
  otherKeyFile,
  readVector,
  rewrapped,
  tamperedSignedCommand,
  view,
} from './crafted';
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

// ---------- issue 23: trust from signed facts, key files that fail closed, record strings escaped ----------

/** Writes crafted bytes to a file of this test's output, for dropping. */
function file(name: string, bytes: Uint8Array | string): string {
  const path = test.info().outputPath(name);
  writeFileSync(path, bytes);
  return path;
}

/** Pastes text into the Keys dialog and adds it (the dialog stays open). */
async function paste(page: Page, text: string, agent = '') {
  await page.getByLabel(/^Key \(hex/).fill(text);
  await page.getByLabel('Agent (for keys and DIDs that do not name one)').fill(agent);
  await page.getByRole('button', { name: 'Add key or DID' }).click();
}

test('a record rewrapped in an export whose log time says 2024 is not trusted under a key for 2024, and the page says why', async ({ inspector, page }) => {
  const r = rewrapped();
  await inspector.open();
  await inspector.addKeys(r.keyFile);
  await inspector.dropFiles([file('bare.cbor', r.record), file('rewrapped.json', r.export)]);
  for (const name of ['bare.cbor', 'rewrapped.json']) {
    const row = inspector.records(name);
    await expect(row.getByLabel('Signed: signature valid')).toHaveText("Signature valid, not trusted: after the key's window");
  }
  await inspector.records('rewrapped.json').click();
  const signature = page.getByTestId('signature');
  await expect(signature).toContainText("the record id's ULID time (2026-06-01T12:00:00.000Z) is after key");
  await expect(page.getByTestId('trust')).toHaveText('no');
  await expect(page.getByTestId('not-covered')).toContainText('log_time_micros');
  await expect(page.getByRole('table', { name: 'Findings' })).toContainText('agdx/log-time/skew');
});

test('key files fail closed: "revoked": "true" is refused with where it is, a JWK window holds, a stored entry that does not read is said', async ({
  inspector,
  page,
}) => {
  const r = rewrapped();
  const entry = JSON.parse(r.keyFile).keys[0];
  await inspector.open();
  await inspector.opener('Keys').click();
  await paste(page, JSON.stringify({ keys: [{ ...entry, not_before_micros: 0, not_after_micros: 0, revoked: 'true' }] }));
  await expect(page.getByRole('alert')).toContainText('key 0 (agent "planner"): member "revoked" must be true or false (a JSON boolean), found "true"');
  await expect(page.getByRole('table', { name: 'Registered keys' })).toContainText('Nothing registered');
  // A JWK with the window [1, 2] keeps it: nothing signed today is trusted under it.
  const x = Buffer.from(entry.public_key, 'hex').toString('base64url');
  await paste(page, JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x, agent: 'planner', not_before_micros: 1, not_after_micros: 2 }));
  await expect(page.getByLabel(/^Not after of key/)).toHaveValue('2');
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([file('bare.cbor', r.record)]);
  await expect(inspector.records('bare.cbor').getByLabel('Signed: signature valid')).toHaveText("Signature valid, not trusted: after the key's window");

  // The stored registry is read by the same parser: the entry that does not read is not used, and said; the rest is kept.
  const context = page.context();
  const other = await context.newPage();
  await other.addInitScript(
    (text) => localStorage.setItem('envelope-inspector.keys', text),
    JSON.stringify({
      keys: [
        { ...entry, not_before_micros: 0, not_after_micros: 0, revoked: 1 },
        { agent: 'w', did: 'did:example:w' },
      ],
    }),
  );
  await other.goto('/?samples=none');
  await expect(other.getByRole('button', { name: 'Keys (1)' })).toBeVisible();
  await other.getByRole('button', { name: 'Keys (1)' }).click();
  await expect(other.getByRole('alert', { name: 'Stored entries not used' })).toContainText(
    'Your stored registry (not used, and not saved again): key 0 (agent "planner"): member "revoked" must be true or false (a JSON boolean), found 1',
  );
  await other.close();
});

test('a key bound to a DID the registry holds with another key waits for Accept, listed as a conflict', async ({ inspector, page }) => {
  const alice = freshAgent('alice (e2e)');
  const mallory = freshAgent('mallory (e2e)');
  await inspector.open();
  await inspector.opener('Keys').click();
  await paste(page, didKeyFile(alice.did, 'alice'));
  await paste(page, bindingKeyFile(mallory, alice.did));
  const change = page.getByRole('region', { name: 'Changes to accept' }).getByRole('listitem');
  await expect(change).toContainText(
    `conflict: binds this key to DID ${alice.did.slice(0, 12)}…${alice.did.slice(-6)}, which your registry already holds as DID`,
  );
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('button', { name: 'Keys (1)' })).toBeVisible();
  // Mallory's envelope from Alice's DID: the binding is not used, so nothing binds its key to that DID.
  await inspector.dropFiles([file('forged.json', forgedEnvelope(mallory, alice.did))]);
  await expect(inspector.records('forged.json').getByLabel('Signed: signature invalid')).toBeVisible();
  await inspector.opener('Keys').click();
  await change.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('button', { name: 'Keys (2)' })).toBeVisible();
  await expect(inspector.records('forged.json').getByLabel('Signed: signature valid')).toHaveText('Signature valid, trusted');
});

test('a trusted tip over a parent signed by a DID in no registry is not trusted, and says which parent', async ({ inspector, page }) => {
  const worker = freshAgent('worker (e2e)');
  await inspector.open();
  await inspector.addKeys(didKeyFile(worker.did, 'worker'));
  await inspector.dropFiles([file('chain.json', chainWorkflow(worker, freshAgent('stranger (e2e)')))]);
  const row = inspector.records('chain.json');
  await expect(row.getByLabel('Signed: signature valid')).toHaveText('Signature valid, not trusted: 1 of 1 parents not trusted');
  await row.click();
  await expect(page.getByTestId('signature')).toContainText(
    'not trusted: tip trusted (worker); 1 of 1 parent signed by a DID not in your registry (envelope.parent_envelope[0])',
  );
});

test('a quarantine under an operator key of another agent is "by ops, claimed as planner", not backed', async ({ inspector, page }) => {
  const q = borrowedQuarantine();
  await inspector.open();
  // Added as an operator's key (the Keys dialog's Kind holds for what it adds).
  await inspector.opener('Keys').click();
  await page.getByRole('combobox', { name: /^Kind( agent)?$/ }).selectOption('operator');
  await paste(page, q.keyFile);
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([file('q.cbor', q.record)]);
  await expect(inspector.records('q.cbor').getByLabel('Signed: signature valid')).toHaveText('Signature valid, not trusted: key of ops');
  await page.getByRole('tab', { name: 'Agents' }).click();
  const booker = page.getByRole('table', { name: 'Agents' }).getByRole('row', { name: 'Agent booker' });
  await expect(booker.locator('td').nth(4)).toHaveAttribute(
    'title',
    /^Quarantine of "booker" by "ops", claimed as "planner": signed, but not by a key trusted as an operator's/,
  );
  await expect(booker.locator('td').nth(4)).toContainText('quarantine (non-operator-signed)');
});

test('no debug switch in a production build: ?watchdog=1 and ?slowload set nothing, a load goes on as ever', async ({ inspector, page }) => {
  await inspector.open('?samples=none&watchdog=1&slowload=5000');
  await inspector.dropFiles([vector('agdx/made/conversation.cborseq'), vector('agdx/made/signed_command.bin')]);
  await expect(inspector.input('conversation.cborseq')).toContainText('7 records');
  await expect(inspector.records('signed_command.bin')).toHaveCount(1);
  await expect(page.getByRole('alert').filter({ hasText: 'stopped and restarted' })).toHaveCount(0);
});

/** Every control and bidi character a record may hold (the list of src/core/unsafe-chars.ts), tab and line feed aside. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** The page's text and every attribute value (titles, aria-labels, values), where any raw control or bidi character is. */
async function rawIn(page: Page): Promise<string[]> {
  return page.evaluate((source) => {
    const raw = new RegExp(source);
    const found: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      for (const a of Array.from(el.attributes))
        if (raw.test(a.value)) found.push(`${el.tagName.toLowerCase()}[${a.name}]: ${JSON.stringify(a.value.slice(0, 80))}`);
      for (const n of Array.from(el.childNodes))
        if (n.nodeType === Node.TEXT_NODE && raw.test(n.textContent ?? ''))
          found.push(`${el.tagName.toLowerCase()} text: ${JSON.stringify((n.textContent ?? '').slice(0, 80))}`);
    }
    return found;
  }, RAW.source);
}

test('a record made of control and bidi characters: no panel, graph label, title, aria-label, Markdown or SVG shows one raw', async ({ inspector, page }) => {
  const h = hostileInputs();
  await inspector.open();
  await inspector.addKeys(h.keyFile);
  await inspector.dropFiles([file('hostile.json', h.export), file('hostile.cbor', h.record), file('hostile-workflow.json', h.workflow)]);
  await expect(inspector.records('hostile-workflow.json')).toHaveCount(1);
  expect(await rawIn(page)).toEqual([]);
  // Each record's detail: fields (tree labels and values, their titles), findings (the unknown field's), the signature panel
  // (reason and Signer), the header table, the body, the workflow and its envelope detail.
  for (const name of ['hostile.json', 'hostile.cbor', 'hostile-workflow.json']) {
    await inspector.records(name).click();
    await expect(page.getByRole('article', { name: 'Record detail' })).toBeVisible();
    await page.getByRole('tree', { name: 'Fields' }).getByRole('treeitem').first().focus();
    for (const expand of await page
      .getByRole('tree', { name: 'Fields' })
      .getByRole('button', { name: /^Expand / })
      .all())
      await expand.click();
    expect(await rawIn(page), name).toEqual([]);
  }
  await expect(page.getByTestId('signature')).toBeVisible();
  await inspector.records('hostile.json').click();
  await expect(page.getByTestId('signature')).toContainText('not for the record\'s source "⟨U+202E⟩rennalp');
  await expect(page.getByRole('table', { name: 'Headers' })).toContainText('⟨U+202E⟩rennalp');
  // The graph (labels, titles, aria-labels) and its SVG export.
  await inspector.openGraph();
  expect(await rawIn(page), 'graph').toEqual([]);
  const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export SVG' }).click()]);
  const svgText = readFileSync((await svg.path())!, 'utf8');
  expect(svgText).toContain('⟨U+202E⟩rennalp');
  expect(svgText).not.toMatch(RAW);
  // The timeline, the Agents tab (a source of U+202E "rennalp" is no second "planner" row) and Runs.
  for (const tab of ['Timeline', 'Agents', 'Runs']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tabpanel', { name: tab })).toBeVisible();
    expect(await rawIn(page), tab).toEqual([]);
  }
  await page.getByRole('tab', { name: 'Agents' }).click();
  await expect(
    page
      .getByRole('table', { name: 'Agents' })
      .getByRole('row', { name: /^Agent ⟨U\+202E⟩rennalp/ })
      .first(),
  ).toBeVisible();
  // The Markdown summary.
  await inspector.opener('Share').click();
  const [md] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export summary (Markdown)' }).click()]);
  const markdown = readFileSync((await md.path())!, 'utf8');
  expect(markdown).toContain('⟨U+202E⟩rennalp');
  expect(markdown.replaceAll('\n', '')).not.toMatch(RAW);
  expect(await rawIn(page), 'share').toEqual([]);
});

test('the Shared-view banner names a preset graph viewport; one aimed at empty space is fitted to the graph, and says so', async ({ browser }) => {
  const link = await encodePermalink(
    state([['signed_command.bin', readVector('agdx/made/signed_command.bin')]], {
      view: view({ tab: 'graph', viewport: { x: -100000, y: -100000, zoom: 1 } }) as ShareState['view'],
    }),
  );
  const { context, page, banner } = await openFresh(browser, link);
  await expect(banner.getByTestId('preset-viewport')).toContainText('the Graph tab opens at x -100000, y -100000, zoom 1, as the sender left it');
  await expect(page.getByTestId('viewport-fitted')).toHaveText('The viewport this view opened with showed no node: fitted to the graph instead.');
  await expect(page.locator('.react-flow__node').first()).toBeInViewport();
  await context.close();
});
