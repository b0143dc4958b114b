// Issue 26: one story per record. Each contradiction the issue saw, from a crafted input, with every
// view's words agreeing with the core's verdict; trust from the record, by keyboard alone; the keys
// table at both widths; a registered DID shown by its agent's name.
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tamperedSignedCommand } from './crafted';
import { atEachWidth, coloursOf, expect, test, vector } from './fixtures';

const keyFile = readFileSync(vector('agdx/made/keys.json'), 'utf8');
const sourceKey = (JSON.parse(keyFile).keys as { agent: string; public_key: string }[]).find((k) => k.agent === 'source-agent')!.public_key;
const synthetic = JSON.parse(readFileSync(vector('agentdna/synthetic/synthetic_keys.json'), 'utf8')) as Record<string, { did: string }>;
const ORCHESTRATOR = synthetic['agentdna-test-orchestrator'].did;

/** A crafted file, written where the test can drop it. */
function crafted(name: string, bytes: Uint8Array): string {
  const path = join(tmpdir(), `ei-verdicts-${process.pid}-${name}`);
  writeFileSync(path, bytes);
  return path;
}

const isGreen = ([r, g, b]: number[]) => g > r && g > b;

test.describe('the contradictions, each from a crafted input', () => {
  test('a tampered workflow in compare: what verifies on each side is that side’s verdict', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([
      vector('agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json'),
      vector('agentdna/synthetic/synthetic_tampered_intermediate_payload_only.serialized.json'),
    ]);
    await inspector.records('synthetic_valid_fanin_dag.serialized.json').click();
    await inspector.detail.getByRole('button', { name: 'Compare with…' }).click();
    const picker = page.getByRole('dialog', { name: 'Compare with…' });
    await picker.getByRole('combobox').fill('tampered_intermediate');
    await expect(picker.getByRole('option')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(picker).toBeHidden();
    const region = page.getByRole('region', { name: 'Comparison' });
    const meaning = region.getByTestId('signature-meaning');
    // It said "the same signature verifies both" while B's verdict is "Signature invalid".
    await expect(meaning).toHaveText(
      "Signed messages identical: a signature over one would cover the other. On A the signature holds (valid, not trusted); on B the tip's signature holds, but the chain does not verify (invalid).",
    );
    await expect(region).not.toContainText('verifies both');
    // Each side's head says the same as its record's badge.
    await expect(region.getByTestId('side-B').getByTestId('headline')).toHaveText('Signature invalid');
    await expect(region.getByTestId('side-B').getByTestId('signature-badge')).toHaveText('Signature invalid');
    await expect(region.getByTestId('side-A').getByTestId('signature-badge')).toHaveText('Signature valid, not trusted: DID not in your registry');
    await expect(region.getByRole('region', { name: 'What it means for signatures' })).toContainText(
      "B is signed by bafybmieov5ndpfynaz7snkexetcwarcdhewzfaabn2xmb7q6g2t2cfxfvq: the tip's signature holds, but the chain does not verify (invalid).",
    );
  });

  test('a tampered AgentDNA envelope: content changed after signing, no "signature holds", no "DID mismatch"', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([vector('agentdna/synthetic/synthetic_tampered_tip_payload.serialized.json')]);
    const row = inspector.records('synthetic_tampered_tip_payload.serialized.json');
    await inspector.expectSigned(row, 'Signature invalid');
    await row.click();
    const detail = inspector.detail;
    await expect(detail.getByTestId('headline')).toHaveText('Signature invalid');
    await expect(page.getByTestId('signature-sentence')).toHaveText('The signature does NOT hold.');
    await expect(detail).not.toContainText('signature holds over the stored hash');
    await expect(detail).not.toContainText('DID mismatch');
    await expect(inspector.findings).toContainText('the content was changed after signing');
    const tip = detail.getByRole('list', { name: 'Envelopes' }).getByRole('listitem').first();
    await expect(tip.getByTestId('envelope-signature')).toHaveText('Signature invalid: content changed');
    await expect(tip).not.toContainText('Key bound to DID');
    // The untouched parents still say their key is bound to their DID.
    await expect(detail.getByRole('list', { name: 'Envelopes' }).getByText('Key bound to DID')).toHaveCount(5);
  });

  test('a tampered AGDX record with its key registered: no signer claimed, and no green anywhere', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.addKeys(keyFile);
    await inspector.dropFiles([crafted('tampered.bin', tamperedSignedCommand())]);
    const row = inspector.records(`ei-verdicts-${process.pid}-tampered.bin`);
    await inspector.expectSigned(row, 'Signature invalid');
    // "Valid" is the matrix's, and says so; it is not green beside a signature that does not hold
    // (a compact row's mark says it in its name).
    const valid = row.getByTestId('valid-badge');
    await expect(valid).toHaveText('✓');
    await expect(valid).toHaveAttribute('title', /^Valid: yes, the fields follow the rules \(no error finding\), but signature invalid$/);
    for (const badge of await row.getByTestId('badges').getByRole('img').all()) expect(isGreen((await coloursOf(badge)).bg)).toBe(false);
    await row.click();
    await expect(inspector.detail.getByTestId('headline')).toHaveText('Signature invalid');
    await expect(page.getByTestId('signature-reason')).toContainText('does not verify under the registered key fe812c12f3ab4ce6');
    // It said "Signer: no registered key matched" right under that.
    await expect(page.getByTestId('signer')).toHaveText('not established: the signature does not verify under key fe812c12f3ab4ce6');
    await expect(page.getByTestId('trust')).toHaveText('no: the signature does not hold');
    await expect(page.getByRole('button', { name: 'Trust this signer…' })).toHaveCount(0);
    // The graph node says the same.
    await inspector.openGraph();
    await expect(inspector.graph.getByTestId('node-signature')).toHaveText('sig BAD');
  });

  test('a relabelled codec: a finding with its rule id, found by the rule filter; the panel says MISMATCH', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.addKeys(keyFile);
    await inspector.dropFiles([vector('agdx/made/signed_context_mismatch_http_v07.json'), vector('agdx/laser-wire-0.0.1/agent_event.bin')]);
    const row = inspector.records('signed_context_mismatch_http_v07.json');
    await inspector.expectSigned(row, 'Signature valid, not trusted: signed context differs');
    await expect(row.getByTestId('badges').getByRole('img', { name: /^Valid: no \(1 error finding\)/ })).toHaveText('✗');
    await row.click();
    await expect(inspector.detail.getByTestId('headline')).toHaveText('Invalid: 1 error');
    await expect(inspector.findings.getByRole('button', { name: 'agdx/signature/context' })).toBeVisible();
    await expect(inspector.findings).toContainText('agdx.ct says 1 (json), but the signature covers content_type 3 (cbor)');
    await expect(page.getByTestId('context')).toContainText('MISMATCH');
    await expect(page.getByTestId('trust')).toHaveText('no: signed context differs');
    await page.getByLabel('Rule id', { exact: true }).fill('agdx/signature/context');
    await expect(page.getByTestId('shown')).toContainText('1 of 2');
  });
});

