import { readFileSync } from 'node:fs';
import { expect, test, vector } from './fixtures';

const keyFile = JSON.parse(readFileSync(vector('agdx/made/keys.json'), 'utf8'));
const sourceKey = keyFile.keys.find((k: { agent: string }) => k.agent === 'source-agent').public_key as string;
const otherKey = keyFile.keys.find((k: { agent: string }) => k.agent === 'other-agent').public_key as string;
const syntheticKeys = JSON.parse(readFileSync(vector('agentdna/synthetic/synthetic_keys.json'), 'utf8'));
const userDid = syntheticKeys['agentdna-test-user'].did as string;

test('a registered key makes a signed record valid and trusted, across a reload, until it is removed', async ({ inspector, page }) => {
  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(sourceKey);
  await page.getByLabel('Agent (required for keys and DIDs that do not name one)').fill('source-agent');
  await page.getByRole('button', { name: 'Add key' }).click();
  await expect(page.getByRole('row', { name: 'Key fe812c12f3ab4ce6' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();

  await inspector.dropFiles([vector('agdx/made/signed_command.bin')]);
  const row = inspector.records('signed_command.bin');
  await inspector.expectSigned(row, 'Signature valid, trusted');
  await row.click();
  const panel = page.getByTestId('signature');
  await expect(panel).toHaveAttribute('data-status', 'valid');
  await expect(page.getByTestId('trust')).toHaveText('yes');
  await expect(panel).toContainText('fe812c12f3ab4ce6');
  // The signing input in its three segments; the domain is the 17 ASCII bytes of agdx.signature.v1.
  await expect(panel.locator('[data-segment="domain"]')).toContainText('61 67 64 78 2e 73 69 67 6e 61 74 75 72 65 2e 76 31');

  await page.reload();
  await expect(page.getByRole('button', { name: 'Keys (1)' })).toBeVisible();
  await inspector.dropFiles([vector('agdx/made/signed_command.bin')]);
  await inspector.expectSigned(inspector.records('signed_command.bin'), 'Signature valid, trusted');

  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByRole('row', { name: 'Key fe812c12f3ab4ce6' }).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(inspector.records('signed_command.bin').getByLabel('Signed: unknown key')).toBeVisible();
  await inspector.records('signed_command.bin').click();
  await expect(page.getByTestId('signature')).toHaveAttribute('data-status', 'unknown_key');
});

test('a record signed by a registered key of another agent is valid but not trusted, and says why', async ({ inspector, page }) => {
  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(JSON.stringify({ keys: [{ agent: 'other-agent', public_key: otherKey }] }));
  await page.getByRole('button', { name: 'Add key' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([vector('agdx/made/signed_by_other_agent.bin')]);
  const row = inspector.records('signed_by_other_agent.bin');
  await inspector.expectSigned(row, 'Signature valid, not trusted: key of other-agent');
  await row.click();
  await expect(page.getByTestId('trust')).toHaveText('no: key of other-agent');
  await expect(page.getByTestId('signature')).toContainText('registered for "other-agent", not for the record\'s source "source-agent"');
});

test('the placeholder-signed fixture stays unknown_key, and a relabelled codec shows the context mismatch', async ({ inspector, page }) => {
  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(readFileSync(vector('agdx/made/keys.json'), 'utf8'));
  await page.getByRole('button', { name: 'Add key' }).click();
  await expect(page.getByRole('button', { name: 'Keys (2)' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([vector('agdx/laser-wire-0.0.1/agent_command_signed.bin'), vector('agdx/made/signed_context_mismatch_http_v07.json')]);
  await expect(inspector.records('agent_command_signed.bin').getByLabel('Signed: unknown key')).toBeVisible();
  await inspector.records('signed_context_mismatch_http_v07.json').click();
  await expect(page.getByTestId('signature')).toContainText('MISMATCH');
  await expect(page.getByTestId('trust')).toHaveText('no: signed context differs');
});

test('an AgentDNA workflow is trusted only while your registry holds its DID: empty, added, revoked', async ({ inspector, page }) => {
  await inspector.open();
  // One envelope, validly signed by the key its from DID is made from.
  await inspector.dropFiles([vector('agentdna/synthetic/synthetic_valid_single_root.serialized.json')]);
  const row = inspector.records('synthetic_valid_single_root.serialized.json');
  await inspector.expectSigned(row, 'Signature valid, not trusted: DID not in your registry');
  await row.click();
  await expect(page.getByTestId('trust')).toHaveText('no: DID not in your registry');
  await expect(page.getByTestId('signature')).toContainText('signature valid · key bound to DID · DID not in your registry');
  await expect(page.getByTestId('envelope-trust')).toHaveText('Not trusted');

  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(userDid);
  await page.getByLabel('Agent (required for keys and DIDs that do not name one)').fill('user');
  await page.getByRole('button', { name: 'Add key or DID' }).click();
  await expect(page.getByRole('row', { name: `DID ${userDid}` })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.expectSigned(row, 'Signature valid, trusted');
  await expect(page.getByTestId('trust')).toHaveText('yes');
  await expect(page.getByTestId('signature')).toContainText('trusted (user)');
  await expect(page.getByTestId('envelope-trust')).toHaveText('Trusted');

  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(`DID ${userDid} revoked`).check();
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.expectSigned(row, 'Signature valid, not trusted: DID revoked');
  await expect(page.getByTestId('trust')).toHaveText('no: DID revoked');
  await expect(page.getByTestId('signature')).toContainText('is revoked in your registry');
  await expect(page.getByTestId('envelope-trust')).toHaveText('Not trusted');
});

test('a window on a DID that excludes the envelope epoch: not trusted', async ({ inspector, page }) => {
  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(JSON.stringify({ keys: [{ agent: 'user', did: userDid, not_after_micros: 1_000_000 }] }));
  await page.getByRole('button', { name: 'Add key or DID' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([vector('agentdna/synthetic/synthetic_valid_single_root.serialized.json')]);
  const row = inspector.records('synthetic_valid_single_root.serialized.json');
  await inspector.expectSigned(row, "Signature valid, not trusted: after the DID's window");
  await row.click();
  await expect(page.getByTestId('signature')).toContainText('window closed');
  // Widening the window in the dialog is the person's own edit: it applies.
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(`Not after of DID ${userDid}`).fill('');
  await page.getByLabel(`Not after of DID ${userDid}`).press('Tab');
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.expectSigned(row, 'Signature valid, trusted');
});

test('re-importing a key file never un-revokes silently: the change waits for Accept', async ({ inspector, page }) => {
  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(JSON.stringify({ keys: [{ agent: 'source-agent', public_key: sourceKey, revoked: true }] }));
  await page.getByRole('button', { name: 'Add key or DID' }).click();
  await expect(page.getByLabel('Key fe812c12f3ab4ce6 revoked')).toBeChecked();
  await page.getByLabel(/^Key \(hex/).fill(JSON.stringify({ keys: [{ agent: 'source-agent', public_key: sourceKey, revoked: false }] }));
  await page.getByRole('button', { name: 'Add key or DID' }).click();
  await expect(page.getByLabel('Key fe812c12f3ab4ce6 revoked')).toBeChecked();
  const change = page.getByRole('listitem', { name: 'Change to key fe812c12f3ab4ce6 of source-agent' });
  await expect(change).toContainText('un-revoke it');
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([vector('agdx/made/signed_command.bin')]);
  const row = inspector.records('signed_command.bin');
  await inspector.expectSigned(row, 'Signature valid, not trusted: key revoked');
  await page.getByRole('button', { name: /^Keys/ }).click();
  await change.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByLabel('Key fe812c12f3ab4ce6 revoked')).not.toBeChecked();
  await expect(change).toHaveCount(0);
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.expectSigned(row, 'Signature valid, trusted');
});

test("another tab's registry changes are picked up, never overwritten by a stale copy", async ({ inspector, page, context }) => {
  await inspector.open();
  const other = await context.newPage();
  await other.goto('/?samples=none');
  await expect(other.getByRole('button', { name: 'Keys (0)' })).toBeVisible();
  // This tab adds a key; the other sees it without a reload.
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(JSON.stringify({ keys: [{ agent: 'source-agent', public_key: sourceKey }] }));
  await page.getByRole('button', { name: 'Add key or DID' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(other.getByRole('button', { name: 'Keys (1)' })).toBeVisible();
  // The other tab adds a DID: both keep both.
  await other.getByRole('button', { name: /^Keys/ }).click();
  await other.getByLabel(/^Key \(hex/).fill(userDid);
  await other.getByLabel('Agent (required for keys and DIDs that do not name one)').fill('user');
  await other.getByRole('button', { name: 'Add key or DID' }).click();
  await other.getByRole('button', { name: 'Close' }).click();
  await expect(other.getByRole('button', { name: 'Keys (2)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Keys (2)' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Keys (2)' })).toBeVisible();
});
