// Issue 17 item 6: axe-core over every tab and every dialog with the samples loaded, in the light and
// the dark colour scheme (each state checked in both): no serious or critical violation. axe runs
// through @axe-core/playwright, which evaluates its source over the DevTools protocol: the page's
// Content-Security-Policy (no inline script, no eval) stays on and does not stop it (the first
// check below proves the CSP is on).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { encodePermalink } from '../src/core/share/permalink';
import { bindingKeyFile, didKeyFile, freshAgent } from './crafted';
import { expect, type InspectorPage, test, vector } from './fixtures';

/** axe's rules whose verdict depends on the colours drawn (the rest read the elements alone). */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** axe over the whole page, in one run in the page; `rules` narrows it to those. */
async function axe(page: Page, rules?: string[]) {
  // Legacy mode: the default runs each frame on its own, then opens a blank page to put the results
  // together, which took 2.6–4.7 s a check here against 1.2–2.5 s with the same violations and
  // passes on every tab (the app has one frame).
  const builder = new AxeBuilder({ page }).setLegacyMode(true);
  if (rules) builder.withRules(rules);
  return builder.analyze();
}

/**
 * Runs axe over the page as it is, in the light colour scheme and in the dark; fails with each
 * serious or critical violation and where it is. The page's elements, names and roles are the same
 * in both schemes, only its colours change: so the light scheme runs every rule, and the dark one
 * (switched to in place, as a person's system setting does) the rules that read colours.
 */