test('keyboard only: from a record signed by an unknown key, "Trust this signer…", the agent filled in, a window by date, the record trusted', async ({
  inspector,
  page,
}) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/signed_command.bin')]);
  const row = inspector.records('signed_command.bin');
  await inspector.expectSigned(row, 'Unknown key');
  await inspector.tabTo(page.getByRole('listbox', { name: 'Records' }).getByRole('option').first());
  await page.keyboard.press('Enter');
  await expect(row).toHaveAttribute('aria-selected', 'true');

  const trust = page.getByRole('button', { name: 'Trust this signer…' });
  await inspector.tabTo(trust, { max: 120 });
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Trust this signer' });
  await expect(dialog).toBeVisible();
  // The record names only its key's id: the key is asked for, and focus is there.
  const key = dialog.getByLabel(/^Public key .* whose id is fe812c12f3ab4ce6/);
  await expect(key).toBeFocused();
  await page.keyboard.insertText(sourceKey);
  // The agent comes from the record, the kind from its operation.
  await page.keyboard.press('Tab');
  const agent = dialog.getByLabel('Agent (required)');
  await expect(agent).toBeFocused();
  await expect(agent).toHaveValue('source-agent');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Kind')).toHaveValue('agent');
  // The window as UTC dates; the micros they mean are shown.
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Not before (UTC)')).toBeFocused();
  await page.keyboard.type('2024-06-01');
  await expect(dialog).toContainText('= 1717200000000000 µs');
  await page.keyboard.press('Tab');
  await page.keyboard.type('2030-01-01 00:00');
  await expect(dialog).toContainText('= 1893456000000000 µs');
  await inspector.tabTo(dialog.getByRole('button', { name: 'Trust', exact: true }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  await inspector.expectSigned(row, 'Signature valid, trusted');
  await expect(page.getByTestId('trust')).toHaveText('yes');
  await expect(page.getByTestId('signer')).toHaveText('source-agent (key fe812c12f3ab4ce6)');
  await expect(inspector.detail.getByTestId('headline')).toHaveText(/^(Valid and trusted|\d+ warnings?)$/);
  await expect(page.getByRole('button', { name: 'Trust this signer…' })).toHaveCount(0);
  // The registry holds it with its window.
  await inspector.opener('Keys').click();
  await expect(page.getByLabel('Not before of key fe812c12f3ab4ce6')).toHaveValue('2024-06-01 00:00:00.000000 UTC');
  await expect(page.getByLabel('Agent of key fe812c12f3ab4ce6')).toHaveValue('source-agent');
});

test('the Trust dialog requires the agent, and refuses a key that is not the one that signed', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/signed_command.bin')]);
  await inspector.records('signed_command.bin').click();
  await page.getByRole('button', { name: 'Trust this signer…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Trust this signer' });
  await dialog.getByLabel(/^Public key/).fill(sourceKey);
  await dialog.getByLabel('Agent (required)').fill('');
  await dialog.getByRole('button', { name: 'Trust', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('An agent is required');
  const other = (JSON.parse(keyFile).keys as { agent: string; public_key: string }[]).find((k) => k.agent === 'other-agent')!.public_key;
  await dialog.getByLabel('Agent (required)').fill('source-agent');
  await dialog.getByLabel(/^Public key/).fill(other);
  await dialog.getByRole('button', { name: 'Trust', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('the signature names key fe812c12f3ab4ce6: it is not the key that signed the record');
  await expect(page.getByRole('button', { name: 'Keys (0)' })).toBeVisible();
});

test('the Keys dialog refuses a bare key with no agent, saying which', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.opener('Keys').click();
  await page.getByLabel(/^Key \(hex/).fill(sourceKey);
  await page.getByRole('button', { name: 'Add key or DID' }).click();
  await expect(inspector.dialog.getByRole('alert')).toContainText(`"${sourceKey.slice(0, 20)}…": no agent: every entry names the agent it belongs to`);
  await expect(page.getByRole('row', { name: 'Key fe812c12f3ab4ce6' })).toHaveCount(0);
});

atEachWidth(({ width }) => {
  test('the keys table: agent, type, key id or DID, window and state fit; un-revoking asks first', async ({ inspector, page }) => {
    await inspector.open();
    const keys = JSON.parse(keyFile);
    keys.keys[0].revoked = true;
    keys.keys.push({ agent: 'orchestrator', did: ORCHESTRATOR, not_before_micros: '1717171717000000' });
    await inspector.addKeys(JSON.stringify(keys));
    await inspector.opener('Keys').click();
    const table = page.getByRole('table', { name: 'Registered keys' });
    const row = table.getByRole('row', { name: 'Key fe812c12f3ab4ce6' });
    await expect(row.getByLabel('Agent of key fe812c12f3ab4ce6')).toHaveValue('source-agent');
    await expect(row).toContainText('Ed25519 key');
    await expect(row.getByTestId('key-identity')).toHaveText('fe812c12f3ab4ce6');
    await expect(row.getByTestId('key-state')).toHaveText('revoked');
    const did = table.getByRole('row', { name: `DID ${ORCHESTRATOR}` });
    await expect(did).toContainText('AgentDNA DID');
    await expect(did.getByLabel(`Not before of DID ${ORCHESTRATOR}`)).toHaveValue('2024-05-31 16:08:37.000000 UTC');
    await expect(did).toContainText('= 1717171717000000 µs');
    // Nothing sticks out of the dialog, sideways.
    const overflow = await inspector.dialog.evaluate((d) => d.scrollWidth - d.clientWidth);
    expect(overflow, `${width} wide`).toBeLessThanOrEqual(0);
    for (const r of await table.getByRole('row').all()) {
      if (!(await r.isVisible())) continue;
      const box = (await r.boundingBox())!;
      expect(box.x + box.width, `${width} wide`).toBeLessThanOrEqual(width);
    }
    // Un-revoking asks first; keeping it revoked changes nothing; confirming un-revokes.
    await row.getByLabel('Key fe812c12f3ab4ce6 revoked').click();
    const ask = row.getByRole('alertdialog', { name: 'Un-revoke key fe812c12f3ab4ce6?' });
    await expect(ask).toBeVisible();
    await expect(row.getByLabel('Key fe812c12f3ab4ce6 revoked')).toBeChecked();
    await ask.getByRole('button', { name: 'Keep revoked' }).click();
    await expect(row.getByLabel('Key fe812c12f3ab4ce6 revoked')).toBeChecked();
    await row.getByLabel('Key fe812c12f3ab4ce6 revoked').click();
    await ask.getByRole('button', { name: 'Un-revoke' }).click();
    await expect(row.getByLabel('Key fe812c12f3ab4ce6 revoked')).not.toBeChecked();
    await expect(row.getByTestId('key-state')).toHaveText('active');
  });
});

test('a registered DID is shown by its agent’s name, the DID in its tooltip and in the detail', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.addKeys(JSON.stringify({ keys: [{ agent: 'orchestrator', did: ORCHESTRATOR }] }));
  await inspector.dropFiles([vector('agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json')]);
  const row = inspector.records('synthetic_valid_fanin_dag.serialized.json');
  const named = row.locator(`[data-identity="${ORCHESTRATOR}"]`);
  await expect(named).toHaveText('orchestrator');
  await expect(named).toHaveAttribute('title', ORCHESTRATOR);
  await expect(row).not.toContainText('bafybmieov5n');
  await row.click();
  // The summary line and the workflow's envelopes name it too; the signer line shows the DID itself.
  await expect(inspector.detail.locator('header').locator(`[data-identity="${ORCHESTRATOR}"]`)).toHaveText('orchestrator');
  await expect(inspector.detail.getByRole('list', { name: 'Envelopes' }).locator(`[data-identity="${ORCHESTRATOR}"]`).first()).toHaveText('orchestrator');
  await expect(page.getByTestId('signer')).toHaveText(`orchestrator (${ORCHESTRATOR})`);
  await expect(page.getByTestId('signature-reason').locator(`[data-identity="${ORCHESTRATOR}"]`).first()).toHaveText('orchestrator');
});
