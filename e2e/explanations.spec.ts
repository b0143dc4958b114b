// Issue 17 item 4: every rule id and error code the page shows opens its explanation from the rule
// catalogue: the same fields `envelope-inspector explain` prints (ruleExplanation, src/core/explain.ts).
import { ruleExplanation } from '../src/core/explain';
import { expect, type InspectorPage, test, vector } from './fixtures';

/** The explanation dialog shows every field of the catalogue's entry for `id`. */
async function expectExplanation(inspector: InspectorPage, id: string) {
  const e = ruleExplanation(id)!;
  const dialog = inspector.dialog;
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(id);
  const body = dialog.getByTestId('explanation');
  await expect(body).toContainText(e.title);
  await expect(body).toContainText(e.kind);
  for (const heading of ['Why it matters', 'What the spec says', 'What usually fixes it', 'Example'])
    await expect(body.getByRole('heading', { name: heading, level: 3 })).toBeVisible();
  await expect(body).toContainText(e.why);
  for (const q of e.spec) {
    await expect(body.locator('figcaption', { hasText: `${q.doc}, “${q.section}”` }).first()).toBeVisible();
    for (const line of q.lines) await expect(body.locator('blockquote').getByText(line, { exact: true }).first()).toBeAttached();
  }
  await expect(body).toContainText(e.fix);
  await expect(body.locator('pre')).toHaveText(e.example.join('\n'));
}

test('a rule id in the Findings table opens its explanation: Enter opens it, Esc closes it, focus returns', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agentdna/synthetic/synthetic_tampered_intermediate_payload_only.serialized.json')]);
  await inspector.records('synthetic_tampered_intermediate_payload_only.serialized.json').first().click();
  const ruleRef = inspector.findings.getByRole('button', { name: 'agentdna/hash', exact: true });
  await ruleRef.focus();
  await page.keyboard.press('Enter');
  await expectExplanation(inspector, 'agentdna/hash');
  await page.keyboard.press('Escape');
  await expect(inspector.dialog).toBeHidden();
  await expect(ruleRef).toBeFocused();
  // Space opens it too; the mouse as well. Opening the explanation does not select the finding.
  await page.keyboard.press('Space');
  await expect(inspector.dialog).toBeVisible();
  await inspector.dialog.getByRole('button', { name: 'Close' }).click();
  await expect(ruleRef).toBeFocused();
  await inspector.findings.getByRole('button', { name: 'agentdna/signature', exact: true }).click();
  await expectExplanation(inspector, 'agentdna/signature');
  await page.keyboard.press('Escape');
  await expect(inspector.findings.locator('tr[aria-current="true"]')).toHaveCount(0);
});

test("a record's error code, an input's error code, and the Agents and Runs notes open their explanations", async ({ inspector, page }) => {
  await inspector.open();
  // An input that is no record at all (Paste says so and keeps it; loaded anyway): its header in the list names the code.
  await inspector.paste('zz');
  await expect(page.getByTestId('paste-problem')).toContainText('input/unrecognized');
  await page.getByRole('button', { name: 'Load it anyway' }).click();
  await inspector.input('pasted').getByRole('button', { name: 'input/unrecognized' }).click();
  await expectExplanation(inspector, 'input/unrecognized');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Clear' }).click();

  // The seventh record of the conversation did not decode: its error line names the code.
  await inspector.dropFiles([vector('agdx/made/conversation.cborseq')]);
  await inspector.records('conversation.cborseq').nth(6).click();
  await inspector.detail.getByRole('alert').getByRole('button', { name: 'cbor/truncated' }).click();
  await expectExplanation(inspector, 'cbor/truncated');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Clear' }).click();

  await inspector.dropFiles([vector('agdx/made/registry_log_http_v07.json')]);
  await expect(inspector.input('registry_log_http_v07.json')).toContainText('13 records');
  await page.getByRole('tab', { name: 'Agents' }).click();
  const agents = page.getByRole('table', { name: 'Agents' });
  await agents.getByRole('row', { name: 'Agent booker' }).getByRole('button', { name: 'agdx/fold/dead' }).click();
  await expectExplanation(inspector, 'agdx/fold/dead');
  await page.keyboard.press('Escape');
  await agents.getByRole('row', { name: 'Agent rogue' }).getByRole('button', { name: 'agdx/fold/quarantined' }).click();
  await expectExplanation(inspector, 'agdx/fold/quarantined');
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'Runs' }).click();
  await page.getByRole('listitem', { name: 'Run run-9' }).getByRole('button', { name: 'agdx/fold/after-terminal' }).click();
  await expectExplanation(inspector, 'agdx/fold/after-terminal');
});

test('the rule filter explains its rule; a prefix or a misspelling lists the rule ids it could mean', async ({ inspector, page }) => {
  await inspector.openWithSamples();
  const ruleFilter = page.getByLabel('Rule id');
  await ruleFilter.fill('agdx/matrix/operation');
  await page.getByRole('button', { name: 'Explain agdx/matrix/operation' }).click();
  await expectExplanation(inspector, 'agdx/matrix/operation');
  await page.keyboard.press('Escape');

  await ruleFilter.fill('agdx/matrix/');
  await page.getByRole('button', { name: 'Explain agdx/matrix/' }).click();
  const dialog = inspector.dialog;
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Not a rule id');
  await expect(dialog).toContainText('agdx/matrix/ is not a rule id');
  const ids = dialog.getByRole('list', { name: 'Rule ids' }).getByRole('button');
  await expect(ids).toHaveCount(13);
  // A suggestion opens in its place, focus on its first line (not lost to the page behind).
  await ids.filter({ hasText: 'agdx/matrix/correlation' }).press('Enter');
  await expectExplanation(inspector, 'agdx/matrix/correlation');
  expect(await inspector.focusIsIn(dialog)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Explain agdx/matrix/' })).toBeFocused();

  await ruleFilter.fill('agdx/matrix/corelation');
  await page.getByRole('button', { name: 'Explain agdx/matrix/corelation' }).click();
  await expect(dialog.getByRole('list', { name: 'Rule ids' }).getByRole('button')).toHaveText(['agdx/matrix/correlation']);
});