async function expectAccessible(page: Page, where: string) {
  const light = await axe(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), 'the dark scheme is on').toBe(true);
    const dark = await axe(page, COLOUR_RULES);
    // The colour rules ran (passed, failed or undecided): a check that ran nothing would pass.
    const ran = [...dark.passes, ...dark.violations, ...dark.incomplete].map((r) => r.id);
    expect(ran, `axe's colour check on ${where} (dark)`).toContain('color-contrast');
    const bad = [...light.violations.map((v) => ({ v, scheme: 'light' })), ...dark.violations.map((v) => ({ v, scheme: 'dark' }))]
      .filter(({ v }) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap(({ v, scheme }) =>
        v.nodes.map((n) => `${scheme}: ${v.impact} ${v.id}: ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
      );
    expect(bad, `axe on ${where}`).toEqual([]);
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

/** A record with findings (an invalid command) selected, and its first finding chosen (the highlighted row, field and bytes). */
async function selectInvalidRecord(inspector: InspectorPage) {
  await inspector.records('conversation.cborseq').nth(5).click();
  const first = inspector.findings.locator('tbody tr').first();
  await first.locator('td').nth(2).getByRole('button').click();
  await expect(first).toHaveAttribute('aria-current', 'true');
}

/** Waits for a tab's panel to have drawn what it asks the worker for. */
async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText(/^(Loading the .* view…|Building the graph…|Folding the log…)$/)).toHaveCount(0);
  if (name === 'Graph') await expect(page.getByTestId('graph-counts')).toBeVisible();
}

test.describe('light and dark colour schemes', () => {
  test.use({ colorScheme: 'light' });

  test('every tab, with a record with findings and a record that did not decode', async ({ inspector, page }) => {
    test.setTimeout(120_000);
    const response = await page.goto('/?samples=none');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await inspector.openWithSamples();
    await selectInvalidRecord(inspector);
    // Every tab of the registry (src/ui/tabs.tsx) is in the tab bar.
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(expect.arrayContaining(['Record', 'Graph', 'Agents', 'Runs']));
    for (const name of tabs) {
      await openTab(page, name);
      await expectAccessible(page, `the ${name} tab`);
    }
    await openTab(page, 'Record');
    await inspector.records('conversation.cborseq').nth(6).click();
    await expect(inspector.detail.getByRole('alert')).toContainText('cbor/truncated');
    await expectAccessible(page, 'a record that did not decode');
    await page.getByLabel('Rule id', { exact: true }).fill('agdx/matrix/operation');
    await expect(page.getByTestId('shown')).toContainText('of');
    await expectAccessible(page, 'the list under a rule filter');
  });

  test('the Sessions tab over the sample conversation tree of the laser-sdk 0.7 dialect, a session chosen, a readable body', async ({ inspector, page }) => {
    test.setTimeout(120_000);
    await inspector.open();
    await inspector.dropFiles([vector('agdx/sessions/sessions_tree_http_v07.json')]);
    await expect(inspector.input('sessions_tree_http_v07.json')).toContainText('24 records');
    await openTab(page, 'Sessions');
    await expect(page.locator('[data-session]')).toHaveCount(2);
    await expectAccessible(page, 'the Sessions tab');
    await page.getByRole('button', { name: 'Book flights' }).click();
    await expect(page.getByTestId('shown')).toContainText('16 of 24');
    await expectAccessible(page, 'the Sessions tab with a session chosen');
    // A record's readable body (issue 25 item 4): a StateDelta, its operations and the state after it.
    await openTab(page, 'Record');
    await (await inspector.revealRecord('sessions_tree_http_v07.json', 18)).click();
    await expect(inspector.detail.getByRole('tree', { name: 'State after this delta' })).toBeVisible();
    await expectAccessible(page, "a StateDelta's readable body");
  });

  test("issue 18's parts: the first visit's note, the not-trusted badge, the split, an unreadable input", async ({ inspector, page }) => {
    test.setTimeout(120_000);
    await inspector.openWithSamples();
    await expect(page.getByRole('region', { name: 'About these records' })).toBeVisible();
    await expectAccessible(page, "the first visit's note");
    await page.getByRole('button', { name: 'Clear', exact: true }).click();

    await inspector.addKeys(readFileSync(vector('agdx/made/keys.json'), 'utf8'));
    await inspector.dropFiles([vector('agdx/made/signed_command.bin'), vector('agdx/made/signed_by_other_agent.bin'), vector('files/pixel.png')]);
    const untrusted = inspector.signatureBadge(inspector.records('signed_by_other_agent.bin'));
    await expect(untrusted).toHaveAttribute('aria-label', 'Signed: signature valid, not trusted: key of other-agent');
    await expect(inspector.input('pixel.png').getByTestId('input-error')).toContainText('a PNG image');
    await inspector.records('signed_by_other_agent.bin').click();
    await expect(inspector.signatureBadge(inspector.detail)).toHaveAttribute('data-tone', 'untrusted');
    await expect(inspector.split).toHaveCount(0);
    await expectAccessible(page, 'the not-trusted badge in the list and the detail');

    await inspector.openGraph();
    await expect(inspector.split).toBeVisible();
    await expect(inspector.graph.getByTestId('node-signature').filter({ hasText: 'not trusted' })).toHaveAttribute('data-tone', 'untrusted');
    await expectAccessible(page, 'the graph with a not-trusted node, and the split');

    await page.getByRole('tab', { name: 'Record' }).click();
    await (await inspector.revealRecord('pixel.png', 0)).click();
    await expect(inspector.detail.getByRole('heading', { level: 2 })).toHaveText('Not a record');
    await expectAccessible(page, 'an unreadable input: its header, its row and its detail');
  });

  test("issue 18's finding and links: the rule list, an emptied list, a warning mark, related records, a stream unfolded", async ({ inspector, page }) => {
    test.setTimeout(120_000);
    await inspector.openWithSamples();
    await page.getByRole('button', { name: /^Rules/ }).click();
    await expect(page.getByRole('list', { name: 'Rule ids in what is loaded' })).toBeVisible();
    await page.getByLabel('Rule id', { exact: true }).fill('agdx/matrix');
    await expect(page.getByTestId('rule-match')).toContainText('agdx/matrix/operation');
    await expectAccessible(page, 'the rule ids present and what the words matched');
    await page.getByLabel('Rule id', { exact: true }).fill('must');
    await expect(page.getByTestId('no-match')).toBeVisible();
    await expectAccessible(page, 'a list the filter emptied');
    await page.getByRole('button', { name: 'Clear the filter' }).click();
    await (await inspector.revealRecord('conversation.cborseq', 4)).click();
    await expect(inspector.detail.getByLabel('Related records').locator('[data-ghost]')).toBeVisible();
    await expectAccessible(page, 'a record with links to the records it names');

    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await inspector.dropFiles([vector('agdx/made/conversation_http_v07.json')]);
    await expect(inspector.input('conversation_http_v07.json')).toContainText('10 records');
    await expect((await inspector.revealRecord('conversation_http_v07.json', 9)).getByTestId('warnings-badge')).toBeVisible();
    await expectAccessible(page, 'a row with a warning');
    await inspector.openGraph();
    await inspector.graph.locator('[data-node-kind="stream"]').getByRole('button', { name: 'unfold' }).click();
    await expect(inspector.graph.getByTestId('stream-detail')).toBeVisible();
    await expectAccessible(page, 'a stream unfolded, its first chunk with its diagnostics');
  });

  test('the Compare-with picker and the Comparison region: two records, two workflows, two inputs', async ({ inspector, page }) => {
    test.setTimeout(120_000);
    await inspector.open();
    await inspector.dropFiles([
      vector('agdx/made/conversation.cborseq'),
      vector('agdx/made/signed_command.bin'),
      vector('agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json'),
      vector('agentdna/synthetic/synthetic_tampered_intermediate_payload_only.serialized.json'),
    ]);
    const region = page.getByRole('region', { name: 'Comparison' });
    const pick = async (a: string, search: string) => {
      await page.getByRole('tab', { name: 'Record' }).click();
      await inspector.records(a).first().click();
      await inspector.detail.getByRole('button', { name: 'Compare with…' }).click();
      await inspector.dialog.getByRole('combobox').fill(search);
      await expect(inspector.dialog.getByRole('option')).toHaveCount(1);
      await expectAccessible(page, 'the Compare-with picker');
      await page.keyboard.press('Enter');
      await expect(inspector.dialog).toBeHidden();
    };
    await pick('conversation.cborseq', 'signed_command');
    await expect(region.getByTestId('signature-meaning')).toBeVisible();
    await region.getByLabel('Show unchanged fields').check();
    await expectAccessible(page, 'two records compared');
    await region.getByRole('button', { name: 'Their inputs' }).click();
    await region.getByLabel('Show unchanged records').check();
    await expect(region.getByRole('table', { name: 'Records side by side' })).toBeVisible();
    await expectAccessible(page, 'two inputs compared');
    await pick('synthetic_valid_fanin_dag.serialized.json', 'tampered_intermediate');
    await expect(region.getByTestId('workflow-counts')).toBeVisible();
    await expectAccessible(page, 'two workflows compared');
    await region.getByRole('button', { name: 'Stop comparing' }).click();
    await expect(region.getByRole('button', { name: 'Compare these inputs' })).toBeVisible();
    await expectAccessible(page, 'nothing compared');
  });

  test("issue 26's parts: the verdict headline, the keys table with entries and an un-revoke question, the Trust dialog", async ({ inspector, page }) => {
    test.setTimeout(120_000);
    await inspector.open();
    const keys = JSON.parse(readFileSync(vector('agdx/made/keys.json'), 'utf8'));
    keys.keys[1].revoked = true;
    await inspector.addKeys(JSON.stringify(keys));
    await inspector.dropFiles([vector('agdx/made/signed_by_other_agent.bin'), vector('agentdna/synthetic/synthetic_tampered_tip_payload.serialized.json')]);
    await inspector.records('synthetic_tampered_tip_payload.serialized.json').click();
    await expect(inspector.detail.getByTestId('headline')).toHaveText('Signature invalid');
    await expectAccessible(page, 'a tampered workflow: its headline and envelope tags');
    await inspector.records('signed_by_other_agent.bin').click();
    await page.getByRole('button', { name: 'Trust this signer…' }).click();
    await expect(page.getByRole('dialog', { name: 'Trust this signer' })).toBeVisible();
    await expectAccessible(page, 'the Trust dialog');
    await page.keyboard.press('Escape');
    await inspector.opener('Keys').click();
    await page.getByLabel('Key dbc298251c51321b revoked').click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectAccessible(page, 'the keys table, asking to un-revoke');
  });

  test("issue 23's parts: a stored entry not used and a conflict to accept in Keys, the banner's viewport, the graph fitted instead", async ({
    inspector,
    page,
  }) => {
    test.setTimeout(120_000);
    const alice = freshAgent('alice (a11y)');
    await page.addInitScript(
      (text) => localStorage.setItem('envelope-inspector.keys', text),
      JSON.stringify({ keys: [{ agent: 'x', did: 'did:example:x', revoked: 'yes' }] }),
    );
    await inspector.open();
    await inspector.opener('Keys').click();
    await expect(page.getByRole('alert', { name: 'Stored entries not used' })).toBeVisible();
    for (const text of [
      didKeyFile(alice.did, 'alice'),
      bindingKeyFile(freshAgent('mallory (a11y)'), alice.did),
      '{"keys":[{"agent":"p","did":"did:example:p","revoked":1}]}',
    ]) {
      await page.getByLabel(/^Key \(hex/).fill(text);
      await page.getByRole('button', { name: 'Add key or DID' }).click();
    }
    await expect(page.getByRole('region', { name: 'Changes to accept' })).toContainText('conflict');
    await expect(page.getByRole('alert').filter({ hasText: 'member "revoked" must be true or false' }).first()).toBeVisible();
    await expectAccessible(page, 'the Keys dialog with a stored entry not used and a conflict');
    await page.keyboard.press('Escape');
    const link = await encodePermalink({
      inputs: [{ name: 'signed_command.bin', bytes: new Uint8Array(readFileSync(vector('agdx/made/signed_command.bin'))) }],
      redacted: false,
      view: { selected: null, tab: 'graph', viewport: { x: -100000, y: -100000, zoom: 1 }, filters: {} },
    });
    await page.goto(`/#${link}`);
    await expect(page.getByTestId('preset-viewport')).toBeVisible();
    await expect(page.getByTestId('viewport-fitted')).toBeVisible();
    await expectAccessible(page, 'the banner with a preset viewport, the graph fitted instead');
  });

  test('every dialog: Keys, Share, Paste, the Samples menu and an explanation', async ({ inspector, page }) => {
    test.setTimeout(120_000);
    await inspector.openWithSamples();
    await selectInvalidRecord(inspector);
    for (const name of ['Keys', 'Share', 'Paste'] as const) {
      await inspector.opener(name).click();
      await expect(inspector.dialog).toBeVisible();
      if (name === 'Share') await expect(page.getByTestId('link-size')).toContainText('characters');
      await expectAccessible(page, `the ${name} dialog`);
      await page.keyboard.press('Escape');
      await expect(inspector.dialog).toBeHidden();
    }
    await inspector.samplesButton.click();
    await expect(inspector.samplesMenu).toBeVisible();
    await expectAccessible(page, 'the Samples menu');
    await page.keyboard.press('Escape');
    await inspector.findings.locator('[data-rule-ref]').first().click();
    await expect(inspector.dialog.getByTestId('explanation')).toBeVisible();
    await expectAccessible(page, 'an explanation');
    await page.keyboard.press('Escape');
    await page.getByLabel('Rule id', { exact: true }).fill('agdx/matrix/');
    await page.getByRole('button', { name: 'Explain agdx/matrix/' }).click();
    await expect(inspector.dialog.getByRole('list', { name: 'Rule ids' })).toBeVisible();
    await expectAccessible(page, 'the rule ids a prefix could mean');
  });
});

test('at 390 px: the record view, its findings as cards, and an explanation', async ({ inspector, page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 900 });
  await inspector.openWithSamples();
  await selectInvalidRecord(inspector);
  await expectAccessible(page, 'the record view at 390 px');
  await inspector.findings.locator('[data-rule-ref]').first().click();
  await expect(inspector.dialog.getByTestId('explanation')).toBeVisible();
  await expectAccessible(page, 'an explanation at 390 px');
  await page.keyboard.press('Escape');
  await inspector.records('conversation.cborseq').first().click();
  await inspector.detail.getByRole('button', { name: 'Compare with…' }).click();
  await inspector.dialog.getByRole('combobox').fill('#5');
  await expect(inspector.dialog.getByRole('option')).toHaveCount(1);
  await expectAccessible(page, 'the Compare-with picker at 390 px');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Comparison' }).getByTestId('signature-meaning')).toBeVisible();
  await expectAccessible(page, 'two records compared at 390 px');
});
