// Issue 17 item 3: Compare. From a record's detail, "Compare with…" opens a picker (a modal dialog:
// Tab stays in it, Esc closes it, focus returns); the region labelled "Comparison" then shows both
// records: fields added, removed and changed (nested ones too), the byte diff of their canonical
// encodings, what it means for signatures, their verdicts; two AgentDNA workflows envelope by
// envelope; two inputs record by record. A permalink carries the comparison: opening it reopens it.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, type InspectorPage, test, vector } from './fixtures';

const WORKFLOW_A = vector('agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json');
const WORKFLOW_B = vector('agentdna/synthetic/synthetic_tampered_intermediate_payload_only.serialized.json');

/** The command's JSON view with another body: the same envelope but for `body`. */
function commandWithOtherBody(path: string): string {
  const command = JSON.parse(readFileSync(vector('agdx/made/command.json'), 'utf8'));
  const body = [...Buffer.from('{"ask":"plan the tour","by":"train"}')];
  writeFileSync(path, JSON.stringify({ ...command, body }));
  return path;
}

function comparison(page: Page): Locator {
  return page.getByRole('region', { name: 'Comparison' });
}

/** Selects a record, opens "Compare with…" from its detail, finds B by `search` and picks the first result with Enter. */
async function compareWith(inspector: InspectorPage, a: Locator, search: string, expectedResults: number) {
  await a.click();
  await inspector.detail.getByRole('button', { name: 'Compare with…' }).click();
  const dialog = inspector.page.getByRole('dialog', { name: 'Compare with…' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox').fill(search);
  await expect(dialog.getByRole('option')).toHaveCount(expectedResults);
  await inspector.page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

/** The Field differences table's row for `path`: its change word and the values of A and B. */
async function fieldRow(region: Locator, path: string): Promise<string[]> {
  const row = region.getByRole('table', { name: 'Field differences' }).locator(`tbody tr[data-path="${path}"]`);
  await expect(row).toHaveCount(1);
  return (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim());
}

/** An AgentDNA agent card's history, two versions of a one-line JSON policy: `write` withdrawn, `admin` granted, `max_tokens` raised. */
function cardHistory(path: string): string {
  const keys = JSON.parse(readFileSync(vector('agentdna/synthetic/synthetic_keys.json'), 'utf8'));
  const did: string = keys['agentdna-test-worker-1'].did;
  const policy = (p: unknown) => Buffer.from(JSON.stringify(p)).toString('base64');
  const states = [
    { type: 'actor_card', id: did, policy: policy({ allow: ['read', 'write'], max_tokens: 1000 }) },
    { type: 'actor_card', id: did, policy: policy({ allow: ['read', 'admin'], max_tokens: 2000 }) },
  ];
  writeFileSync(path, JSON.stringify(states));
  return path;
}

test.describe('Compare', () => {
  test('the picker is a keyboard dialog: Tab stays in it, Esc closes it, focus returns to "Compare with…"', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([vector('agdx/made/conversation.cborseq'), vector('agdx/made/signed_command.bin')]);
    await inspector.records('conversation.cborseq').first().click();
    const opener = inspector.detail.getByRole('button', { name: 'Compare with…' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Compare with…' });
    await expect(dialog).toBeVisible();
    // The search box has focus first; its results are listed, the record's own kind first.
    await expect(dialog.getByRole('combobox')).toBeFocused();
    await expect(dialog.getByTestId('candidate-count')).toContainText('match');
    const stops = await dialog.evaluate((el) => el.querySelectorAll('button, input, select, textarea, a[href]').length);
    await inspector.expectFocusStaysIn(dialog, 'Tab', stops + 3);
    await inspector.expectFocusStaysIn(dialog, 'Shift+Tab', stops + 3);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    // Nothing was compared.
    await expect(page.getByRole('tab', { name: 'Record' })).toHaveAttribute('aria-selected', 'true');

    // The arrow keys move through the results and Enter picks the active one.
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('combobox')).toHaveValue('');
    const options = dialog.getByRole('option');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    const count = await options.count();
    expect(count).toBeGreaterThan(1);
    await page.keyboard.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    const picked = (await options.nth(1).textContent()) ?? '';
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true');
    const [, index, name] = /^record #(\d+) of (.+?) · /.exec(picked) ?? [];
    expect(name).toBeTruthy();
    await expect(comparison(page).getByTestId('side-B')).toContainText(name);
    await expect(comparison(page).getByTestId('side-B')).toContainText(`record #${index}`);
    await expect(comparison(page).getByTestId('side-A')).toContainText('record #0');

    // "Pick in the list instead": the list's next choice is B (Esc would cancel).
    await page.getByRole('button', { name: 'Change B…' }).click();
    await dialog.getByRole('button', { name: 'Pick in the list instead' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Pick record B' })).toBeVisible();
    // The response: the picker's first results were commands (A's kind first), so B changes.
    await inspector.records('conversation.cborseq').nth(4).click();
    await expect(page.getByRole('status').filter({ hasText: 'Pick record B' })).toHaveCount(0);
    await expect(comparison(page).getByTestId('side-B')).toContainText('record #4 · agdx.envelope · response');
    await expect(comparison(page).getByTestId('field-counts')).not.toHaveText('No field differs.');
  });

  test('two records: fields (nested too), the canonical bytes, what it means for signatures, verdicts', async ({ inspector, page }, info) => {
    await inspector.open();
    const other = commandWithOtherBody(info.outputPath('command_other_body.json'));
    await inspector.dropFiles([vector('agdx/made/conversation.cborseq'), vector('agdx/made/signed_command.bin'), other]);

    // The sequence's command with the same command but its body: same signing input except `body`.
    await compareWith(inspector, inspector.records('conversation.cborseq').first(), 'command_other_body', 1);
    const region = comparison(page);
    await expect(region).toBeVisible();
    await expect(region.getByTestId('side-A')).toContainText('conversation.cborseq');
    await expect(region.getByTestId('side-A')).toContainText('record #0');
    await expect(region.getByTestId('side-B')).toContainText('command_other_body.json');
    await expect(region.getByTestId('signature-meaning')).toHaveText('Different signing input: a signature over one does not cover the other.');
    await expect(region.getByRole('region', { name: 'What it means for signatures' })).toContainText('Same signing input except body.');
    await expect(region.getByTestId('field-counts')).toHaveText('1 added, 0 removed, 1 changed. Bodies compared as JSON, member by member.');
    // Nested: inside the body, a member changed and one was added; the top-level fields are the same.
    expect(await fieldRow(region, 'body.ask')).toEqual(['~ changed', 'body.ask', '"plan the trip"', '"plan the tour"']);
    expect(await fieldRow(region, 'body.by')).toEqual(['+ added', 'body.by', '(absent)', '"train"']);
    await expect(region.locator('tr[data-path="source"]')).toHaveCount(0);
    await region.getByLabel('Show unchanged fields').check();
    expect(await fieldRow(region, 'source')).toEqual(['= same', 'source', '"source-agent"', '"source-agent"']);
    // The canonical encodings' byte diff: the differing bytes are in the body, and marked.
    const bytes = region.getByRole('region', { name: 'Canonical encodings (byte diff)' });
    await expect(bytes.getByTestId('byte-summary')).toContainText(/differ, in \d+ stretch(es)? \(fields body\)/);
    await expect(bytes.locator('mark').first()).toBeVisible();
    // Verdicts side by side.
    const verdicts = region.getByRole('table', { name: 'Verdicts side by side' });
    await expect(verdicts.getByRole('row', { name: /^Signature/ })).toContainText('unsigned');

    // The command against its signed copy: nothing but the signature differs, and the signature covers both.
    await page.getByRole('tab', { name: 'Record' }).click();
    await compareWith(inspector, inspector.records('conversation.cborseq').first(), 'signed_command', 1);
    await expect(region.getByTestId('side-B')).toContainText('signed_command.bin');
    // What verifies is each side's verdict: A is unsigned, and B's key is not registered here.
    await expect(region.getByTestId('signature-meaning')).toHaveText(
      'Signing inputs identical: a signature over one would cover the other. On A there is no signature; on B the signature cannot be checked (unknown key).',
    );
    await expect(region).toContainText("B's signature would verify A too, which carries none.");
    await expect(region.getByTestId('field-counts')).toHaveText(/^1 added, 0 removed, 0 changed\./);
    expect((await fieldRow(region, 'signature'))[0]).toBe('+ added');
    await expect(verdicts.getByRole('row', { name: /^Signature/ })).toContainText('(differs)');

    // Swap A and B: the signature is now on A's side, removed in B.
    await region.getByRole('button', { name: 'Swap A and B' }).click();
    await expect(region.getByTestId('side-A')).toContainText('signed_command.bin');
    expect((await fieldRow(region, 'signature'))[0]).toBe('− removed');

    // Their inputs record by record: matched by correlation and kind; the sequence's others are only in A.
    await region.getByRole('button', { name: 'Their inputs' }).click();
    await expect(region.getByTestId('log-counts')).toContainText('0 matched and the same, 1 matched and changed, 0 only in A, 6 only in B.');
    const logRows = region.getByRole('table', { name: 'Records side by side' }).locator('tbody tr');
    await expect(logRows.locator('xpath=self::*[@data-status="added"]')).toHaveCount(6);
    const command = logRows.locator('xpath=self::*[@data-status="changed"]');
    await expect(command.getByRole('cell').nth(1)).toHaveText('correlation', { useInnerText: true });
    await expect(command).toContainText('signature unknown key → unsigned');
    // A record of the table opens its detail.
    await command.getByRole('button', { name: "show B's record #0 of conversation.cborseq" }).click();
    await expect(inspector.records('conversation.cborseq').first()).toHaveAttribute('aria-selected', 'true');
  });

  test('two AgentDNA workflows envelope by envelope', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([WORKFLOW_A, WORKFLOW_B]);
    await compareWith(inspector, inspector.records('synthetic_valid_fanin_dag.serialized.json').first(), 'tampered_intermediate', 1);
    const region = comparison(page);
    const envelopes = region.getByRole('region', { name: 'Envelopes (AgentDNA workflows)' });
    await expect(envelopes.getByTestId('workflow-counts')).toContainText('5 the same, 1 differing, 0 only in A, 0 only in B.');
    const table = envelopes.getByRole('table', { name: 'Envelopes side by side' });
    await expect(table.locator('tbody tr')).toHaveCount(6);
    const changed = table.locator('tbody tr[data-status="changed"]');
    await expect(changed).toHaveCount(1);
    await expect(changed).toContainText('envelope.parent_envelope[0].parent_envelope[0]');
    await expect(changed).toContainText('differs: payload; verdicts differ');
    await expect(changed).toContainText('"exfiltrate"');
    await expect(changed.getByRole('cell').nth(1)).toHaveText('hash', { useInnerText: true });
    // The tips are the same: the tip's signature covers both, but B's chain does not verify, and the headline says so.
    await expect(region.getByTestId('signature-meaning')).toHaveText(
      "Signed messages identical: a signature over one would cover the other. On A the signature holds (valid, not trusted); on B the tip's signature holds, but the chain does not verify (invalid).",
    );
    await expect(region.getByRole('table', { name: 'Verdicts side by side' }).getByRole('row', { name: /^Valid/ })).toContainText('(differs)');
    // The structural diff finds the tampered payload deep in the chain.
    expect(await fieldRow(region, 'envelope.parent_envelope[0].parent_envelope[0].payload')).toEqual([
      '~ changed',
      'envelope.parent_envelope[0].parent_envelope[0].payload',
      '"{\\"action\\":\\"produce_task_spec\\",\\"worker\\":1}"',
      '"{\\"action\\":\\"exfiltrate\\"}"',
    ]);
  });

  test('a permalink carries the comparison: opening the link reopens it', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([WORKFLOW_A, WORKFLOW_B]);
    await compareWith(inspector, inspector.records('synthetic_valid_fanin_dag.serialized.json').first(), 'tampered_intermediate', 1);
    await expect(comparison(page).getByTestId('workflow-counts')).toContainText('1 differing');

    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Share/ })
      .click();
    const link = page.getByLabel('Permalink');
    await expect(link).toHaveValue(/#v1\./);
    await expect(page.getByTestId('link-size')).toContainText('characters');
    const url = await link.inputValue();
    await page.keyboard.press('Escape');

    // A fresh page: nothing is compared until the link is opened.
    await inspector.open();
    await expect(page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'false');
    await page.goto(url);
    await page.reload();
    const region = comparison(page);
    await expect(page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true');
    await expect(region.getByTestId('side-A')).toContainText('synthetic_valid_fanin_dag.serialized.json');
    await expect(region.getByTestId('side-B')).toContainText('synthetic_tampered_intermediate_payload_only.serialized.json');
    await expect(region.getByTestId('workflow-counts')).toContainText('5 the same, 1 differing, 0 only in A, 0 only in B.');
    // The Shared view banner says what the link compares.
    await expect(page.getByTestId('preset-compare')).toContainText(
      'record #0 of synthetic_valid_fanin_dag.serialized.json with record #0 of synthetic_tampered_intermediate_payload_only.serialized.json',
    );
  });

  test("an agent card's policy history shows which permissions were added and removed, not a count of lines", async ({ inspector }, info) => {
    await inspector.open();
    await inspector.dropFiles([cardHistory(info.outputPath('card_history.json'))]);
    const second = inspector.records('card_history.json').nth(1);
    await second.click();
    // The record's summary line.
    await expect(inspector.detail).toContainText('policy: 1 added, 1 removed, 1 changed');
    await expect(inspector.detail).not.toContainText(/\+\d+ −\d+ lines/);
    const body = inspector.detail.getByRole('region', { name: 'Body' });
    await expect(body).toContainText('1 entry added, 1 removed, 1 value changed (compared as JSON) since version 1');
    await expect(body).toContainText('removed  allow[1]: "write"');
    await expect(body).toContainText('added    allow[1]: "admin"');
    await expect(body).toContainText('changed  max_tokens: 1000 → 2000');
  });

  test('on a phone (390 px) the comparison fits its width: its tables stack as cards, nothing scrolls sideways', async ({ inspector, page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await inspector.open();
    await inspector.dropFiles([WORKFLOW_A, WORKFLOW_B]);
    await compareWith(inspector, inspector.records('synthetic_valid_fanin_dag.serialized.json').first(), 'tampered_intermediate', 1);
    const region = comparison(page);
    await expect(region.getByTestId('workflow-counts')).toBeVisible();
    await region.getByLabel('Show unchanged fields').check();
    for (const name of ['Field differences', 'Envelopes side by side']) {
      const table = region.getByRole('table', { name });
      await expect(table).toBeVisible();
      // Stacked: the header row is for screen readers only, and each cell's side is written before its value.
      await expect(table.locator('thead')).toHaveCSS('position', 'absolute');
      const fit = await table.evaluate((el) => ({ table: el.getBoundingClientRect().right, view: document.documentElement.clientWidth }));
      expect(fit.table, name).toBeLessThanOrEqual(fit.view);
    }
    // Nothing reaches past the region's content edge (a long DID, hash or name wraps).
    const wide = await region.evaluate((el) => {
      const right = el.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(el).paddingRight);
      // (A stacked table's header is for screen readers: clipped to nothing, it takes no room.)
      return [...el.querySelectorAll('*')]
        .filter((e) => !e.closest('thead') && e.getBoundingClientRect().right > right + 0.5)
        .map((e) => `${e.tagName} ${e.textContent?.slice(0, 40)}`);
    });
    expect(wide).toEqual([]);
    expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expect(region.locator('tr[data-path="envelope.parent_envelope[0].parent_envelope[0].payload"]')).toContainText(/A\s*"\{/);
  });
});
